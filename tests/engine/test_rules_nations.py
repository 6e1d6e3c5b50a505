"""Nation and army rules (vocabulary 2.6; rules/004 nation notes): Japanese infantry,
British Commonwealth battle back, Blitz / partial blitz, Italian Royal Army, North
African desert overrun.  Boards drawn as text, chosen dice, the outcome the vocabulary
states."""

import pytest

from engine import IllegalAction, apply
from tests.engine.rulehelp import (
    act,
    battle_dice_vs,
    do,
    event_types,
    game,
    legal,
    order_units,
    ordered,
    play,
    roll,
    to_battle,
    uid,
    unit,
)

JP = {"AXIS": "jp"}


def axis_ordered(text: str, who, key="direct_from_hq", **kw):
    """AXIS (top, player 1) starts, plays ``key`` and orders the units on ``who``."""
    st = game(text, axis_hand=[key], starting="PLAYER1", **kw)
    return order_units(play(st, key), who)


def assault(st, frm, target, *faces):
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, frm), target=list(target))
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, *faces)


def moves(st, h):
    return sorted(tuple(a["to"]) for a in legal(st, "move") if a["unit"] == uid(st, h))


# ====================================================================== Japanese (2.6)
def test_japanese_infantry_must_ignore_one_flag():
    st = ordered("4@10: .:i\n5@11: .:I", [(5, 11)], nations=JP)
    st, ev = assault(st, (5, 11), (4, 10), "flag", "star", "star")
    # the single flag is ignored automatically: no retreat decision, the unit stays
    assert "flags_ignored" in event_types(ev) and unit(st, (4, 10)).spec.nation == "jp"
    assert st.pending is None or st.pending["type"] != "retreat"
    st = ordered("4@10: .:i\n5@11: .:I", [(5, 11)], nations=JP)
    st, ev = assault(st, (5, 11), (4, 10), "flag", "flag", "star")
    # two flags: one is ignored (no choice), the other makes it retreat one hex
    assert st.pending["type"] == "retreat"
    assert {o["ignore"] for o in st.pending["options"]} == {1}
    assert {o["to"][0] for o in st.pending["options"]} == {3}


def test_japanese_infantry_ignores_two_flags_with_terrain_that_allows_one():
    st = ordered("4@10: S:i\n5@11: .:I", [(5, 11)], nations=JP)
    st, ev = assault(st, (5, 11), (4, 10), "flag", "flag")  # sandbag: 2 dice
    assert {"type": "flags_ignored", "unit": uid(st, (4, 10)), "count": 2} in ev
    assert "unit_retreated" not in event_types(ev)


def test_japanese_infantry_in_a_cave_ignores_all_flags():
    st = ordered("4@10: Q:i\n5@11: .:I", [(5, 11)], nations=JP, legend={"Q": "pcave"})
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 1  # cave: -2 dice vs infantry
    st, ev = assault(st, (5, 11), (4, 10), "flag")
    assert {"type": "flags_ignored", "unit": uid(st, (4, 10)), "count": 1} in ev
    assert unit(st, (4, 10)).figures == 4 and "unit_retreated" not in event_types(ev)


def test_japanese_infantry_plus_one_die_in_close_assault_at_full_strength():
    st = axis_ordered("3@9: .:i .:i\n4@10: .:I .:I", [(3, 9), (3, 11)], nations=JP)
    st = to_battle(st)
    st.mut(uid(st, (3, 11))).figures = 3
    assert battle_dice_vs(st, (3, 9), (4, 10)) == 4  # 3 + 1 at full strength
    assert battle_dice_vs(st, (3, 11), (4, 12)) == 3  # wounded: no bonus


def test_japanese_banzai_battles_at_range_one_after_moving_two():
    st = axis_ordered("1@9: .:i\n4@10: .:I", [(1, 9)], nations=JP)
    st = do(st, "move", unit=uid(st, (1, 9)), to=[3, 9])  # 2 hexes
    st = to_battle(st)
    t = [a["target"] for a in legal(st, "battle")]
    assert t == [[4, 10]]
    # a US infantry marching 2 cannot battle at all
    st = axis_ordered("1@9: .:i\n4@10: .:I", [(1, 9)])
    st = do(st, "move", unit=uid(st, (1, 9)), to=[3, 9])
    assert st.phase != "battle" or not legal(st, "battle")


