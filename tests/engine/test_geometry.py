"""Board geometry (m44-vocabulary section 4)."""

import pytest

from engine.core.errors import ScenarioError
from engine.core.geometry import cube_round, direction_between, make_board, to_cube


def test_board_sizes():
    std, ovl, brk = make_board("STANDARD"), make_board("overlord"), make_board("BrkThru")
    assert len(std.hexes) == 5 * 13 + 4 * 12
    assert len(ovl.hexes) == 5 * 26 + 4 * 25
    assert len(brk.hexes) == 9 * 13 + 8 * 12
    assert (std.rows, std.max_col, ovl.max_col, brk.rows) == (9, 24, 50, 17)
    assert std.on_board((0, 24)) and not std.on_board((0, 25)) and not std.on_board((1, 0))
    assert ovl.on_board((1, 49)) and not ovl.on_board((9, 0))


def test_unknown_board():
    with pytest.raises(ScenarioError) as e:
        make_board("HEXAGONAL")
    assert e.value.code == "unknown_board"


def test_neighbours_and_distance():
    b = make_board("STANDARD")
    assert set(b.neighbours((4, 6))) == {(4, 4), (4, 8), (3, 5), (3, 7), (5, 5), (5, 7)}
    assert set(b.neighbours((0, 0))) == {(0, 2), (1, 1)}
    for n in b.neighbours((4, 6)):
        assert b.distance((4, 6), n) == 1
    assert b.distance((0, 0), (0, 24)) == 12
    assert b.distance((0, 0), (8, 8)) == 8
    assert b.distance((0, 0), (8, 24)) == 8 + 8
    assert b.distance((2, 6), (5, 5)) == 3
    assert direction_between((4, 6), (3, 7)) == 5 and direction_between((4, 6), (4, 10)) is None


def test_sections_bottom_and_top_mirror():
    b = make_board("STANDARD")
    assert b.sections((8, 0), top=False) == {0}
    assert b.sections((8, 0), top=True) == {2}
    assert b.sections((1, 7), top=False) == {0, 1}  # straddles the dotted line
    assert b.sections((1, 7), top=True) == {1, 2}
    assert b.sections((4, 12), top=False) == {1} == b.sections((4, 12), top=True)
    assert b.sections((3, 17), top=False) == {1, 2}
    assert b.sections((0, 24), top=True) == {0}
    assert len(b.hexes_in_section(0, top=False)) == 5 * 4 + 4 * 4
    assert b.subsections((0, 0), top=False) == frozenset()


def test_overlord_sections_and_subsections():
    b = make_board("OVERLORD")
    assert b.sections((1, 17), top=False) == {0, 1}
    assert b.sections((0, 50), top=False) == {2} and b.sections((0, 50), top=True) == {0}
    assert b.subsections((0, 0), top=False) == {0}
    assert b.subsections((0, 0), top=True) == {5}  # 5 - i, not BGA's 2 - i
    assert b.subsections((1, 25), top=False) == {2, 3}
    assert b.subsections((1, 25), top=True) == {2, 3}
    assert b.subsections((1, 43), top=False) == {4, 5}
    assert b.subsections((1, 43), top=True) == {0, 1}
    assert b.subsections((2, 10), top=True) == {4}


def test_retreat_hexes_toward_own_baseline():
    b = make_board("STANDARD")
    assert set(b.retreat_hexes((4, 6), top=True)) == {(3, 5), (3, 7)}
    assert set(b.retreat_hexes((4, 6), top=False)) == {(5, 5), (5, 7)}
    assert b.retreat_hexes((0, 6), top=True) == ()
    assert b.retreat_hexes((7, 1), top=False) == ((8, 0), (8, 2))
    assert b.retreat_hexes((4, 0), top=False) == ((5, 1),)
    assert b.baseline_row(True) == 0 and b.baseline_row(False) == 8


def test_cube_roundtrip():
    for h in make_board("BRKTHRU").hexes:
        x, y, z = to_cube(h)
        assert abs(x + y + z) < 1e-9
        assert cube_round(x + 0.1, y - 0.05, z - 0.05) == h


def test_overlord_subsections_are_the_two_boards_dotted_lines_002():
    # 002: two boards laid side by side (26 hexes wide); each board keeps its dotted lines
    # (cols 7 and 17), so the second board's fall 26 cols later: 33 and 43.  The centre
    # section pairs the first board's right section and the second board's left one.
    b = make_board("OVERLORD")
    assert b.subsection_bounds == (0, 7, 17, 25, 33, 43, 50)
    assert all(b.subsection_bounds[i] + b.subsection_bounds[6 - i] == 50 for i in range(7))
    assert b.subsections((8, 42), top=False) == {4}  # second board's centre
    assert b.subsections((7, 43), top=False) == {4, 5}  # on the dotted line
    assert b.subsections((7, 41), top=False) == {4}
    assert b.subsections((7, 7), top=True) == {4, 5}  # mirror of (7, 43)
    # every sub-section of an even row holds as many hexes as its mirror image
    row = [h for h in b.hexes if h[0] == 8]
    for i in range(6):
        assert sum(1 for h in row if i in b.subsections(h, False)) == sum(
            1 for h in row if 5 - i in b.subsections(h, False)
        )
