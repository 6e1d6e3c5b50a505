"""A test per command card (standard Memoir '44 card texts, engine/cards.py)."""

import pytest

from engine import IllegalAction, is_chance, legal_actions, view_for
from engine.rulesets.m44.cards import CARDS, STANDARD_DECK
from tests.engine.rulehelp import act, card_id, do, game, legal, play, roll, uid, unit

MIXED = """
0@0: .:i
2@12: .:i
6@2: .:I .:A
6@10: .:I .:A .:G
6@20: .:I
"""


def test_standard_deck_composition():
    keys = [c.key for c in STANDARD_DECK]
    assert len(STANDARD_DECK) == 60
    assert sum(c.kind == "section" for c in STANDARD_DECK) == 40
    assert keys.count("probe") == 13 and keys.count("attack") == 10 and keys.count("recon") == 6
    assert keys.count("assault") == 6 and keys.count("recon_in_force") == 3
    for k in ("armor_assault", "counter_attack", "direct_from_hq", "infantry_assault", "move_out"):
        assert keys.count(k) == 2


@pytest.mark.parametrize("key,sec,n", [("recon", 1, 1), ("probe", 1, 2), ("attack", 1, 3)])
def test_section_cards_order_n_units(key, sec, n):
    text = "0@0: .:i\n6@8: .:I .:I .:I .:I .:I"
    st = play(game(text, hand=[(key, sec)]), key, sec)
    for _ in range(5):
        if st.phase != "order":
            break
        st = do(st, "order", unit=legal(st, "order")[0]["unit"])
    assert len(st.play.ordered) == n


def test_recon_draws_two_and_keeps_one():
    st = play(game(MIXED, hand=[("recon", 0)]), "recon", 0)
    st = do(st, "end_orders")
    assert st.phase == "recon" and st.pending["type"] == "choose_card"
    offered = [a["card"] for a in legal(st)]
    assert len(offered) == 2
    assert (
        "cards" in view_for(st, "ALLIES")["pending"]
        and "cards" not in view_for(st, "AXIS")["pending"]
    )
    st = do(st, "choose_card", card=offered[1])
    assert offered[1] in st.hands["ALLIES"] and offered[0] in st.discard and st.active == "AXIS"


def test_pincer_move_orders_two_left_two_right():
    st = play(
        game("0@0: .:i\n6@0: .:I .:I .:I\n6@18: .:I .:I .:I\n6@10: .:I", hand=["pincer_move"]),
        "pincer_move",
    )
    ids = {a["unit"] for a in legal(st, "order")}
    assert uid(st, (6, 10)) not in ids and len(ids) == 6


def test_recon_in_force_orders_one_per_section():
    st = play(
        game("0@0: .:i\n6@0: .:I .:I\n6@10: .:I .:I\n6@20: .:I .:I", hand=["recon_in_force"]),
        "recon_in_force",
    )
    st = do(st, "order", unit=uid(st, (6, 0)))
    ids = {a["unit"] for a in legal(st, "order")}
    assert uid(st, (6, 2)) not in ids and uid(st, (6, 10)) in ids


def test_direct_from_hq_orders_four_anywhere():
    st = play(game(MIXED, hand=["direct_from_hq"]), "direct_from_hq")
    for _ in range(4):
        st = do(st, "order", unit=legal(st, "order")[0]["unit"])
    assert len(st.play.ordered) == 4 and st.phase == "move"


def test_move_out_orders_infantry_only():
    st = play(game(MIXED, hand=["move_out"]), "move_out")
    assert {st.units[a["unit"]].cls for a in legal(st, "order")} == {"inf"}


def test_move_out_without_infantry_orders_one_unit():
    st = play(game("0@0: .:i\n6@10: .:A .:A", hand=["move_out"]), "move_out")
    st = do(st, "order", unit=uid(st, (6, 10)))
    assert st.phase != "order" and len(st.play.ordered) == 1


def test_armor_assault_orders_armor_with_one_more_die_in_close_assault():
    st = play(
        game("0@0: .:i\n5@11: .:i\n6@10: .:A\n6@2: .:I", hand=["armor_assault"]), "armor_assault"
    )
    assert {st.units[a["unit"]].cls for a in legal(st, "order")} == {"armor"}
    st = do(st, "order", unit=uid(st, (6, 10)))
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[5, 11])
    st = do(st, "pass")
    assert st.pending["dice"] == 4


def test_infantry_assault_all_infantry_in_one_section_move_two_and_battle():
    st = play(game("1@11: .:i\n6@8: .:I .:I .:A", hand=["infantry_assault"]), "infantry_assault")
    assert st.phase == "choose_section"
    st = do(st, "choose_section", section=1)
    assert sorted(st.play.ordered) == sorted([uid(st, (6, 8)), uid(st, (6, 10))])
    moves = {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == uid(st, (6, 10))}
    assert (3, 11) in moves  # 3 hexes
    st = do(st, "move", unit=uid(st, (6, 10)), to=[4, 10])  # 2 hexes and still battle
    assert (
        any(
            a["unit"] == uid(st, (4, 10))
            for a in legal_actions(st, "ALLIES")
            if a["type"] == "battle"
        )
        or st.phase == "move"
    )


