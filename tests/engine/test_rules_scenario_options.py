"""Scenario-level options of ``game_info.options`` (vocabulary 3.3): deck reshuffling,
empty section medals, exits; boards drawn as text, chosen dice, the outcome stated."""

import json
from pathlib import Path

import pytest

from engine import IllegalAction, apply, is_chance, legal_actions, load_scenario, new_game, to_act
from engine.bot import RandomBot, next_action
from engine.procedures import medals as MD
from engine.core.textboard import m44_from_text
from tests.engine.paths import SCN_DIR
from tests.engine.rulehelp import act, do, game, legal, ordered, roll, to_battle, uid

SCN = Path(SCN_DIR)


def test_empty_section_medals_held_while_a_listed_section_has_no_enemy():
    esm = {"empty_section_medals": {"sections": [2], "side": "ALLIES", "count_for": 1}}
    st = ordered(
        "0@0: .:i\n4@20: .:i1\n5@21: .:I", [(5, 21)], key=("probe", 2), game_info={"options": esm}
    )
    assert st.medals("ALLIES") == 0  # an Axis unit stands in section 2
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 21)), target=[4, 20])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, "inf", "star", "star")
    gained = [e for e in ev if e["type"] == "medal_gained"]
    assert {e["reason"] for e in gained} == {"elimination", "empty_section"}
    assert st.medals("ALLIES") == 2


def test_empty_section_medal_is_lost_when_the_enemy_comes_back():
    esm = {"empty_section_medals": {"sections": [0], "side": "AXIS", "count_for": 2}}
    st = ordered("0@20: .:i\n7@9: .:I", [(7, 9)], key=("probe", 1), game_info={"options": esm})
    assert st.medals("AXIS") == 2  # no Allied unit in section 0 yet
    st, ev = act(st, "move", unit=uid(st, (7, 9)), to=[7, 7])
    assert {
        "type": "medal_lost",
        "side": "AXIS",
        "reason": "empty_section",
        "objective": "empty_section",
        "count": 2,
    } in ev
    assert st.medals("AXIS") == 0


NO_RESHUFFLE = {"options": {"deck_reshuffling": False}}


def _end_turn(st):
    while st.active == "ALLIES" and not st.game_over:
        st = do(st, legal(st)[-1]["type"])  # end orders / movement / battles
    return st


def test_deck_reshuffling_false_the_game_ends_when_the_deck_has_run_out():
    # vocabulary 3.3: "deck never reshuffles; running out ends the game"; the scenario
    # names no winner: more medals wins, equal medals is a draw
    st = game("0@0: .:i\n6@10: .:I", hand=[("probe", 1)], game_info=NO_RESHUFFLE)
    st.discard, st.deck = st.deck[:], []
    st, ev = act(st, "play_card", card=st.hands["ALLIES"][0])
    st = _end_turn(st)
    assert st.game_over and st.winner is None and st.discard  # never reshuffled
    st = game("0@0: .:i\n6@10: .:I", hand=[("probe", 1)], game_info=NO_RESHUFFLE)
    st.discard, st.deck = st.deck[:-1], st.deck[-1:]  # one card left: drawn
    st.exit_medals["AXIS"] = 1  # Axis 1 medal up
    st = do(st, "play_card", card=st.hands["ALLIES"][0])
    st2 = _end_turn(st)
    assert st2.game_over and st2.winner == "AXIS" and len(st2.hands["ALLIES"]) == 1


def test_deck_running_out_the_winner_the_scenario_text_names():
    # 19 Vassieux, Vercors: "must be completed before the deck runs out or the Axis side wins"
    data = m44_from_text("0@0: .:i\n6@10: .:I", game_info=NO_RESHUFFLE)
    data["text"] = {
        "en": {
            "victory": "4 Medals.\nThe Allied player must achieve victory "
            "before the Command card deck runs out, or the Axis side wins."
        }
    }
    st = new_game(load_scenario(data), 1)
    st.hands["ALLIES"] = [st.deck.pop()]
    st.discard, st.deck = st.deck[:], []
    st.exit_medals["ALLIES"] = 3  # more medals, still loses
    st = do(st, "play_card", card=st.hands["ALLIES"][0])
    st, ev = act(st, legal(st)[-1]["type"])
    st = _end_turn(st)
    assert st.game_over and st.winner == "AXIS"
    for text, winner in (
        ("Allies must win before the deck runs out.", None),  # "must win": nobody
        (
            "The game ends when the last Command card is drawn. If the Allies have not won "
            "by then, the Axis player wins.",
            "AXIS",
        ),
        ("The Allies must win before the deck runs out.\nOtherwise the Axis wins.", "AXIS"),
        (
            "Allies must win before the deck runs out. Sudden death: the Allies win at 4 medals.",
            None,
        ),  # not about the deck
        ("When the draw pile is exhausted, victory goes to the Allies.", "ALLIES"),
    ):
        data["text"] = {"fr": {"victory": "4 médailles"}, "en": {"rules": text}}
        assert MD.deck_out_winner(new_game(load_scenario(data), 1)) == winner, text


