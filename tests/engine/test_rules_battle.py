"""004 Game Turn Explanation 3-4: movement limits, battle, dice, retreat, take ground,
armour overrun; Appendix 1 special units."""

import pytest

from engine import IllegalAction, is_chance
from tests.engine.rulehelp import act, do, event_types, game, legal, ordered, roll, uid, unit


def targets(st, h):
    return sorted(tuple(a["target"]) for a in legal(st, "battle") if a["unit"] == uid(st, h))


def moves(st, h):
    return sorted(tuple(a["to"]) for a in legal(st, "move") if a["unit"] == uid(st, h))


# ------------------------------------------------------------------ movement
def test_infantry_moves_one_and_battles():
    st = ordered("2@10: .:i\n6@10: .:I", [(6, 10)])
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert st.phase == "battle" or targets(st, (5, 11))
    assert targets(st, (5, 11)) == [(2, 10)]


def test_infantry_marching_two_cannot_battle():
    st = ordered("2@10: .:i\n6@10: .:I", [(6, 10)])
    st = do(st, "move", unit=uid(st, (6, 10)), to=[4, 10])
    # nothing left to do: no battle possible, the turn ended by itself
    assert st.active == "AXIS"


def test_special_forces_move_two_and_battle():
    st = ordered("1@11: .:i\n6@10: .:S", [(6, 10)])
    st = do(st, "move", unit=uid(st, (6, 10)), to=[4, 10])
    assert targets(st, (4, 10)) == [(1, 11)]


def test_armor_moves_three_and_battles():
    st = ordered("0@10: .:i\n6@10: .:A", [(6, 10)])
    assert (3, 11) in moves(st, (6, 10)) and (2, 10) not in moves(st, (6, 10))
    st = do(st, "move", unit=uid(st, (6, 10)), to=[3, 11])
    assert targets(st, (3, 11)) == [(0, 10)]


def test_artillery_moves_one_or_battles():
    st = ordered("0@10: .:i\n6@10: .:G", [(6, 10)])
    assert max(abs(r - 6) + 0 for r, c in moves(st, (6, 10))) == 1
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert st.active == "AXIS"  # moved artillery may not battle


def test_cannot_move_onto_or_through_units():
    st = ordered("0@0: .:i\n5@9: .:I .:I .:I\n6@10: .:I", [(6, 10)])
    ms = moves(st, (6, 10))
    assert (5, 11) not in ms and (4, 10) not in ms


def test_woods_must_stop_and_no_battle_after_entering():
    st = ordered("2@12: .:i\n5@11: W\n6@10: .:S", [(6, 10)])
    ms = moves(st, (6, 10))
    assert (5, 11) in ms and (4, 12) not in ms  # no moving on through the woods
    st2 = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert st2.active == "AXIS"  # may not battle the turn it entered woods
    # it cannot move through the woods: (4,12) was reached another way, not via (5,11)


def test_river_impassable_except_on_a_bridge():
    st = ordered("0@0: .:i\n5@9: R RB R\n6@10: .:I", [(6, 10)])
    ms = moves(st, (6, 10))
    assert (5, 9) not in ms and (5, 13) not in ms and (5, 11) in ms


def test_hedgerow_may_only_be_entered_as_first_hex():
    st = ordered("0@0: .:i\n4@10: h\n6@10: .:S", [(6, 10)])
    assert (4, 10) not in moves(st, (6, 10))
    st = ordered("0@0: .:i\n5@11: h\n6@10: .:S", [(6, 10)])
    assert (5, 11) in moves(st, (6, 10))


def test_road_bonus_plus_one_hex_along_road():
    st = (
        ordered("3@10: r\n4@10: r\n5@10: r\n6@10: r:I", [(6, 10)], key=("probe", 1), hexes=None)
        if False
        else None
    )
    text = "\n".join(f"{r}@10: r2:I" if r == 6 else f"{r}@10: r2" for r in (3, 4, 5, 6))
    # vertical road needs links (r,10)-(r-1,...): use a straight road along a row instead
    text = "0@0: .:i\n6@4: r r r r:I r r r"
    st = ordered(text, [(6, 10)])
    ms = moves(st, (6, 10))
    assert (6, 4) in ms and (6, 16) in ms  # 3 hexes along the road for infantry (2 + 1)
    assert (3, 11) not in ms


