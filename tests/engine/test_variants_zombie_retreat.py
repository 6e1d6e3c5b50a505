"""004 Appendix 3, "Achtung! Zombie!": "A Zombie Unit that is forced to Retreat into
another simply dislodges that Unit back one hex." (engine/rulesets/m44/options/variants/
zombie.py, extension point ``dislodge``).  Boards drawn as text, dice supplied."""

from __future__ import annotations

from .rulehelp import do, ordered, roll, unit

BOARD = """
    1@9: . . .
    2@10: .:i .:i
    3@11: .:i
    4@10: .:I
"""


def _flag_on_the_zombie(board=BOARD):
    st = ordered(board, [(4, 10)], options={"variant": "ZOMBIE"})
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "battle", unit=unit(st, (4, 10)).id, target=[3, 11])
    st = do(st, "pass") if st.pending["type"] == "ambush" else st
    return roll(st, "flag", "armor", "armor")[0]


def test_a_retreating_zombie_dislodges_another_zombie_back_one_hex():
    st = _flag_on_the_zombie()
    assert st.pending["type"] == "retreat"
    assert [(o["to"], o["losses"]) for o in st.pending["options"]] == [([2, 10], 0), ([2, 12], 0)]
    z, other = unit(st, (3, 11)), unit(st, (2, 10))
    st = do(st, "retreat", unit=z.id, to=[2, 10], ignore=0)
    assert st.occ[(2, 10)] == z.id and st.units[z.id].figures == 3
    back = st.units[other.id].hex
    assert back[0] == 1 and st.scn.board.distance(back, (2, 10)) == 1


def test_no_room_behind_the_other_zombie_costs_a_figure():
    """No free hex one step back from the other zombies: the retreat is blocked and the
    zombie loses a figure as usual (no chain of dislodgings)."""
    st = _flag_on_the_zombie("""
        1@9: .:i .:i .:i
        2@10: .:i .:i
        3@11: .:i
        4@10: .:I
    """)
    assert unit(st, (3, 11)).figures == 2
    assert all(st.units[st.occ[h]].figures == 3 for h in ((2, 10), (2, 12)))