def test_artillery_bombard_battles_twice():
    st = play(
        game("0@0: .:i\n2@10: .:i\n6@10: .:G\n6@2: .:I", hand=["artillery_bombard"]),
        "artillery_bombard",
    )
    assert st.play.ordered == [uid(st, (6, 10))]
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[2, 10])
    st, _ = roll(st, "star", "star")
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[2, 10])
    st, _ = roll(st, "star", "star")
    assert st.active == "AXIS"


def test_artillery_bombard_moves_up_to_three():
    st = play(game("0@0: .:i\n6@10: .:G", hand=["artillery_bombard"]), "artillery_bombard")
    assert (3, 11) in {tuple(a["to"]) for a in legal(st, "move")}


def test_close_assault_orders_adjacent_units_no_move_plus_one_die():
    st = play(
        game("0@0: .:i\n5@11: .:i\n6@10: .:I .:A\n6@2: .:I", hand=["close_assault"]),
        "close_assault",
    )
    assert sorted(st.play.ordered) == sorted([uid(st, (6, 10)), uid(st, (6, 12))])
    assert not legal(st, "move")
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[5, 11])
    st = do(st, "pass")
    assert st.pending["dice"] == 4


def test_firefight_orders_units_not_adjacent_no_move_plus_one_die():
    st = play(game("0@0: .:i\n5@11: .:i\n6@10: .:I\n6@14: .:I", hand=["firefight"]), "firefight")
    ids = {a["unit"] for a in legal(st, "order")}
    assert uid(st, (6, 10)) not in ids and uid(st, (6, 14)) in ids
    st = do(st, "order", unit=uid(st, (6, 14)))
    if st.phase == "order":
        st = do(st, "end_orders")
    st = do(st, "battle", unit=uid(st, (6, 14)), target=[5, 11])
    assert st.pending["dice"] == 3  # 2 at range 2, +1


def test_dig_in_places_sandbags():
    st = play(game("0@0: .:i\n6@10: .:I", hand=["dig_in"]), "dig_in")
    st = do(st, "order", unit=uid(st, (6, 10)))
    if st.phase == "order":
        st = do(st, "end_orders")
    assert any(t.spec.family == "sandbag" for t in st.tiles_over[(6, 10)]) and st.active == "AXIS"


def test_behind_enemy_lines_move_three_battle_plus_one_move_again():
    st = play(
        game("0@0: .:i\n2@10: .:i\n5@9: W\n6@10: .:I", hand=["behind_enemy_lines"]),
        "behind_enemy_lines",
    )
    st = do(st, "order", unit=uid(st, (6, 10)))
    if st.phase == "order":
        st = do(st, "end_orders")
    st = do(st, "move", unit=uid(st, (6, 10)), to=[3, 11])
    st = do(st, "battle", unit=uid(st, (3, 11)), target=[2, 10])
    st = do(st, "pass")
    assert st.pending["dice"] == 4
    st, _ = roll(st, "star", "star", "star", "star")
    st = do(st, "move", unit=uid(st, (3, 11)), to=[6, 12])
    assert unit(st, (6, 12)).side == "ALLIES"


def test_medics_and_mechanics_heals_and_orders():
    st = game("0@0: .:i\n6@10: .:I", hand=["medics_and_mechanics", ("probe", 0)])
    unit(st, (6, 10)).figures = 2
    st = play(st, "medics_and_mechanics")
    st = do(st, "order", unit=uid(st, (6, 10)))
    if st.phase == "order":
        st = do(st, "end_orders")
    assert is_chance(st) and st.pending["dice"] == 2  # 1 card left + this one
    st, _ = roll(st, "inf", "star")
    assert unit(st, (6, 10)).figures == 4 and unit(st, (6, 10)).ordered


def test_their_finest_hour_orders_by_dice():
    st = game(MIXED, hand=["their_finest_hour", ("probe", 0), ("probe", 1)])
    st = play(st, "their_finest_hour")
    assert is_chance(st) and st.pending["dice"] == 3
    st, _ = roll(st, "armor", "flag", "grenade")
    assert {st.units[a["unit"]].cls for a in legal(st, "order")} == {"armor"}
    st = do(st, "order", unit=uid(st, (6, 4)))
    assert st.phase == "move" and st.reshuffle


def test_air_power_allies_roll_two_dice_per_target_stars_hit_no_ignore():
    st = play(game("0@0: .:i\n2@10: S:i\n2@12: .:i\n6@10: .:I", hand=["air_power"]), "air_power")
    st = do(st, "target", hex=[2, 10])
    assert (0, 0) not in {tuple(a["hex"]) for a in legal(st, "target")}  # chain
    st = do(st, "end_targets")
    assert is_chance(st) and st.pending["dice"] == 2
    st, _ = roll(st, "star", "flag")
    # flag may not be ignored despite the sandbag: must retreat
    assert all(o["ignore"] == 0 for o in st.pending["options"]) and unit(st, (2, 10)).figures == 3