# ------------------------------------------------------------------ battle
def test_close_assault_obligation():
    st = do(ordered("3@11: .:i\n5@11: .:i\n6@10: .:I", [(6, 10)]), "end_movement")
    assert targets(st, (6, 10)) == [(5, 11)]
    with pytest.raises(IllegalAction) as e:
        act(st, "battle", unit=uid(st, (6, 10)), target=[3, 11])
    assert e.value.code == "must_close_assault"


def test_target_out_of_range():
    st = ordered("1@11: .:i\n6@10: .:I", [(6, 10)])
    with pytest.raises(IllegalAction) as e:
        act(st, "end_movement")[0] and act(
            do(st, "end_movement"), "battle", unit=uid(st, (6, 10)), target=[1, 11]
        )
    assert e.value.code in ("target_out_of_range", "wrong_phase")


def test_line_of_sight_blocked_by_woods_and_units():
    st = ordered("0@0: .:i\n3@7: .:i\n4@12: .:i\n5@11: W\n6@10: .:I", [(6, 10)])
    st = do(st, "end_movement") if st.phase == "move" else st
    t = targets(st, (6, 10))
    assert (4, 12) not in t and (0, 0) not in t  # woods on (5,11) in between; range
    with pytest.raises(IllegalAction) as e:
        act(st, "battle", unit=uid(st, (6, 10)), target=[4, 12])
    assert e.value.code == "no_line_of_sight"
    with pytest.raises(IllegalAction) as e:
        act(st, "battle", unit=uid(st, (6, 10)), target=[0, 0])
    assert e.value.code == "target_out_of_range"


def test_terrain_reduces_battle_dice():
    st = ordered("5@11: W:i\n6@10: .:I", [(6, 10)])
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[5, 11])
    st = do(st, "pass")  # defender's ambush window
    assert is_chance(st) and st.pending["dice"] == 2  # 3 - 1 for woods


def test_armor_in_town_battles_with_fewer_dice():
    st = ordered("4@10: .:i\n5@11: T:A", [(5, 11)])
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    st = do(st, "pass")
    assert st.pending["dice"] == 1  # 3 - 2 firing out of a town


def _fight(text, attacker, target, faces, **kw):
    st = ordered(text, [attacker], **kw)
    if st.phase == "move":
        st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, attacker), target=list(target))
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, *faces)


def test_infantry_symbol_hits_infantry_tank_symbol_does_not():
    st, ev = _fight("5@11: .:i\n6@10: .:I", (6, 10), (5, 11), ["inf", "armor", "star"])
    assert unit(st, (5, 11)).figures == 3


def test_tank_symbol_hits_armor_and_grenade_hits_anything():
    st, ev = _fight("5@11: .:a\n6@10: .:I", (6, 10), (5, 11), ["armor", "grenade", "inf"])
    assert unit(st, (5, 11)).figures == 1


def test_star_misses_and_grenade_hits_artillery():
    st, ev = _fight("5@11: .:g\n6@10: .:I", (6, 10), (5, 11), ["star", "inf", "grenade"])
    assert unit(st, (5, 11)).figures == 1


def test_eliminated_unit_gives_a_medal_to_the_attacker():
    st, ev = _fight(
        "5@11: .:g\n1@1: .:i\n6@10: .:I", (6, 10), (5, 11), ["grenade", "grenade", "inf"]
    )
    assert "unit_eliminated" in event_types(ev)
    assert st.elim_medals["ALLIES"] == 1 and (5, 11) not in st.occ


def test_retreat_one_hex_per_flag_toward_own_side():
    st, ev = _fight("5@11: .:i\n6@10: .:I", (6, 10), (5, 11), ["flag", "star", "star"])
    p = st.pending
    assert p["type"] == "retreat" and p["seat"] == "AXIS"
    assert sorted(tuple(o["to"]) for o in p["options"]) == [(4, 10), (4, 12)]
    st = do(st, "retreat", unit=p["unit"], to=[4, 12], ignore=0)
    assert unit(st, (4, 12)).figures == 4


def test_two_flags_retreat_two_hexes():
    st, ev = _fight("5@11: .:i\n6@10: .:I", (6, 10), (5, 11), ["flag", "flag", "star"])
    assert {o["to"][0] for o in st.pending["options"]} == {3}


