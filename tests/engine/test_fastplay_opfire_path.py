"""Fast Play '44 rule 4.2 with the path the player chooses (issue 35 finding 5), and 4.1's
frozen river (finding 1 in Fast Play).

000 4.1: "All movement costs and restrictions of the 'Commands and Colors' rules are
used"; 4.2: "When moving in range of a unit marked for OP fire the opponent may interrupt
the move and perform a Ranged Combat attack on the moving Unit ... If the moving unit
survives the attack, was not forced to retreat and is not suppressed, it may continue to
move".  At the table the player moves his unit hex by hex: ``move {unit, to, path}``
names the hexes after the start.  The Axis infantry on (6, 14) holds an OpFire marker;
of the two 2-hex paths from (6, 8) to (4, 8), the one through (5, 9) passes within its
range 3, the one through (5, 7) does not."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from tests.engine.fphelp import FP, act, do, game, marker, roll, uid, unit

BOARD = """
6@8: .:I
6@14: .:i
"""


def _opfire_set(text: str = BOARD, **kw):
    st = game(text, cards=(4, 2), **kw)
    st = do(st, "end_turn")  # Allies pass
    st = marker(st, (6, 14))
    return do(st, "end_turn")  # Axis ends: the Allies move


def _move(st, path, to=(4, 8)):
    return act(st, "move", unit=uid(st, (6, 8)), to=list(to), path=[list(h) for h in path])


def test_4_2_an_equally_short_path_out_of_range_is_not_interrupted():
    st, events = _move(_opfire_set(), [(5, 7), (4, 8)])
    assert st.pending["type"] == "command"  # no opportunity fire
    assert unit(st, (4, 8)).side == "ALLIES" and unit(st, (4, 8)).moved == 2


def test_4_2_the_chosen_path_in_range_is_interrupted_where_it_enters_the_range():
    st, _ = _move(_opfire_set(), [(5, 9), (4, 8)])
    p = st.pending
    assert p["type"] == "opportunity_fire" and p["hex"] == [5, 9]
    st = do(st, "opportunity_fire", unit=uid(st, (6, 14)), target=[5, 9])
    st, _ = roll(st, "star")  # a miss (1 die at range 3)
    assert unit(st, (4, 8)).side == "ALLIES"  # 4.2: it survived: it goes on


def test_4_2_the_old_form_without_a_path_still_moves_along_the_engines_path():
    """A logged ``move {unit, to}`` of an older release replays as before (the engine's
    shortest chain of hexes)."""
    st = _opfire_set()
    a, _ = act(st, "move", unit=uid(st, (6, 8)), to=[4, 8])
    b, _ = act(st, "move", unit=uid(st, (6, 8)), to=[4, 8])
    assert FP.dump_state(a) == FP.dump_state(b)
    canon = FP.canonical_action(st, {"type": "move", "seat": "ALLIES", "unit": "u0", "to": [4, 8]})
    assert canon == {"type": "move", "seat": "ALLIES", "unit": "u0", "to": [4, 8]}


@pytest.mark.parametrize(
    "text,path,to,code",
    [
        (BOARD, [(4, 8)], (4, 8), "illegal_path"),  # not adjacent
        (BOARD, [(5, 7), (4, 6)], (4, 8), "path_mismatch"),  # does not end on `to`
        (BOARD + "5@7: .:I\n", [(5, 7), (4, 8)], (4, 8), "illegal_path"),  # occupied
        (BOARD + "5@7: W\n", [(5, 7), (4, 8)], (4, 8), "illegal_path"),  # woods: must stop
        (BOARD, [(5, 7), (4, 6), (4, 8)], (4, 8), "illegal_path"),  # 3 hexes: move 2
        (BOARD, [(5, 7), (5, 9)], (5, 9), "illegal_path"),  # a loop ((5, 9) is next)
        (BOARD, [(5, 7), (5, 7)], (5, 7), "illegal_path"),  # a hex twice
    ],
)
def test_4_1_the_chosen_path_follows_the_movement_rules(text, path, to, code):
    st = _opfire_set(text)
    with pytest.raises(IllegalAction) as e:
        _move(st, path, to)
    assert e.value.code == code


@pytest.mark.parametrize(
    "path", ["x", [], [[1]], [[1, 2, 3]], [["a", 1]], [[True, 1]], [[0, 0]] * 17]
)
def test_the_path_field_is_refused_unless_a_short_list_of_hexes(path):
    st = _opfire_set()
    with pytest.raises(IllegalAction) as e:
        FP.canonical_action(
            st, {"type": "move", "seat": "ALLIES", "unit": "u0", "to": [4, 8], "path": path}
        )
    assert e.value.code == "bad_value"


def test_the_canonical_move_keeps_its_path():
    st = _opfire_set()
    a = {"type": "move", "seat": "ALLIES", "unit": "u0", "to": [4, 8], "path": [[5, 7], [4, 8]]}
    assert FP.canonical_action(st, a) == a


# ------------------------------------------- 4.1 frozen river (issue 35 finding 1, Fast Play)
ICE = {"Y": "wriver"}


def test_4_1_moving_onto_a_frozen_river_rolls_the_ice():
    """4.1 "All movement costs and restrictions of the 'Commands and Colors' rules are
    used"; 004 "Rivers & Waterways, Frozen": "Roll two Battle Dice whenever a Unit Moves or
    Retreats onto a Frozen River hex. For each Green Star rolled, 1 figure or model is
    lost"."""
    st = game("5@7: Y\n6@8: .:I", legend=ICE)
    st, events = act(st, "move", unit=uid(st, (6, 8)), to=[5, 7])
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2
    st, _ = roll(st, "star", "grenade")  # the star is a figure, the grenade nothing
    assert unit(st, (5, 7)).figures == 3 and st.ext.get("supp", {}).get(uid(st, (5, 7))) is None