def test_barrage_four_dice_any_unit_no_terrain():
    st = play(game("0@0: W:i\n6@10: .:I", hand=["barrage"]), "barrage")
    st = do(st, "target", hex=[0, 0])
    assert is_chance(st) and st.pending["dice"] == 4
    st, _ = roll(st, "inf", "star", "star", "armor")
    assert unit(st, (0, 0)).figures == 3


def test_counter_attack_copies_last_card_mirrored():
    st = game(
        "0@0: .:i\n0@20: .:i\n6@2: .:I\n6@20: .:I",
        hand=["counter_attack"],
        axis_hand=[("probe", 0), ("probe", 1)],
    )
    st.active = "AXIS"
    from engine.rulesets.m44 import turn

    turn.refresh(st)
    st = play(st, "probe", 0)  # AXIS left flank = high columns
    st = do(st, "end_orders")
    assert st.active == "ALLIES"
    st = play(st, "counter_attack")
    ids = {a["unit"] for a in legal(st, "order")}
    assert ids == {uid(st, (6, 20))}  # same physical flank: Allied right


def test_counter_attack_copies_infantry_assault_in_the_same_physical_section():
    """Counter-Attack (vocabulary 5.1): "a copied Infantry Assault likewise acts in the
    same physical section"."""
    st = game(
        "0@0: .:i\n0@20: .:i\n6@2: .:I\n6@20: .:I\n6@10: .:I",
        hand=["counter_attack"],
        axis_hand=["infantry_assault", ("probe", 0)],
    )
    st.active = "AXIS"
    from engine.rulesets.m44 import turn

    turn.refresh(st)
    st = play(st, "infantry_assault")
    st = do(st, "choose_section", section=0)  # AXIS left = high columns
    assert [st.units[u].hex for u in st.play.ordered] == [(0, 20)]
    while st.active == "AXIS":
        st = do(st, legal(st)[-1]["type"])  # end movement / battles
    st = play(st, "counter_attack")
    assert [st.units[u].hex for u in st.play.ordered] == [(6, 20)]  # Allied right


def test_air_power_axis_rolls_one_die_per_target_chain_of_four():
    """Air Power (vocabulary 5.1): "target up to 4 enemy units forming an adjacent chain;
    Allies roll 2 dice per unit, Axis 1"."""
    st = game(
        "0@0: .:i\n6@10: .:I\n6@12: .:I\n6@14: .:I\n5@15: .:I\n6@20: .:I",
        hand=[("probe", 0)],
        axis_hand=["air_power", ("probe", 0)],
    )
    st.active = "AXIS"
    from engine.rulesets.m44 import turn

    turn.refresh(st)
    st = play(st, "air_power")
    for h in [(6, 10), (6, 12), (6, 14)]:
        st = do(st, "target", hex=list(h))
    assert {tuple(a["hex"]) for a in legal(st, "target")} == {(5, 15)}  # adjacent only
    st = do(st, "target", hex=[5, 15])  # the 4th: the attacks start
    assert is_chance(st) and st.pending["dice"] == 1 and st.pending["target"] == [6, 10]


def test_ambush_defender_battles_first_and_can_cancel_attack():
    st = game(
        "5@11: .:i\n0@0: .:i\n6@10: .:I", hand=[("probe", 1)], axis_hand=["ambush", ("probe", 0)]
    )
    st = play(st, "probe", 1)
    st = do(st, "order", unit=uid(st, (6, 10)))
    if st.phase == "order":
        st = do(st, "end_orders")
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[5, 11])
    assert st.pending["type"] == "ambush" and st.pending["seat"] == "AXIS"
    assert {a["type"] for a in legal(st)} == {"ambush", "pass"}
    st = do(st, "ambush")
    assert is_chance(st) and st.pending["for"] == "ambush"
    st, ev = roll(st, "flag", "star", "star")
    st = (
        do(
            st,
            "retreat",
            unit=uid(st, (6, 10)) if (6, 10) in st.occ else None,
            to=st.pending["options"][0]["to"],
            ignore=0,
        )
        if st.pending["type"] == "retreat"
        else st
    )
    assert not any(b.kind == "battle" for b in st.battles)  # attack cancelled
    assert st.hands["AXIS"].count(card_id("ambush")) == 0


def test_ambush_window_opens_even_without_the_card():
    st = game("5@11: .:i\n0@0: .:i\n6@10: .:I", hand=[("probe", 1)], axis_hand=[("probe", 0)])
    st = play(st, "probe", 1)
    st = do(st, "order", unit=uid(st, (6, 10)))
    if st.phase == "order":
        st = do(st, "end_orders")
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[5, 11])
    assert st.pending["type"] == "ambush" and [a["type"] for a in legal(st)] == ["pass"]


def test_ambush_cannot_be_played_on_own_turn():
    st = game(MIXED, hand=["ambush", ("probe", 0)])
    assert card_id("ambush") not in [a["card"] for a in legal(st)]
    with pytest.raises(IllegalAction) as e:
        act(st, "play_card", card=card_id("ambush"))
    assert e.value.code == "card_not_playable"


def test_every_card_has_text_and_json():
    for c in CARDS.values():
        j = c.to_json()
        assert j["text"] and j["name"] and j["kind"] in ("section", "tactic")