def test_japanese_banzai_is_close_assault_only():
    st = axis_ordered("1@9: .:i\n5@9: .:I", [(1, 9)], nations=JP)
    st = do(st, "move", unit=uid(st, (1, 9)), to=[3, 9])  # 2 hexes, enemy at 2
    assert st.phase != "battle" or not legal(st, "battle")


# ====================================================================== British (2.6)
def test_british_commonwealth_battle_back_with_one_die():
    st = axis_ordered("3@9: .:i\n4@10: .:I2", [(3, 9)], nations={"ALLIES": "brit"})
    st, ev = assault(st, (3, 9), (4, 10), "inf", "star", "armor")
    assert unit(st, (4, 10)).figures == 1
    assert st.pending["type"] == "battle_back" and st.pending["seat"] == "ALLIES"
    assert {a["type"] for a in legal(st)} == {"battle_back", "pass"}
    st, ev = act(st, "battle_back")
    decl = [e for e in ev if e["type"] == "battle_declared"][0]
    assert decl["kind"] == "battle_back" and decl["dice"] == 1
    assert st.pending == {
        "type": "roll",
        "seat": "chance",
        "dice": 1,
        "for": "battle_back",
        "unit": uid(st, (4, 10)),
        "target": [3, 9],
    }
    st, ev = roll(st, "inf")
    assert unit(st, (3, 9)).figures == 3  # the attacker lost a figure


def test_british_battle_back_not_after_a_flag_nor_above_one_figure():
    st = axis_ordered("3@9: .:i\n4@10: .:I2", [(3, 9)], nations={"ALLIES": "brit"})
    st, ev = assault(st, (3, 9), (4, 10), "inf", "flag", "armor")
    assert st.pending is None or st.pending["type"] != "battle_back"
    st = axis_ordered("3@9: .:i\n4@10: .:I3", [(3, 9)], nations={"ALLIES": "brit"})
    st, ev = assault(st, (3, 9), (4, 10), "inf", "star", "armor")
    assert st.pending is None or st.pending["type"] != "battle_back"
    st = axis_ordered("3@9: .:i\n4@10: .:I2", [(3, 9)])  # US: no battle back
    st, ev = assault(st, (3, 9), (4, 10), "inf", "star", "armor")
    assert st.pending is None or st.pending["type"] != "battle_back"


def test_british_battle_back_may_be_declined():
    st = axis_ordered("3@9: .:i\n4@10: .:I2", [(3, 9)], nations={"ALLIES": "brit"})
    st, ev = assault(st, (3, 9), (4, 10), "inf", "star", "armor")
    st, ev = act(st, "pass")
    assert "battle_declared" not in event_types(ev) and unit(st, (3, 9)).figures == 4


# ====================================================================== Blitz (2.6)
def test_blitz_rules_allied_armor_moves_two():
    st = ordered(
        "0@0: .:i\n6@10: .:A",
        [(6, 10)],
        key="armor_assault",
        game_info={"options": {"blitz_rules": True}},
    )
    assert max(r for r, c in [(6 - r, c) for r, c in moves(st, (6, 10))]) == 2
    st = ordered("0@0: .:i\n6@10: .:A", [(6, 10)], key="armor_assault")
    assert max(6 - r for r, c in moves(st, (6, 10))) == 3


def test_partial_blitz_rules_named_side_armor_moves_two_and_battles():
    st = axis_ordered(
        "0@10: .:a\n6@10: .:I", [(0, 10)], game_info={"options": {"partial_blitz_rules": "AXIS"}}
    )
    assert max(r for r, c in moves(st, (0, 10))) == 2
    assert unit(st, (6, 10)).spec.move == 2  # Allied infantry unchanged
    st = ordered(
        "0@0: .:i\n6@10: .:A",
        [(6, 10)],
        key="armor_assault",
        game_info={"options": {"partial_blitz_rules": "AXIS"}},
    )
    assert max(6 - r for r, c in moves(st, (6, 10))) == 3