def test_their_finest_hour_does_not_reshuffle_when_the_scenario_says_never():
    for opts, reshuffled in ((NO_RESHUFFLE, False), (None, True)):
        st = game("0@0: .:i\n8@10: .:I", hand=["their_finest_hour", ("probe", 1)], game_info=opts)
        st, _ = act(st, "play_card", card=st.hands["ALLIES"][0])
        st, events = roll(st, *["flag"] * st.pending["dice"])
        while st.active == "ALLIES" and not st.game_over:
            st, ev = act(st, legal(st)[-1]["type"])
            events += ev
        assert any(e["type"] == "deck_reshuffled" for e in events) == reshuffled
        assert bool(st.discard) != reshuffled


def test_a_side_with_no_card_passes_its_turn_then_draws():
    # general rule (004 silent): an empty hand orders nothing; the end of turn draws
    st = game("0@0: .:i\n6@10: .:I", hand=[])
    assert legal(st) == [{"type": "pass", "seat": "ALLIES"}]
    st2, ev = act(st, "pass")
    assert {
        "type": "turn_passed",
        "side": "ALLIES",
        "seat": "ALLIES",
        "reason": "no_command_card",
    } in ev
    assert len(st2.hands["ALLIES"]) == 1 and st2.active == "AXIS" and not st2.game_over
    st = game("0@0: .:i\n6@10: .:I", hand=[("probe", 1)])
    with pytest.raises(IllegalAction) as e:
        act(st, "pass")
    assert e.value.code == "card_must_be_played"


def test_no_card_anywhere_ends_the_game_even_when_reshuffling_is_allowed():
    st = game("0@0: .:i\n6@10: .:I", hand=[], axis_hand=[])
    st.deck, st.discard = [], []
    st, ev = act(st, "pass")
    assert st.game_over and st.winner is None
    assert {
        "type": "game_over",
        "winner": None,
        "reason": "deck_exhausted",
        "medals": {"AXIS": 0, "ALLIES": 0},
    } in ev


def test_no_reshuffle_random_games_never_stall():
    # every seat to act has a legal action until the game ends (was: 65 of 100 stalled on
    # Pegasus Bridge without reshuffling, hands and deck empty)
    data = json.loads((SCN / "2-PegasusBridge.m44").read_text())
    data["game_info"].setdefault("options", {})["deck_reshuffling"] = False
    scn = load_scenario(data)
    for seed in range(12):
        st, bot = new_game(scn, seed), RandomBot(seed)
        while not st.game_over:
            assert is_chance(st) or legal_actions(st, to_act(st)[0]), (seed, st.phase)
            st, _ = apply(st, next_action(st, bot))
        assert st.turn < 200


EXIT = {"name": "tag4", "behavior": "EXIT_MARKER", "side": "ALLIES"}


def test_infantry_exit_counts_2():
    for opts, medals in (({"infantry_exit_counts_2": True}, 2), ({}, 1)):
        st = ordered(
            "0@0: .:i\n1@11: .:I",
            [(1, 11)],
            tags={(0, 10): EXIT},
            game_info={"options": opts} if opts else None,
        )
        st, ev = act(st, "exit", unit=uid(st, (1, 11)))
        assert {
            "type": "medal_gained",
            "side": "ALLIES",
            "reason": "exit",
            "unit": "u1",
            "count": medals,
        } in ev
        assert st.medals("ALLIES") == medals


def _kill_for_the_win(opts):
    st = ordered(
        "0@0: .:i\n4@10: .:i1\n5@11: .:I",
        [(5, 11)],
        victory=(4, 1),
        game_info={"options": opts} if opts else None,
    )
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, "inf", "star", "star")[0]


def test_must_have_unit_exit_side_needs_exit_medals_to_win():
    assert _kill_for_the_win({}).winner == "ALLIES"
    st = _kill_for_the_win({"must_have_unit_exit": {"side": "ALLIES", "min_nbr_units": 1}})
    assert not st.game_over and st.medals("ALLIES") == 1


