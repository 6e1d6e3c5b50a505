"""Overlord turn (002 "The Game Turn" 2-4): FG plays in his sub-sections, one order per unit
per turn across Field Generals, all movement before any battle, initiative, draw two."""

import pytest

from engine import EngineError, apply, legal_actions, to_act
from tests.engine.olhelp import A, dispatch, do, finish_turn, ol_game, pass_all, roll

L, C, R = "ALLIES:left", "ALLIES:centre", "ALLIES:right"


def orders(st, s):
    return sorted(a["unit"] for a in legal_actions(st, s) if a["type"] == "order")


def uid(st, h):
    return st.occ[h]


def test_section_card_orders_only_in_the_chosen_half():
    st = ol_game(
        {(8, 4): "infus", (8, 12): "infus", (8, 20): "infus", (0, 4): "infger"},
        allies=[("probe", 0), ("probe", 1)],
    )
    pl = st.hands[A][0]
    st = dispatch(st, {pl: "left"})
    assert set(to_act(st)) == {L, C, R}
    assert {a.get("half") for a in legal_actions(st, L)} == {0, 1}
    with pytest.raises(EngineError) as e:
        do(st, L, "play_card", card=pl, half=3)
    assert e.value.code == "illegal_section"
    st2 = do(st, L, "play_card", card=pl, half=0)
    assert orders(st2, L) == [uid(st, (8, 4))]
    st2 = do(st, L, "play_card", card=pl, half=1)
    assert orders(st2, L) == [uid(st, (8, 12))]


def test_two_section_cards_one_in_each_half():
    st = ol_game(
        {(8, 4): "infus", (8, 12): "infus", (0, 4): "infger"},
        allies=[("probe", 0), ("recon", 0), ("probe", 1)],
    )
    p, r = st.hands[A][:2]
    st = dispatch(st, {p: "left", r: "left"})
    st = do(st, L, "play_card", card=p, half=1)
    assert {a.get("half") for a in legal_actions(st, L) if a["type"] == "play_card"} == set()
    st = do(st, L, "order", unit=uid(st, (8, 12)))  # the only unit of the half: orders end
    assert any(a["type"] == "move" for a in legal_actions(st, L))
    st = do(st, L, "end_movement")  # then the Recon goes in the other half
    assert [a.get("half") for a in legal_actions(st, L)] == [0]


def test_one_order_per_turn_across_field_generals():
    u = {(6, 16): "infus", (8, 20): "infus", (0, 4): "infger"}
    st = ol_game(u, allies=[("probe", 0), ("probe", 1), "direct_from_hq"])
    pl, pc = st.hands[A][0], st.hands[A][1]
    st = dispatch(st, {pl: "left", pc: "centre"})
    st = do(st, R, "pass")
    st = do(st, L, "play_card", card=pl, half=1)
    mover = uid(st, (6, 16))
    st = do(st, L, "order", unit=mover)
    st = do(st, L, "move", unit=mover, to=[6, 20])  # into the centre FG's sub-section 2
    st = do(st, C, "play_card", card=pc, half=0)
    assert mover not in orders(st, C)
    with pytest.raises(EngineError) as e:
        do(st, C, "order", unit=mover)
    assert e.value.code == "unit_already_ordered"
    assert orders(st, C) == [uid(st, (8, 20))]


def test_all_movement_before_any_battle_and_parallel_field_generals():
    u = {(6, 4): "infus", (6, 20): "infus", (4, 4): "infger", (4, 20): "infger"}
    st = ol_game(u, allies=[("probe", 0), ("probe", 1), "direct_from_hq"])
    pl, pc = st.hands[A][0], st.hands[A][1]
    st = dispatch(st, {pl: "left", pc: "centre"})
    st = do(st, R, "pass")
    assert set(to_act(st)) == {L, C}  # two FGs act in the same phase
    st = do(st, L, "play_card", card=pl, half=0)
    st = do(st, C, "play_card", card=pc, half=0)
    st = do(st, L, "order", unit=uid(st, (6, 4)))
    st = do(st, L, "end_movement")
    assert to_act(st) == [C] and legal_actions(st, L) == []  # left waits: centre still moving
    st = do(st, C, "order", unit=uid(st, (6, 20)))
    assert to_act(st) == [C]
    st = do(st, C, "end_movement")
    assert set(to_act(st)) == {L, C}
    assert any(a["type"] == "battle" for a in legal_actions(st, L))
    st, ev = apply(st, {"type": "battle", "seat": L, "unit": uid(st, (6, 4)), "target": [4, 4]})
    assert to_act(st) == ["chance"]  # a battle blocks the others
    st = roll(st, "grenade", "grenade")
    assert set(to_act(st)) == {L, C} or to_act(st) == [C]


def initiative(st, fg, face, units_seat=None):
    st = do(st, f"ALLIES:{fg}", "initiative")
    assert to_act(st) == ["chance"]
    return roll(st, face)