# ====================================================================== Italian (2.6)
def test_italian_royal_army_retreats_one_to_three_hexes_per_flag():
    st = ordered(
        "4@10: .:i\n5@11: .:I",
        [(5, 11)],
        nations={"AXIS": "it"},
        game_info={"options": {"italy_royal_army": True}},
    )
    st, _ = assault(st, (5, 11), (4, 10), "flag", "star", "star")
    assert {o["to"][0] for o in st.pending["options"]} == {3, 2, 1}
    st = ordered("4@10: .:i\n5@11: .:I", [(5, 11)], nations={"AXIS": "it"})
    st, _ = assault(st, (5, 11), (4, 10), "flag", "star", "star")
    assert {o["to"][0] for o in st.pending["options"]} == {3}  # 1 hex only


def test_italian_royal_army_artillery_may_ignore_one_flag():
    st = ordered(
        "4@10: .:g\n5@11: .:I",
        [(5, 11)],
        nations={"AXIS": "it"},
        game_info={"options": {"italy_royal_army": True}},
    )
    st, _ = assault(st, (5, 11), (4, 10), "flag", "star", "star")
    assert st.pending["type"] == "retreat"
    assert 1 in {o["ignore"] for o in st.pending["options"]}


def test_italian_high_command_axis_hand_six_and_a_random_discard_per_unit_lost():
    ihc = {"italy_high_command": True}
    text = "0@0: .:i\n4@10: .:i1\n5@11: .:I"
    st = ordered(text, [(5, 11)], game_info={"options": ihc})
    before = list(st.hands["AXIS"])
    assert len(before) == 6  # Axis hand size 6 (cards_player1 is 4)
    st, ev = assault(st, (5, 11), (4, 10), "inf", "star", "star")
    assert "unit_eliminated" in event_types(ev)
    [d] = [e for e in ev if e["type"] == "card_discarded"]
    assert d["side"] == "AXIS" and d["reason"] == "italy_high_command"
    assert d["card"]["id"] in before and d["card"]["id"] not in st.hands["AXIS"]
    assert len(st.hands["AXIS"]) == 5 and st.discard[-1] == d["card"]["id"]
    # holding 3 cards (not more than 3): no discard
    st = ordered(
        text,
        [(5, 11)],
        game_info={"options": ihc},
        axis_hand=[("probe", 0), ("probe", 1), ("probe", 2)],
    )
    st, ev = assault(st, (5, 11), (4, 10), "inf", "star", "star")
    assert "unit_eliminated" in event_types(ev) and "card_discarded" not in event_types(ev)
    assert len(st.hands["AXIS"]) == 3
    # a figure lost is not a unit lost; without the option: 4 cards, no discard
    st = ordered("0@0: .:i\n4@10: .:i\n5@11: .:I", [(5, 11)], game_info={"options": ihc})
    st, ev = assault(st, (5, 11), (4, 10), "inf", "star", "star")
    assert "card_discarded" not in event_types(ev) and len(st.hands["AXIS"]) == 6
    st = ordered(text, [(5, 11)])
    assert len(st.hands["AXIS"]) == 4
    st, ev = assault(st, (5, 11), (4, 10), "inf", "star", "star")
    assert "card_discarded" not in event_types(ev) and len(st.hands["AXIS"]) == 4


# ====================================================================== Desert (2.6)
def test_north_african_desert_armor_moves_one_hex_after_taking_ground_before_overrun():
    st = ordered(
        "2@10: .:i\n4@10: .:i\n5@11: .:A",
        [(5, 11)],
        key="armor_assault",
        game_info={"options": {"north_african_desert_rules": True}},
    )
    st, ev = assault(st, (5, 11), (4, 10), "inf", "inf", "inf", "inf")
    assert st.pending["type"] == "take_ground"
    st = do(st, "take_ground", take=True)
    assert st.pending["type"] == "desert_move" and st.pending["seat"] == "ALLIES"
    assert [3, 9] in st.pending["options"] and [2, 10] not in st.pending["options"]
    st, ev = act(st, "move", unit=uid(st, (4, 10)), to=[3, 9])
    assert unit(st, (3, 9)).cls == "armor"
    assert st.pending["type"] == "overrun"
    assert [a["target"] for a in legal(st, "battle")] == [[2, 10]]
    # without the option the overrun follows the take ground at once
    st = ordered("2@10: .:i\n4@10: .:i\n5@11: .:A", [(5, 11)], key="armor_assault")
    st, ev = assault(st, (5, 11), (4, 10), "inf", "inf", "inf", "inf")
    st = do(st, "take_ground", take=True)
    assert st.pending["type"] == "overrun"