def test_deck_name_air_power_as_artillery_bombard_deck():
    from engine.rulesets.m44.cards import CARDS

    st = game(
        "0@0: .:i\n6@10: .:I",
        game_info={"options": {"deck_name": "AIR_POWER_AS_ARTILLERY_BOMBARD_DECK"}},
    )
    cards = st.deck + st.hands["AXIS"] + st.hands["ALLIES"]
    keys = [CARDS[c].key for c in cards]
    assert len(cards) == 60 and "air_power" not in keys
    assert keys.count("artillery_bombard") == 2
    st = game("0@0: .:i\n6@10: .:I")
    keys = [CARDS[c].key for c in st.deck + st.hands["AXIS"] + st.hands["ALLIES"]]
    assert keys.count("air_power") == 1 and keys.count("artillery_bombard") == 1


# ============================================================== night visibility (3.3)
NIGHT = {"night_visibility_rules": True}


def night_ordered(text, who, key=("probe", 1), faces=("inf",) * 4, opts=NIGHT):
    from tests.engine.rulehelp import order_units, play

    st = game(text, hand=[key], game_info={"options": opts})
    assert st.pending == {"type": "roll", "seat": "chance", "dice": 4, "for": "night"}
    st = roll(st, *faces)[0]
    st = play(st, *key) if isinstance(key, tuple) else play(st, key)
    return order_units(st, who)


def _play_a_turn(st, side):
    """``side`` plays its first card and ends everything (last legal action each time)."""
    from engine import apply

    st = do(st, "play_card", card=st.hands[side][0])
    while st.active == side:
        st = apply(st, legal(st)[-1])[0]
    return st


def test_night_visibility_starts_at_one_and_each_star_adds_one():
    from engine import view_for

    st = game("0@0: .:i\n6@10: .:I", game_info={"options": NIGHT})
    assert view_for(st, None)["visibility"] == 1
    st, ev = roll(st, "star", "star", "inf", "flag")
    assert {"type": "visibility_changed", "visibility": 3, "from": 1} in ev
    assert st.pending["type"] == "play_card" and view_for(st, None)["visibility"] == 3
    # the Axis turn has no roll (night team: ALLIES by default)
    st.ext["visibility"] = 5
    st = _play_a_turn(st, "ALLIES")
    assert st.pending["type"] == "play_card"
    st = _play_a_turn(st, "AXIS")
    assert st.pending["for"] == "night"
    st, ev = roll(st, "star", "star", "star", "star")
    assert st.ext["visibility"] == 6
    assert st.pending["type"] == "play_card"  # full day: no more rolls


def test_night_targets_beyond_visibility_cannot_be_fired_at():
    from tests.engine.rulehelp import battle_dice_vs

    text = "3@11: .:i\n5@11: .:I"  # 2 hexes apart
    st = to_battle(night_ordered(text, [(5, 11)]))
    assert battle_dice_vs(st, (5, 11), (3, 11)) is None  # visibility 1
    st = to_battle(night_ordered(text, [(5, 11)], faces=("star", "inf", "inf", "inf")))
    assert battle_dice_vs(st, (5, 11), (3, 11)) == 2  # visibility 2


def test_night_air_power_and_barrage_order_one_unit_while_visibility_below_six():
    st = night_ordered("0@0: .:i\n6@10: .:I\n6@0: .:I", [(6, 10), (6, 0)], key="barrage")
    assert st.play.key == "barrage:night" and len(st.play.ordered) == 1
    assert st.phase in ("move", "battle")


def test_night_visibility_reverse_rule_nightfall():
    st = game(
        "0@0: .:i\n6@10: .:I",
        game_info={"options": {**NIGHT, "night_visibility_reverse_rule": True}},
    )
    assert st.ext["visibility"] == 6
    st, ev = roll(st, "star", "star", "inf", "flag")
    assert st.ext["visibility"] == 4