def _init_game():
    u = {(8, 4): "infus", (8, 6): "tankus", (0, 4): "infger", (8, 20): "infus"}
    st = ol_game(u, allies=[("probe", 1), ("probe", 1)])
    return dispatch(st, {st.hands[A][0]: "centre"})


@pytest.mark.parametrize("face,cls", [("inf", "inf"), ("armor", "armor"), ("star", None)])
def test_initiative_orders_one_unit(face, cls):
    st = initiative(_init_game(), "left", face)
    got = orders(st, L)
    assert len(got) == (2 if cls is None else 1)
    if cls:
        assert st.units[got[0]].cls == cls
    st = do(st, L, "order", unit=got[0])
    assert any(a["type"] == "move" for a in legal_actions(st, L))


def test_initiative_no_matching_unit_has_no_effect():
    u = {(8, 4): "infus", (0, 4): "infger"}
    st = ol_game(u, allies=[("probe", 1), ("probe", 1)])
    st = dispatch(st, {st.hands[A][0]: "centre"})
    st = initiative(st, "left", "armor")
    assert L not in to_act(st)


def test_initiative_flag_retreats_one_hex_and_no_battle():
    st = ol_game({(6, 4): "infus", (0, 4): "infger"}, allies=[("probe", 1), ("probe", 1)])
    st = dispatch(st, {st.hands[A][0]: "centre"})
    st = initiative(st, "left", "flag")
    acts = legal_actions(st, L)
    assert {tuple(a["to"]) for a in acts} == {(7, 3), (7, 5)}
    st = do(st, L, "initiative_unit", unit="u1", to=[7, 5])
    assert st.units["u1"].hex == (7, 5) and st.units["u1"].no_battle


def test_initiative_flag_without_retreat_loses_a_figure():
    st = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=[("probe", 1), ("probe", 1)])
    st = dispatch(st, {st.hands[A][0]: "centre"})
    st = initiative(st, "left", "flag")  # on the baseline: cannot retreat
    assert legal_actions(st, L) == [{"type": "initiative_unit", "seat": L, "unit": "u1"}]
    st = do(st, L, "initiative_unit", unit="u1")
    assert st.units["u1"].figures == 3


def test_initiative_grenade_loses_a_figure_and_may_not_battle():
    st = ol_game({(6, 4): "infus", (0, 4): "infger"}, allies=[("probe", 1), ("probe", 1)])
    st = dispatch(st, {st.hands[A][0]: "centre"})
    st = initiative(st, "left", "grenade")
    st = do(st, L, "initiative_unit", unit="u1")
    assert st.units["u1"].figures == 3 and st.units["u1"].no_battle


def test_draw_two_never_above_hand_size():
    st = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=[("probe", 1)] * 4, hand=(6, 4))
    c = st.hands[A][0]
    st = dispatch(st, {c: "centre"})
    st = pass_all(st)
    st = do(st, C, "play_card", card=c, half=0)
    assert to_act(st) == ["AXIS:cinc"]  # nothing to order: turn over
    assert len(st.hands[A]) == 4  # 3 kept + 2 drawn, capped at 4
    assert c in st.discard
    st = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=[("probe", 1)] * 3, hand=(6, 8))
    cs = st.hands[A][:2]
    st = dispatch(st, {cs[0]: "centre", cs[1]: "centre"})
    st = pass_all(st)
    st = do(st, C, "play_card", card=cs[0], half=0)
    st = do(st, C, "play_card", card=cs[1], half=1)
    assert len(st.hands[A]) == 3  # 1 kept + 2 drawn


def test_right_fg_first_half_reaches_the_second_boards_centre_section_002():
    # 002: six sections of two boards side by side; the second board's dotted lines fall
    # at cols 33 and 43, so (8, 42) is in the Right FG's first half (the second board's
    # centre) and (8, 44) in his second half (its right section)
    st = ol_game(
        {(8, 42): "infus", (8, 44): "infus", (7, 43): "infus", (0, 4): "infger"},
        allies=[("probe", 2), ("probe", 2)],
    )
    p1, p2 = st.hands[A][:2]
    st = dispatch(st, {p1: "right"})
    st = do(st, L, "pass")
    st = do(st, C, "pass")
    first = do(st, R, "play_card", card=p1, half=0)
    assert orders(first, R) == sorted([uid(st, (8, 42)), uid(st, (7, 43))])
    second = do(st, R, "play_card", card=p1, half=1)
    assert orders(second, R) == sorted([uid(st, (8, 44)), uid(st, (7, 43))])


def test_deck_reshuffling_false_ends_an_overlord_game_when_the_deck_has_run_out():
    st = ol_game(
        {(8, 4): "infus", (0, 4): "infger"},
        allies=[("probe", 0), ("probe", 1)],
        game_info={"options": {"deck_reshuffling": False}},
    )
    st.discard, st.deck = st.deck[:], st.deck[:1]
    pl = st.hands[A][0]
    st = dispatch(st, {pl: "left"})
    st = do(st, L, "play_card", card=pl, half=0)
    st = finish_turn(st)
    assert st.game_over and st.winner is None and not st.deck