# ====================================================================== Gung-Ho (2.6)
US_GUNG_HO = {"options": {"gung_ho": True}, "country_player2": "US"}


def test_gung_ho_section_card_orders_one_more_unit():
    text = "0@0: .:i\n6@8: .:I .:I .:I .:I"
    st = ordered(text, [(6, 8), (6, 10), (6, 12), (6, 14)], key=("probe", 1), game_info=US_GUNG_HO)
    assert len(st.play.ordered) == 3  # Probe: 2 + 1
    st = ordered(text, [(6, 8), (6, 10), (6, 12), (6, 14)], key=("probe", 1))
    assert len(st.play.ordered) == 2
    st = ordered(
        text,
        [(6, 8), (6, 10), (6, 12), (6, 14)],
        key=("probe", 1),
        game_info={"options": {"gung_ho": True}, "country_player2": "GB"},
    )
    assert len(st.play.ordered) == 2  # not a US side


def test_gung_ho_tactic_card_ordering_four_orders_five_and_barrage_unchanged():
    text = "0@0: .:i\n6@0: .:I .:I .:I .:I .:I .:I"
    who = [(6, 2 * k) for k in range(6)]
    st = ordered(text, who, key="direct_from_hq", game_info=US_GUNG_HO)
    assert len(st.play.ordered) == 5
    st = ordered(text, who[:1], key="behind_enemy_lines", game_info=US_GUNG_HO)
    assert sum(q.count for q in st.play.quotas) == 2  # 1 -> 2
    st = ordered(text, [], key="barrage", game_info=US_GUNG_HO)
    assert st.phase == "target" and not st.play.quotas


# ====================================================================== Commissar (004)
def commissar_game(**kw):
    st = game(
        "0@0: .:i\n6@10: .:I",
        hand=[("probe", 1), ("attack", 1), ("recon", 1), ("probe", 0)],
        game_info={"options": {"russian_commissar_rule": "ALLIES"}},
        **kw,
    )
    return st


def test_commissar_card_placed_each_turn_is_played_next_turn():
    from tests.engine.rulehelp import card_id

    st = commissar_game()
    st = play(st, "probe", 1)  # first turn: from hand
    while st.pending["type"] != "commissar":
        st = apply(st, legal(st)[-1])[0]  # end orders / movement / battles
    assert st.pending["seat"] == "ALLIES" and st.active == "ALLIES"
    attack = card_id("attack", 1)
    st, ev = act(st, "commissar", card=attack)
    assert attack not in st.hands["ALLIES"] and st.ext["commissar_chip"]["ALLIES"] == attack
    placed = [e for e in ev if e["type"] == "commissar_card_placed"][0]
    assert placed["secret_to"] == ["ALLIES"]
    from engine import view_for

    assert view_for(st, "AXIS")["sides"]["ALLIES"]["commissar"] == 1
    assert "commissar_card" not in view_for(st, "AXIS")["sides"]["ALLIES"]
    assert view_for(st, "ALLIES")["sides"]["ALLIES"]["commissar_card"]["id"] == attack
    # AXIS turn, then ALLIES may play only the chip card or a Recon from hand
    st = play(st, st.hands["AXIS"][0])
    while st.active == "AXIS":
        st = apply(st, legal(st)[-1])[0]
    offered = {a["card"] for a in legal(st, "play_card")}
    assert offered == {attack, card_id("recon", 1)}
    with pytest.raises(IllegalAction) as e:
        act(st, "play_card", card=card_id("probe", 0))
    assert e.value.code == "commissar_cards_must_be_played"
    # Recon from hand: the chip card stays, no new placement
    st2 = play(st, "recon", 1)
    assert st2.ext["commissar_chip"]["ALLIES"] == attack
    # the chip card
    st3 = do(st, "play_card", card=attack)
    assert st3.ext["commissar_chip"]["ALLIES"] is None and st3.play.key == "attack"


