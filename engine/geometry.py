"""Hex board geometry in the ``.m44`` (row, col) addressing.

CONTRACT.  A hex is the tuple ``(row, col)`` with doubled-width columns: even rows use
even cols 0, 2, 4, ..., odd rows odd cols 1, 3, ...  Row 0 is the top edge, the baseline
of player 1 (``side_player1``); row ``rows-1`` is player 2's baseline.

Sections are numbered from the *owning player's own* point of view: 0 = his left flank,
1 = centre, 2 = his right flank.  A hex on a dotted line belongs to two sections.
Overlord boards also have six sub-sections 0..5 (Field General half-flanks), again from
the player's own point of view.
"""
from __future__ import annotations

from dataclasses import dataclass

Hex = tuple[int, int]  # (row, col)


@dataclass(frozen=True)
class Board:
    kind: str          # "STANDARD" | "OVERLORD" | "BRKTHRU"
    rows: int          # 9 or 17
    max_col: int       # 24 or 50
    # Derived, precomputed in __post_init__/factory for speed:
    # hexes: tuple[Hex, ...]; neighbour table; section table per side

    def on_board(self, h: Hex) -> bool: ...
    def neighbours(self, h: Hex) -> tuple[Hex, ...]: ...          # on-board neighbours only
    def distance(self, a: Hex, b: Hex) -> int: ...
    def sections(self, h: Hex, top: bool) -> frozenset[int]: ...  # top=True: player 1's view
    def subsections(self, h: Hex, top: bool) -> frozenset[int]: ...  # Overlord 0..5
    def retreat_hexes(self, h: Hex, top: bool) -> tuple[Hex, ...]: ...  # one row toward own baseline
    def baseline_row(self, top: bool) -> int: ...


def make_board(kind: str) -> Board:
    """Board for a ``.m44`` ``board.type`` (case-insensitive)."""
    raise NotImplementedError