def test_4_1_retreating_onto_a_frozen_river_rolls_the_ice():
    st = game("2@8: .:i\n1@7: Y Y\n4@8: .:I", legend=ICE, cards=(4, 4))
    st = do(st, "battle", unit=uid(st, (4, 8)), target=[2, 8], assault=False)
    st, _ = roll(st, "flag", "inf")
    if st.pending["type"] == "retreat":
        st = do(st, "retreat", unit=st.pending["unit"], to=[1, 9], ignore=0)
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2
    h = next(u.hex for u in st.units.values() if u.side == "AXIS" and u.hex[0] == 1)
    st, _ = roll(st, "star", "star")
    assert unit(st, h).figures == 1  # 4 - 1 (inf) - 2 (stars)


def test_5_7e_taking_ground_onto_a_frozen_river_rolls_the_ice():
    st, events = roll_assault("5@7: Y:i1\n6@8: .:I", legend=ICE)
    assert any(e["type"] == "ground_taken" for e in events)
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2
    st, _ = roll(st, "star", "flag")
    assert unit(st, (5, 7)).figures == 3


def test_5_7e_taking_ground_into_an_enemy_minefield_rolls_the_mine():
    """004 "Minefields": an enemy unit entering "by normal movement or take ground"."""
    from engine.procedures.state import Mine

    st = game("5@7: .:i1\n6@8: .:I")
    st.mines[(5, 7)] = Mine("AXIS", 2, False, False)
    st, events = roll_assault_on(st)
    assert any(e["type"] == "mine_revealed" for e in events)
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2


def roll_assault(text, **kw):
    return roll_assault_on(game(text, **kw))


def roll_assault_on(st):
    st = do(st, "battle", unit=uid(st, (6, 8)), target=[5, 7], assault=True)
    if st.pending["type"] == "assault_fire":
        st = do(st, "hold_fire")
    return roll(st, *["grenade"] * st.pending["dice"])