# ====================================================================== engine-wide
@pytest.mark.parametrize(
    "nations,opts",
    [
        (
            {"AXIS": "jp", "ALLIES": "brit"},
            {
                "russian_commissar_rule": "ALLIES",
                "blitz_rules": True,
                "north_african_desert_rules": True,
            },
        ),
        (
            {"AXIS": "it", "ALLIES": "us"},
            {
                "italy_royal_army": True,
                "gung_ho": True,
                "partial_blitz_rules": "all",
                "russian_commissar_rule": "AXIS",
            },
        ),
        (
            {"AXIS": "ger", "ALLIES": "us"},
            {
                "night_visibility_rules": True,
                "air_strikes_rules": "AXIS",
                "deck_name": "AIR_POWER_AS_ARTILLERY_BOMBARD_DECK",
                "empty_section_medals": {"sections": [0], "side": "ALLIES", "count_for": 1},
            },
        ),
        (
            {"AXIS": "it", "ALLIES": "us"},
            {
                "italy_high_command": True,
                "hill317": ["D3", "F3"],
                "armor_breakthrough_rules": {
                    "ALLIES": {"nbr_units": 2, "name": "tankus"},
                    "AXIS": {"nbr_units": 1, "name": "tank2ger", "behavior": "CANNOT_EXIT"},
                },
            },
        ),
    ],
)
def test_random_games_with_nation_rules_finish_and_replay_equals_live(nations, opts):
    from engine import replay
    from engine.bot import play_random_game
    from engine.core.textboard import board_from_text

    scn = board_from_text(
        """
        1: .:i W:i .:a Q:i .:g .:i .:a .:i H:i
        3: . S  .  W  .  .  H  .
        5: . W  .  S  .  .  .  .
        7: .:I W:I .:A .:I .:G .:I .:A .:I H:I
    """,
        nations=nations,
        legend={"Q": "pcave"},
        tags={(1, 3): {"name": "tag14"}, (7, 5): {"name": "tag15"}},
        game_info={"options": opts, "country_player2": "US"},
        victory=(6, 6),
    )
    for seed in (1, 2, 3):
        st, actions = play_random_game(scn, seed, max_turns=200, record=True)
        assert replay(scn, seed, actions) == st
    from tests.engine.test_property import assert_apply_pure

    assert_apply_pure(scn, 4)  # apply never changes its input


# ====================================================================== air strikes (2.6)
def test_air_strikes_rules_recon_played_as_air_power():
    st = game(
        "0@0: .:i\n2@10: .:i .:i\n6@10: .:I",
        hand=[("recon", 1)],
        game_info={"options": {"air_strikes_rules": "ALLIES"}},
    )
    offered = legal(st, "play_card")
    assert {a.get("as") for a in offered} == {None, "air_power"}
    st, ev = act(st, "play_card", card=offered[0]["card"], **{"as": "air_power"})
    assert ev[0]["as"] == "air_power" and st.play.key == "air_power" and st.phase == "target"
    st = do(st, "target", hex=[2, 10])
    st = do(st, "target", hex=[2, 12])  # no more targets: the attacks start
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2  # Allies: 2 dice
    # without the option (or for the other side) no such play
    st = game(
        "0@0: .:i\n6@10: .:I",
        hand=[("recon", 1)],
        game_info={"options": {"air_strikes_rules": "AXIS"}},
    )
    assert {a.get("as") for a in legal(st, "play_card")} == {None}
    with pytest.raises(IllegalAction):
        act(st, "play_card", card=legal(st, "play_card")[0]["card"], **{"as": "air_power"})


def test_blitz_rules_axis_may_play_recon_as_air_power():
    st = game(
        "0@0: .:i\n6@10: .:I",
        axis_hand=[("recon", 1)],
        starting="PLAYER1",
        game_info={"options": {"blitz_rules": True}},
    )
    assert "air_power" in {a.get("as") for a in legal(st, "play_card")}
    st = game(
        "0@0: .:i\n6@10: .:I", hand=[("recon", 1)], game_info={"options": {"blitz_rules": True}}
    )
    assert {a.get("as") for a in legal(st, "play_card")} == {None}
