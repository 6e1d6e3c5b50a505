"""engine.textboard: boards drawn as text become real .m44 scenarios."""

import pytest

from engine.core.textboard import board_from_text, m44_from_text


def test_staggered_rows_and_units():
    scn = board_from_text("""
        W    .    H:i  .
          .    R    .
        .:I  RB   .    T:A2
    """)
    assert scn.tiles[(0, 0)][0].spec.code == "woods"
    assert scn.tiles[(0, 4)][0].spec.code == "hills"
    assert scn.tiles[(1, 3)][0].spec.code == "river"
    assert [t.spec.code for t in scn.tiles[(2, 2)]] == ["river", "bridge"]
    assert scn.terrain[(1, 3)].impassable and not scn.terrain[(2, 2)].impassable
    by_hex = {u.hex: u for u in scn.units}
    assert by_hex[(0, 4)].side == "AXIS" and by_hex[(0, 4)].spec.kind == "infantry"
    assert by_hex[(2, 0)].side == "ALLIES"
    assert by_hex[(2, 6)].spec.kind == "armor" and by_hex[(2, 6)].figures == 2
    assert scn.player1_side == "AXIS" and scn.starting_side == "ALLIES"


def test_explicit_rows_offsets_units_tags_and_game_info():
    scn = board_from_text(
        """
        4@6: W  H
        7@11: r3
    """,
        units={(5, 7): "tankus:2"},
        tags={(4, 6): "medal0"},
        victory=(3, 6),
        cards=(5, 6),
        starting="PLAYER1",
    )
    assert scn.tiles[(4, 6)][0].spec.code == "woods" and scn.tiles[(4, 8)][0].spec.code == "hills"
    assert scn.tiles[(7, 11)][0].orientation == 3
    assert scn.units[0].hex == (5, 7) and scn.units[0].figures == 2
    assert scn.objectives[0].hexes == ((4, 6),) and scn.objectives[0].side is None
    assert scn.victory == {"AXIS": 3, "ALLIES": 6} and scn.cards == {"AXIS": 5, "ALLIES": 6}
    assert scn.starting_side == "AXIS"


def test_minimal_dict_is_valid_m44():
    d = m44_from_text("0: .:i", player1="ALLIES", nations={"ALLIES": "brit"})
    assert d["game_info"]["side_player1"] == "ALLIES"
    assert d["board"]["hexagons"] == [{"row": 0, "col": 0, "unit": {"name": "infbrit"}}]


def test_bad_drawings_are_refused():
    with pytest.raises(ValueError):
        m44_from_text("Q")
    with pytest.raises(ValueError):
        m44_from_text("1@2: W")
