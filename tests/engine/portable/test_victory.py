"""The end of the battle: house rules (the text has none), named options."""

from engine.rulesets.portable.textboard import position

from .helpers import R, act, last, roll

BOARD = """
r:
3  .:f1  .    .
2  .    .    .
1  .:A  .    .
R:
"""


def kill_r1(st):
    st, _ = act(st, "fire", unit="b1", target="a3")
    st, _ = roll(st, 6)
    return roll(st, 1)


def test_an_army_that_has_lost_half_its_units_withdraws():
    st, ev = kill_r1(position(BOARD, lost={"RED": 2}))
    assert last(ev, "game_over") == {
        "type": "game_over",
        "winner": "BLUE",
        "reason": "army_withdraws",
        "lost": {"RED": 3, "BLUE": 0},
    }
    assert R.is_over(st) and R.to_act(st) == []
    assert R.result(st) == {
        "winner": "BLUE",
        "draw": False,
        "score": {"RED": 0, "BLUE": 3},
        "reason": "army_withdraws",
    }
    st, ev = kill_r1(position(BOARD, lost={"RED": 1}))
    assert not R.is_over(st)


def test_break_point_is_an_option():
    st, ev = kill_r1(position(BOARD, options={"break_units": 1}))
    assert R.is_over(st)


def test_an_army_without_its_general_withdraws_at_a_third():
    st = position(BOARD, lost={"RED": 1})
    st.units["rG"].lost = True
    st, ev = kill_r1(st)
    assert R.is_over(st) and st.winner == "BLUE"


def test_turn_limit_ends_the_battle_in_a_draw():
    st = position(BOARD, turn=12, active="RED", first="BLUE")
    st, ev = act(st, "end_phase")
    assert R.is_over(st) and st.winner is None and st.reason == "turn_limit"
    assert R.result(st)["draw"] is True
    st = position(BOARD, turn=12, active="RED", first="BLUE", options={"turn_limit": 13})
    st, ev = act(st, "end_phase")
    assert not R.is_over(st) and st.turn == 13