def test_smoke_screen_side_places_smoke_hexes_before_the_first_turn_blocking_los():
    from engine import legal_actions, view_for
    from engine.procedures import los as L
    from tests.engine.rulehelp import act, game

    opts = {"options": {"smoke_screen": {"side": "AXIS"}}}
    st = game("3@11: .:i\n5@11: .:I", hand=[("probe", 1)], game_info=opts)
    assert st.pending == {"type": "place_smoke", "seat": "AXIS", "left": 3}
    assert L.clear(st, (5, 11), (3, 11))
    st, ev = act(st, "place_smoke", hex=[4, 10])
    assert {"type": "terrain_changed", "hex": [4, 10], "added": "smoke"} in ev
    hexes = [a["hex"] for a in legal_actions(st, "AXIS") if a["type"] == "place_smoke"]
    assert [4, 12] in hexes and [0, 0] not in hexes  # the screen is contiguous
    st, _ = act(st, "place_smoke", hex=[4, 12])
    assert not L.clear(st, (5, 11), (3, 11))  # smoke blocks line of sight
    st, _ = act(st, "end_smoke")
    assert st.pending == {"type": "play_card", "seat": "ALLIES"}
    assert "smoke" not in (st.ext or {}) and view_for(st, None)["active"] == "ALLIES"


def test_airdrop_units_land_after_range_random_steps_lost_off_board_or_occupied():
    from engine.rulesets.m44.options import airdrop as AD
    from tests.engine.rulehelp import act, game

    opts = {
        "options": {
            "airdrop": {"side": "ALLIES", "range": 1, "nbr_units": 3, "unit": {"name": "inf2us"}}
        }
    }
    st = game("0@0: .:i\n8@22: .:I\n4@12: W\n4@8: L", hand=[("probe", 1)], game_info=opts)
    assert st.pending == {"type": "airdrop", "seat": "ALLIES", "units": 3, "range": 1}
    assert len(AD.legal(st, "ALLIES")) == len(st.scn.board._nbrs)
    before = len(st.units)
    st2, ev = act(st, "airdrop", hex=[4, 10])
    landed = [e for e in ev if e["type"] == "unit_dropped"]
    lost = [e for e in ev if e["type"] == "drop_lost"]
    assert len(landed) + len(lost) == 3 and len(st2.units) == before + len(landed)
    for e in landed:  # one random step from the drop hex, on a free passable hex
        assert st2.scn.board.distance((4, 10), tuple(e["hex"])) == 1
        assert st2.units[e["unit"]].side == "ALLIES" and st2.units[e["unit"]].spec.code == "inf2us"
    assert st2.rng.counter == st.rng.counter + 3
    assert st2.pending == {"type": "play_card", "seat": "ALLIES"}
    # a drop on the corner drifts off the board or lands next to it
    st3, ev = act(st, "airdrop", hex=[0, 24])
    for e in ev:
        if e["type"] == "drop_lost" and e["hex"] is not None:
            assert (
                tuple(e["hex"]) in st.occ or "inf" in st.scn.terrain_at(tuple(e["hex"])).impassable
            )


def test_hill317_allied_unit_on_a_listed_hex_plays_recon_as_air_power_in_its_section():
    from engine import IllegalAction
    import pytest

    hill = {"hill317": ["G5", "h4"]}  # G5 = (4, 12), h4 = (5, 15) (vocabulary 3.4)
    text = "2@6: .:i .:i\n2@20: .:i\n4@12: H:I"
    st = game(text, hand=[("recon", 1)], game_info={"options": hill})
    offered = legal(st, "play_card")
    assert {a.get("as") for a in offered} == {None, "air_power"}
    st, ev = act(st, "play_card", card=offered[0]["card"], **{"as": "air_power"})
    assert ev[0]["as"] == "air_power" and st.phase == "target"
    # "in that card's section": the first target is an enemy in the centre (cols 7-17)
    assert [a["hex"] for a in legal(st, "target")] == [[2, 8]]
    with pytest.raises(IllegalAction):
        act(st, "target", hex=[2, 20])
    st = do(st, "target", hex=[2, 8])
    assert [2, 6] in [a["hex"] for a in legal(st, "target")]  # the chain may leave it
    st = do(st, "end_targets")
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2
    # no Allied unit on a hill317 hex (an Axis one there does not count): no such play
    for text in ("2@6: .:i .:i\n5@13: .:I", "4@12: H:i\n6@12: .:I"):
        st = game(text, hand=[("recon", 1)], game_info={"options": hill})
        assert {a.get("as") for a in legal(st, "play_card")} == {None}
        with pytest.raises(IllegalAction) as e:
            act(st, "play_card", card=legal(st, "play_card")[0]["card"], **{"as": "air_power"})
        assert e.value.code == "card_not_playable"
    # the Axis never gets it from hill317
    st = game(
        "4@12: H:i\n6@12: .:I",
        axis_hand=[("recon", 1)],
        starting="PLAYER1",
        game_info={"options": {"hill317": ["G5"]}},
    )
    assert {a.get("as") for a in legal(st, "play_card")} == {None}


