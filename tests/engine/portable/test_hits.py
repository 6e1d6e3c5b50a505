"""Resolving hits on units, and Generals co-located with a unit that has been hit (003)."""

import pytest

from engine.rulesets.portable.textboard import position

from .helpers import R, act, kinds, last, roll


def hit(board, target="r1", **kw):
    """BLUE's artillery in a1 fires at a3 and lands (die 6): ``target`` is hit."""
    st = position(board, **kw)
    st, _ = act(st, "fire", unit="b1", target="a3")
    st, ev = roll(st, 6)
    assert last(ev, "unit_hit")["unit"] == target
    return st


BOARD = """
r:
3  .:f{q}  .    .
2  .    .    .
1  .:A  .    .
R:
"""


@pytest.mark.parametrize("q,lose_upto", [("e", 2), ("a", 3), ("p", 4)])
def test_quality_row_loses_1_sp_or_must_retreat_or_lose(q, lose_upto):
    """ "Elite 1 or 2 = Unit loses 1 SP; 3 to 6 = Unit must retreat 1 grid area or lose 1 SP.
    Average 1 to 3 ...; 4 to 6 ...  Poor 1 to 4 ...; 5 or 6 ...\""""
    st0 = hit(BOARD.format(q=q))
    for die in range(1, 7):
        st, ev = roll(st0, die)
        if die <= lose_upto:
            assert last(ev, "sp_lost") == {
                "type": "sp_lost",
                "unit": "r1",
                "side": "RED",
                "sp": 1,
                "reason": "hit",
            }
        else:
            assert st.pending == {
                "type": "hit_choice",
                "seat": "RED",
                "unit": "r1",
                "to": "red_reserve",
            }


def test_retreat_one_area_back_or_lose_1_sp_the_owners_choice():
    st = hit(BOARD.format(q="a"))
    st, _ = roll(st, 6)
    assert R.legal_actions(st, "RED") == [
        {"type": "retreat", "seat": "RED"},
        {"type": "lose_sp", "seat": "RED"},
    ]
    st1, ev = act(st, "retreat")
    assert st1.units["r1"].area == "red_reserve" and st1.units["r1"].sp == 2
    st2, ev = act(st, "lose_sp")
    assert st2.units["r1"].area == "a3" and st2.units["r1"].sp == 1


def test_unable_to_retreat_loses_1_sp():
    """ "Any unit unable or unwilling to retreat 1 grid area loses 1 SP."  A3 is RED's
    baseline... here RED is in the middle with its retreat area full."""
    st = position("""
    r:
    3  .:f,f  .    .
    2  .:f    .    .
    1  .:F    .    .
    R:
    """)
    st, _ = act(st, "attack", unit="b1", target="r3")
    st, _ = roll(st, 6, 1)
    st, ev = roll(st, 6)
    assert last(ev, "sp_lost")["reason"] == "unable_to_retreat" and st.units["r3"].sp == 1


def test_all_units_have_2_sp_a_unit_at_0_is_destroyed():
    """ "All units have a Strength Value of 2 SPs.\""""
    assert {u.sp for u in R.new_game(3).units.values()} == {2}
    st = hit(BOARD.format(q="a1"))
    st, ev = roll(st, 1)
    assert last(ev, "unit_destroyed")["unit"] == "r1" and st.units["r1"].lost


def test_the_general_retreats_with_the_unit():
    """ "If a General is co-located with a unit that must retreat and it is able to do so,
    the General retreats with that unit.\""""
    st = position("""
    r:
    3  .     .    .
    2  .:f,g .    .
    1  .:F   .    .
    R:
    """)
    st, _ = act(st, "attack", unit="b1", target="r1")
    st, _ = roll(st, 6, 1)
    assert st.pending["for"] == "general"
    st, _ = roll(st, 1, 1)
    st, _ = roll(st, 6)
    st, ev = act(st, "retreat")
    assert st.units["r1"].area == "a3" and st.units["rG"].area == "a3"
    assert [e["unit"] for e in ev if e["type"] == "unit_retreated"] == ["r1", "rG"]


GEN = """
r:
3  .:f,g  .    .
2  .    .    .
1  .:A  .    .
R:
"""


def test_general_killed_on_12():
    """ "If a General is co-located with a unit that is hit, two D6 dice are rolled ... If the
    total 2D6 dice roll score is 12, the General is killed.\""""
    st = hit(GEN)
    assert st.pending == {
        "type": "roll",
        "seat": "chance",
        "for": "general",
        "dice": 2,
        "unit": "r1",
    }
    st, ev = roll(st, 6, 6)
    assert last(ev, "general_killed")["unit"] == "rG" and st.units["rG"].lost
    assert st.pending["for"] == "hit"


def test_general_wounded_on_11_loses_1_sp_and_a_second_wound_kills():
    """ "If the total 2D6 dice roll score is 11, the General is wounded and loses 1SP.\""""
    st = hit(GEN)
    st, ev = roll(st, 5, 6)
    assert last(ev, "general_wounded") == {
        "type": "general_wounded",
        "unit": "rG",
        "side": "RED",
        "sp": 1,
    }
    st = hit(GEN.replace("g", "g1"))
    st, ev = roll(st, 6, 5)
    assert "general_killed" in kinds(ev)


def test_general_survives_on_10_or_less():
    st = hit(GEN)
    st, ev = roll(st, 4, 6)
    assert last(ev, "dice_rolled")["result"] == "survives" and st.units["rG"].sp == 2


def test_artillery_hits_every_unit_and_the_general_rolls_for_each():
    st = hit("""
    r:
    3  .:f,f,g  .    .
    2  .    .    .
    1  .:A  .    .
    R:
    """)
    st, _ = roll(st, 1, 1)  # general survives (r1)
    st, _ = roll(st, 1)  # r1 loses 1 SP
    assert last(roll(st, 1, 1)[1], "dice_rolled")["for"] == "general"
    assert st.pending["unit"] == "r2"
