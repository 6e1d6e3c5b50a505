"""Turn sequence (003)."""

from engine.rulesets.portable.activation import engaged
from engine.rulesets.portable.textboard import position

from .helpers import R, act, kinds, last, refused, roll

BOARD = """
r: f,f,f
3  .:f     .:f,g   .:a
2  .       .       .
1  .:F     .:F,G   .:A
R: F,F,M
"""


def start_of_turn(turn, attacker="BLUE"):
    """The state just before the initiative throw of ``turn`` (end of the previous one)."""
    st = position(BOARD, active="RED", first="BLUE", turn=turn - 1, attacker=attacker)
    st, ev = act(st, "end_phase")
    assert "turn_started" in kinds(ev) and st.turn == turn
    assert st.pending == {"type": "roll", "seat": "chance", "for": "initiative", "dice": 2}
    return st


def test_first_turn_attacker_goes_first_with_its_score_of_activations():
    """ "First turn: Attacker goes first."  Both still throw for their activations."""
    st = start_of_turn(1, attacker="RED")
    st, ev = roll(st, 2, 6)  # BLUE higher, but RED attacks
    assert st.first == "RED" and st.active == "RED" and st.activations == 2
    assert last(ev, "first_chosen")["reason"] == "attacker"
    assert st.pending["type"] == "activate" and st.pending["seat"] == "RED"


def test_later_turns_the_higher_score_chooses_who_moves_first():
    """ "Second and subsequent turns: Both sides throw a D6.  The side with the highest D6
    die score chooses whether to move first.\""""
    st = start_of_turn(2)
    st, _ = roll(st, 5, 3)
    assert st.pending == {"type": "choose_first", "seat": "RED"}
    refused(st, "not_your_turn", "choose_first", first="RED", seat="BLUE")
    st2, _ = act(st, "choose_first", first="BLUE")
    assert st2.active == "BLUE" and st2.activations == 3
    st3, _ = act(st, "choose_first", first="RED")
    assert st3.active == "RED" and st3.activations == 5


def test_later_turns_tied_initiative_is_rethrown():
    st = start_of_turn(2)
    st, ev = roll(st, 4, 4)
    assert st.pending["for"] == "initiative" and last(ev, "dice_rolled")["result"] == "tie"
    st, _ = roll(st, 1, 2)
    assert st.pending == {"type": "choose_first", "seat": "BLUE"}


def test_each_side_activates_as_many_units_as_it_scored():
    """ "Each side may activate as many units as they scored on their die roll.\""""
    st = position(BOARD, active="BLUE", activations=2)
    st, ev = act(st, "move", unit="b1", to="a2")
    assert last(ev, "unit_activated")["left"] == 1
    st, _ = act(st, "move", unit="b4", to="b1")  # reserve -> baseline
    assert st.activations == 0
    # b1, already activated, may still fight; nothing else may be activated
    assert [a["type"] for a in R.legal_actions(st, "BLUE")] == ["attack", "end_phase"]
    refused(st, "illegal_move", "move", unit="b2", to="b2")


def test_the_second_side_then_the_next_turn():
    st = position(BOARD, active="BLUE", first="BLUE", activations=1, turn=3)
    st, ev = act(st, "end_phase")
    assert kinds(ev)[:2] == ["phase_ended", "phase_started"] and st.active == "RED"
    st, ev = act(st, "end_phase")
    assert st.turn == 4 and st.pending["for"] == "initiative"


def test_units_already_engaged_in_close_combat_need_no_activation():
    """ "Units already engaged in Close Combat do not need to be activated.\""""
    st = position(
        """
    r:
    3  .    .    .
    2  .:f  .    .
    1  .:F  .    .
    R: F
    """,
        activations=1,
    )
    st, _ = act(st, "attack", unit="b1", target="r1")
    st, _ = roll(st, 6, 6)  # both unaffected: now engaged
    # BLUE has nothing left to do: its phase ends by itself; RED's begins
    assert st.active == "RED" and st.activations == 1
    st, ev = act(st, "attack", unit="r1", target="b1")  # engaged: free
    assert "unit_activated" not in [e["type"] for e in ev] and st.activations == 1


def test_engagement_ends_when_either_unit_changes_area():
    st = position("""
    r:
    3  .    .    .
    2  .:f  .    .
    1  .:F  .    .
    R:
    """)
    st, _ = act(st, "attack", unit="b1", target="r1")
    st, _ = roll(st, 6, 1)  # r1 hit
    st, _ = roll(st, 6)  # retreat or lose
    st, _ = act(st, "retreat")  # r1 to a3
    st, _ = act(st, "stay")  # b1 does not advance
    assert not R.view_for(st, None)["units"][0]["engaged"]
    st.units["r1"].area = "a2"  # back next to b1 (as if moved): not engaged again
    assert not engaged(st, st.units["b1"]) and not engaged(st, st.units["r1"])