def test_retreat_blocked_costs_a_figure_per_hex():
    st, ev = _fight(
        "4@10: .:i .:i\n5@11: .:i\n6@10: .:I", (6, 10), (5, 11), ["flag", "flag", "star"]
    )
    assert unit(st, (5, 11)).figures == 2 and st.pending["type"] != "retreat"


def test_retreat_partly_blocked_goes_as_far_as_it_can_and_loses_the_rest():
    """004 "Retreat": "one casualty must be removed from the Unit for each Retreat Move
    that cannot be completed": 2 flags, the second hex back blocked everywhere."""
    st, ev = _fight(
        "3@9: .:i .:i .:i\n5@11: .:i\n6@10: .:I", (6, 10), (5, 11), ["flag", "flag", "star"]
    )
    opts = st.pending["options"]
    assert sorted(tuple(o["to"]) for o in opts) == [(4, 10), (4, 12)]
    assert all(o["losses"] == 1 for o in opts)
    st = do(st, "retreat", unit=st.pending["unit"], to=[4, 12], ignore=0)
    assert unit(st, (4, 12)).figures == 3


def test_retreat_off_the_board_costs_figures():
    st, ev = _fight("0@10: .:i\n3@11: .:S", (3, 11), (0, 10), ["flag"], key=("probe", 1))
    assert unit(st, (0, 10)).figures == 3


def test_sandbag_lets_the_owner_ignore_the_first_flag():
    st, ev = _fight("5@11: S:i\n6@10: .:I", (6, 10), (5, 11), ["flag", "star"])
    opts = st.pending["options"]
    assert {"to": [5, 11], "losses": 0, "ignore": 1} in opts and len(opts) == 3


def test_take_ground_after_close_assault():
    st, ev = _fight("5@11: .:i\n6@10: .:I", (6, 10), (5, 11), ["flag", "star", "star"])
    st = do(st, "retreat", unit=st.pending["unit"], to=[4, 12], ignore=0)
    assert st.pending["type"] == "take_ground"
    st = do(st, "take_ground", take=True)
    assert st.occ[(5, 11)] and unit(st, (5, 11)).side == "ALLIES"


def test_take_ground_may_be_declined():
    st, ev = _fight(
        "0@0: .:i\n5@11: .:g\n6@10: .:I", (6, 10), (5, 11), ["grenade", "grenade", "star"]
    )
    assert st.pending["type"] == "take_ground"
    st = do(st, "take_ground", take=False)
    assert unit(st, (6, 10)).side == "ALLIES"


def test_no_take_ground_after_ranged_combat():
    st, ev = _fight("4@10: .:g\n6@10: .:I", (6, 10), (4, 10), ["grenade", "grenade"])
    assert st.pending is None or st.pending["type"] != "take_ground"


def test_artillery_cannot_take_ground():
    st, ev = _fight("5@11: .:g\n6@10: .:G", (6, 10), (5, 11), ["grenade", "grenade", "star"])
    assert st.pending is None or st.pending["type"] != "take_ground"


def _moved_in_then_fight(text, frm, to, target, faces):
    st = ordered(text, [frm])
    st = do(st, "move", unit=uid(st, frm), to=list(to))
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "battle", unit=uid(st, to), target=list(target))
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, *faces)


def test_no_take_ground_out_of_wire_entered_this_turn():
    """004 "Barbed Wire": "A Unit that enters a hex with Barbed Wire must stop and may Move
    no further on that turn"; 004 "Taking Ground": "Terrain Movement and Battle
    restrictions still apply when Units Take Ground".  An infantry unit that started the
    turn in the wire may still take ground out of it."""
    board = "0@0: .:i\n4@10: .:g\n5@11: X\n6@12: .:I"
    st, _ = _moved_in_then_fight(board, (6, 12), (5, 11), (4, 10), ["grenade", "grenade"])
    assert (4, 10) not in st.occ  # eliminated (2 dice: 3 - 1 in wire)
    assert st.pending["type"] != "take_ground" and unit(st, (5, 11)).side == "ALLIES"
    st, _ = _fight("0@0: .:i\n4@10: .:g\n5@11: X:I", (5, 11), (4, 10), ["grenade", "grenade"])
    assert st.pending["type"] == "take_ground"


