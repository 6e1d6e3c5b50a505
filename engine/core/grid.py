"""A generic rectangular grid of square areas (core: no rule knowledge; the board of the
3x3 Portable Wargame, engine/rulesets/portable).

Cells are ``(x, y)``: ``x`` the column from the left, ``y`` the row from the bottom.
Adjacency is orthogonal (sharing an edge) or diagonal (sharing a corner only); distance
is Manhattan (orthogonal steps) or Chebyshev (king steps); :meth:`SquareGrid.between`
gives the cells a straight centre-to-centre line crosses, drawn twice with a tiny
sideways offset so that a line through a corner counts either neighbour (line of sight
is clear when EITHER drawing is clear, as with the hex engine's double line).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from math import floor

Cell = tuple[int, int]

ORTHOGONAL: tuple[Cell, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: tuple[Cell, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
_EPS = 1e-6
_SAMPLES = 97
_BETWEEN: dict[tuple[Any, Cell, Cell], tuple[tuple[Cell, ...], tuple[Cell, ...]]] = {}
# memo above: a pure function of (grid, a, b)


@dataclass(frozen=True)
class SquareGrid:
    width: int
    height: int

    def cells(self) -> list[Cell]:
        """Every cell, row by row from the bottom, left to right."""
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def inside(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height

    def neighbours(self, cell: Cell, diagonal: bool = False) -> list[Cell]:
        steps = ORTHOGONAL + DIAGONAL if diagonal else ORTHOGONAL
        x, y = cell
        return [(x + dx, y + dy) for dx, dy in steps if self.inside((x + dx, y + dy))]

    @staticmethod
    def orthogonal(a: Cell, b: Cell) -> bool:
        return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1

    @staticmethod
    def diagonal(a: Cell, b: Cell) -> bool:
        return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1

    @staticmethod
    def distance(a: Cell, b: Cell, metric: str = "manhattan") -> int:
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        return dx + dy if metric == "manhattan" else max(dx, dy)

    def between(self, a: Cell, b: Cell) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
        """Cells strictly between ``a`` and ``b`` on the centre line, offset +eps and -eps."""
        key = (self, a, b)
        if key not in _BETWEEN:
            _BETWEEN[key] = self._between(a, b)
        return _BETWEEN[key]

    def _between(self, a: Cell, b: Cell) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
        (ax, ay), (bx, by) = a, b
        dx, dy = bx - ax, by - ay
        norm = (dx * dx + dy * dy) ** 0.5 or 1.0
        px, py = -dy / norm * _EPS, dx / norm * _EPS
        out = []
        for sign in (1, -1):
            seen: list[Cell] = []
            for i in range(1, _SAMPLES):
                t = i / _SAMPLES
                c = (floor(ax + dx * t + sign * px + 0.5), floor(ay + dy * t + sign * py + 0.5))
                if c not in (a, b) and c not in seen and self.inside(c):
                    seen.append(c)
            out.append(tuple(seen))
        return out[0], out[1]