# ===================================================== armor_breakthrough_rules (3.3, 2.5)
#: the shape of the real scenario 4090 "Closing the Gap" (BGA modules/php/Scenarios)
BREAKTHROUGH = {
    "armor_breakthrough_rules": {
        "ALLIES": {"nbr_units": 2, "name": "tankus"},
        "AXIS": {"nbr_units": 2, "name": "tank2ger", "badge": "badge4", "behavior": "CANNOT_EXIT"},
    }
}


def _entries(st):
    return sorted(tuple(a["hex"]) for a in legal(st, "armor_breakthrough"))


def _end_turn(st):
    """Finish the active side's turn: its first card if none is played yet, then end
    orders / movement / battles (no unit ordered, no battle fought)."""
    side = st.active
    while st.active == side and not st.game_over:
        offered = legal(st)
        if offered[0]["type"] == "play_card":
            st = do(st, "play_card", card=offered[0]["card"])
            continue
        st = do(
            st,
            next(
                t
                for t in ("end_orders", "end_movement", "end_battles")
                if t in [a["type"] for a in offered]
            ),
        )
    return st


def test_armor_breakthrough_enters_on_the_enemy_baseline_stops_battles_takes_ground_no_overrun():
    from tests.engine.rulehelp import event_types, play, unit

    text = "0@12: .:i  W\n1@9: .:i1\n2@10: .:i\n8@12: .:I"
    st = play(game(text, hand=[("probe", 1)], game_info={"options": BREAKTHROUGH}), "probe", 1)
    # Probe Centre: empty centre hexes (cols 7-17) of the Axis baseline, row 0
    assert _entries(st) == [(0, 8), (0, 10), (0, 14), (0, 16)]
    st, ev = act(st, "armor_breakthrough", hex=[0, 10])
    [e] = [e for e in ev if e["type"] == "unit_entered"]
    u = unit(st, (0, 10))
    assert e["unit"] == u.id and u.side == "ALLIES" and u.cls == "armor" and u.figures == 3
    assert u.ordered and u.id in st.play.ordered and "unit_ordered" in event_types(ev)
    assert st.phase == "order" and _entries(st) == [(0, 8), (0, 14), (0, 16)]  # 1 more
    st = do(st, "end_orders")
    # stop: the entered tank is offered no move (nothing else to move: battle phase)
    assert st.phase == "battle" and not legal(st, "move")
    st = do(st, "battle", unit=u.id, target=[1, 9])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    assert st.pending["dice"] == 3
    st, _ = roll(st, "inf", "star", "star")
    assert st.pending["type"] == "take_ground"
    st, ev = act(st, "take_ground", take=True)
    assert unit(st, (1, 9)).id == u.id
    # no Armor Overrun although the Axis unit on (2, 10) is adjacent
    assert "overrun" not in [a["type"] for a in legal(st)] + [st.pending["type"]]
    # the same fight by a tank already on the board ends in an overrun
    st2 = play(game("1@9: .:i1\n2@10: .:i\n0@10: .:A", hand=[("probe", 1)]), "probe", 1)
    st2 = to_battle(do(st2, "order", unit=uid(st2, (0, 10))))
    st2 = do(st2, "battle", unit=uid(st2, (0, 10)), target=[1, 9])
    if st2.pending["type"] == "ambush":
        st2 = do(st2, "pass")
    st2 = do(roll(st2, "inf", "star", "star")[0], "take_ground", take=True)
    assert st2.pending["type"] == "overrun"