def test_armor_that_entered_wire_battles_but_does_not_take_ground():
    """004 "Barbed Wire": "Armour automatically removes the Barbed Wire and may still
    Battle" - it entered the wire all the same ("must stop and may Move no further on
    that turn"), so no take ground (nor overrun) out of that hex."""
    board = "0@0: .:i\n3@11: .:i\n4@10: .:g\n5@11: X\n6@12: .:A"
    st, ev = _moved_in_then_fight(board, (6, 12), (5, 11), (4, 10), ["grenade"] * 3)
    assert (5, 11) in st.tiles_over and not any(
        t.spec.family == "wire" for t in st.tiles_over[(5, 11)]
    )
    assert (4, 10) not in st.occ and unit(st, (5, 11)).side == "ALLIES"
    assert st.pending["type"] not in ("take_ground", "overrun")


@pytest.mark.parametrize(
    "board",
    [
        "0@0: .:i\n4@10: M:i1\n5@11: .:I",  # 004 "Mountains": infantry enter from a hill only
        "0@0: .:i\n4@10: C:i1\n5@11: b:I",  # vocabulary 1.3 Cliff: not up from a beach
    ],
)
def test_take_ground_only_where_the_unit_could_move(board):
    """004 "Taking Ground": "Terrain Movement ... restrictions still apply when Units Take
    Ground": the attacker may not take ground by a step its movement could not make."""
    st = do(ordered(board, [(5, 11)]), "end_movement")
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    st = do(st, "pass")  # no Ambush
    st, _ = roll(st, *["grenade"] * st.pending["dice"])
    assert (4, 10) not in st.occ
    assert st.pending is None or st.pending["type"] != "take_ground"
    assert unit(st, (5, 11)).side == "ALLIES"


def test_armor_overrun_after_taking_ground():
    st, ev = _fight(
        "3@11: .:i\n4@10: .:g\n6@10: .:A", (6, 10), (4, 10), ["grenade"] * 3, key=("probe", 1)
    )
    # not adjacent: ranged battle, no take ground; use an adjacent target instead
    st, ev = _fight(
        "4@12: .:i\n5@11: .:g\n6@10: .:A", (6, 10), (5, 11), ["grenade", "grenade", "star"]
    )
    st = do(st, "take_ground", take=True)
    assert st.pending["type"] == "overrun"
    assert [tuple(a["target"]) for a in legal(st, "battle")] == [(4, 12)]


def test_armor_overrun_once_per_turn():
    st, ev = _fight(
        "3@13: .:i\n4@12: .:i3\n5@11: .:g\n6@10: .:A",
        (6, 10),
        (5, 11),
        ["grenade", "grenade", "star"],
    )
    st = do(st, "take_ground", take=True)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 12])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, "inf", "inf", "inf")
    assert (4, 12) not in st.occ
    assert st.pending["type"] == "take_ground"  # may take ground again
    st = do(st, "take_ground", take=True)
    assert st.pending is None or st.pending["type"] != "overrun"  # but no second overrun


def test_infantry_cannot_overrun():
    st, ev = _fight(
        "4@12: .:i\n5@11: .:g\n6@10: .:I", (6, 10), (5, 11), ["grenade", "grenade", "star"]
    )
    st = do(st, "take_ground", take=True)
    assert st.pending is None or st.pending["type"] != "overrun"


def test_unit_battles_only_once_per_turn():
    st = ordered("3@11: .:i\n6@10: .:A\n3@9: .:i", [(6, 10)])
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[3, 11])
    st, _ = roll(st, "star", "star", "star")
    assert st.active == "AXIS"  # its only ordered unit has battled: turn over


def test_sniper_is_hit_only_by_grenades_and_its_stars_hit():
    text = "5@11: .:i\n6@10: .:I"
    st = game(text, hand=[("probe", 1)], units={(5, 13): "infus:1"})
    # a regular unit's symbols do not hit a sniper
    from engine.core.units import unit_spec

    sn = unit_spec("infger", "badge26")
    assert sn.hit_by == frozenset({"grenade"}) and sn.medal_value == 0
    from engine.core import dice

    assert not dice.is_hit("inf", "inf", sn.hit_by, frozenset())
    assert dice.is_hit("grenade", "inf", sn.hit_by, frozenset())