def test_armor_breakthrough_once_limits_terrain_and_orders():
    from tests.engine.rulehelp import play, types, unit

    opts = {"options": {"armor_breakthrough_rules": {"ALLIES": {"nbr_units": 1, "name": "tankus"}}}}
    # nbr_units 1: one unit although the Probe has a second order
    st = play(
        game("0@12: .:i\n8@12: .:I", hand=[("probe", 1), ("attack", 1)], game_info=opts), "probe", 1
    )
    st = do(st, "armor_breakthrough", hex=[0, 8])
    assert _entries(st) == [] and "order" in types(st)
    # woods on the baseline: entering forbids battle this turn (004 terrain)
    st = play(
        game("0@14: W\n1@15: .:i\n8@12: .:I", hand=[("probe", 1)], game_info=opts), "probe", 1
    )
    st = do(do(st, "armor_breakthrough", hex=[0, 14]), "end_orders")
    assert "battle" not in types(st) and not legal(st, "move")[:-1]
    # left section card: left hexes of the enemy baseline only (cols 0-7)
    st = play(game("0@12: .:i\n8@12: .:I", hand=[("probe", 0)], game_info=opts), "probe", 0)
    assert _entries(st) == [(0, 0), (0, 2), (0, 4), (0, 6)]
    # the card's order used up by a unit already on the board: no breakthrough
    st = play(game("0@12: .:i\n8@12: .:I", hand=[("recon", 1)], game_info=opts), "recon", 1)
    assert _entries(st) == [(0, 8), (0, 10), (0, 14), (0, 16)]
    st = do(st, "order", unit=uid(st, (8, 12)))
    assert st.phase == "move" and _entries(st) == []
    # a tactic card (not a Section card) offers nothing; neither does a scenario without it
    st = play(
        game("0@12: .:i\n8@12: .:I", hand=["direct_from_hq"], game_info=opts), "direct_from_hq"
    )
    assert _entries(st) == []
    st = play(game("0@12: .:i\n8@12: .:I", hand=[("probe", 1)]), "probe", 1)
    assert _entries(st) == []
    with pytest.raises(IllegalAction) as e:
        act(st, "armor_breakthrough", hex=[0, 8])
    assert e.value.code == "illegal_move"
    # occupied hex refused, state unchanged; a later turn offers nothing ("single turn")
    st = play(
        game(
            "0@12: .:i\n8@12: .:I",
            hand=[("probe", 1), ("attack", 1)],
            axis_hand=[("probe", 1)],
            game_info={"options": BREAKTHROUGH},
        ),
        "probe",
        1,
    )
    with pytest.raises(IllegalAction):
        act(st, "armor_breakthrough", hex=[0, 12])
    st = do(st, "armor_breakthrough", hex=[0, 8])  # 1 of its 2 units
    st = _end_turn(_end_turn(st))  # Allies, then Axis
    assert st.active == "ALLIES"
    st = play(st, "attack", 1)
    assert _entries(st) == [] and unit(st, (0, 8)).side == "ALLIES"


def test_armor_breakthrough_assault_and_cannot_exit():
    from tests.engine.rulehelp import play, unit

    # Assault Centre orders every centre unit; the breakthrough adds up to nbr_units
    st = play(
        game(
            "0@12: .:i\n8@12: .:I\n8@2: .:I",
            hand=[("assault", 1)],
            game_info={"options": BREAKTHROUGH},
        ),
        "assault",
        1,
    )
    assert st.phase == "order" and unit(st, (8, 12)).ordered and not unit(st, (8, 2)).ordered
    st = do(st, "armor_breakthrough", hex=[0, 8])
    st = do(st, "armor_breakthrough", hex=[0, 16])
    assert st.phase == "move" and unit(st, (0, 16)).ordered
    # Axis armour with behaviour CANNOT_EXIT may not use the Axis exit markers
    exit_axis = {
        "name": "tag4",
        "behavior": "EXIT_MARKER",
        "side": "AXIS",
        "group": ["A1", "C1", "E1", "G1", "I1"],
    }
    st = game(
        "0@12: .:i\n6@10: .:I",
        axis_hand=[("probe", 1), ("attack", 1)],
        hand=[("probe", 1)],
        starting="PLAYER1",
        tags={(8, 12): exit_axis},
        game_info={"options": BREAKTHROUGH},
    )
    st = play(st, "probe", 1)
    assert _entries(st) == [(8, 8), (8, 10), (8, 12), (8, 14), (8, 16)]
    st = do(st, "armor_breakthrough", hex=[8, 12])
    tank = unit(st, (8, 12))
    assert tank.spec.behavior == "CANNOT_EXIT" and tank.spec.kind == "elite_armor"
    st = _end_turn(_end_turn(st))
    st = play(st, "attack", 1)
    st = do(st, "order", unit=tank.id)
    st = do(st, "order", unit=uid(st, (0, 12)))
    assert st.phase == "move"
    assert not legal(st, "exit") and [a for a in legal(st, "move") if a["unit"] == tank.id]
    # the same hex with an ordinary Axis tank: the exit is offered
    st = game(
        "8@12: .:a\n6@10: .:I",
        axis_hand=[("probe", 1)],
        starting="PLAYER1",
        tags={(8, 12): exit_axis},
    )
    st = do(play(st, "probe", 1), "order", unit=uid(st, (8, 12)))
    assert legal(st, "exit")
