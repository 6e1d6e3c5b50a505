"""Hex board geometry in the ``.m44`` (row, col) addressing.

CONTRACT.  A hex is the tuple ``(row, col)`` with doubled-width columns: even rows use
even cols 0, 2, 4, ..., odd rows odd cols 1, 3, ...  Row 0 is the top edge, the baseline
of player 1 (``side_player1``); row ``rows-1`` is player 2's baseline.

Sections are numbered from the *owning player's own* point of view: 0 = his left flank,
1 = centre, 2 = his right flank.  A hex on a dotted line belongs to two sections.
Overlord boards also have six sub-sections 0..5 (Field General half-flanks), again from
the player's own point of view.

Facts (m44-vocabulary section 4):

* neighbours of ``(r, c)``: ``(r, c±2)``, ``(r±1, c±1)``;
* distance = ``|dr| + max(0, (|dc| - |dr|) / 2)``;
* section ``i`` (bottom player's view) holds the cols in the closed interval
  ``[bounds[i], bounds[i+1]]``; player 1 (top) sees the board mirrored, so his index is
  ``2 - i`` (sections) and ``5 - i`` (Overlord sub-sections; BGA uses ``2 - i`` there,
  which is a bug we do not copy);
* a retreat step moves exactly one row toward the unit's own baseline.

Additions to the original skeleton (all additive, documented here):

* ``Board.hexes`` (all on-board hexes, row-major), ``Board.section_bounds``,
  ``Board.subsection_bounds`` (``()`` except on Overlord);
* ``Board.in_section(h, section, top)``, ``Board.hexes_in_section(section, top)``;
* ``Board.neighbour_in_direction(h, d)`` with :data:`DIRECTIONS` (index 0..5, clockwise
  from east) and :func:`direction_between`;
* ``Board.within(h, n)``: on-board hexes at distance 1..n;
* ``Board.rows_toward_enemy(frm, to, top)``: rows gained toward the enemy (the
  opposite of the retreat direction);
* cube-coordinate helpers :func:`to_cube`, :func:`cube_to_point` for line of sight.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import ScenarioError

Hex = tuple[int, int]  # (row, col)

#: Neighbour offsets (drow, dcol), clockwise starting east: E, SE, SW, W, NW, NE
#: (row grows downward).  Index = direction number used by road links.
DIRECTIONS: tuple[Hex, ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))

_KINDS: dict[str, tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {
    # kind: (rows, max_col, section bounds, sub-section bounds)
    "STANDARD": (9, 24, (0, 7, 17, 24), ()),
    "BRKTHRU": (17, 24, (0, 7, 17, 24), ()),
    # 002: two boards side by side, 26 hexes wide; each keeps its dotted lines (cols 7,
    # 17; the second board's 26 cols later: 33, 43) and the six sections pair up into a
    # double-sized left / centre / right (0-17, 17-33, 33-50); 25 is where the boards
    # meet, the middle of the centre.  Mirror-symmetric: bounds[i] + bounds[6-i] == 50.
    "OVERLORD": (9, 50, (0, 17, 33, 50), (0, 7, 17, 25, 33, 43, 50)),
}


def _intervals(col: int, bounds: tuple[int, ...]) -> frozenset[int]:
    """Indices i with bounds[i] <= col <= bounds[i+1] (bottom player's view)."""
    return frozenset(i for i in range(len(bounds) - 1) if bounds[i] <= col <= bounds[i + 1])


def _mirror(indices: frozenset[int], count: int) -> frozenset[int]:
    return frozenset(count - 1 - i for i in indices)


def distance(a: Hex, b: Hex) -> int:
    """Hex distance in doubled-width coordinates (vocabulary section 4)."""
    dr = abs(a[0] - b[0])
    dc = abs(a[1] - b[1])
    return dr + max(0, (dc - dr) // 2)


def direction_between(a: Hex, b: Hex) -> int | None:
    """Index in :data:`DIRECTIONS` of the step from ``a`` to adjacent ``b`` (None if not adjacent)."""
    step = (b[0] - a[0], b[1] - a[1])
    return DIRECTIONS.index(step) if step in DIRECTIONS else None


def to_cube(h: Hex) -> tuple[float, float, float]:
    """Cube coordinates (x, y, z), x + y + z = 0, of a doubled-width hex centre."""
    row, col = h
    x = (col - row) / 2
    z = float(row)
    return (x, -x - z, z)


def cube_round(x: float, y: float, z: float) -> Hex:
    """The hex containing the cube point (x, y, z) (standard cube rounding)."""
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (int(rz), int(2 * rx + rz))


@dataclass(frozen=True)
class Board:
    """One battlefield; everything derived is precomputed in ``__post_init__``."""

    kind: str  # "STANDARD" | "OVERLORD" | "BRKTHRU"
    rows: int  # 9 or 17
    max_col: int  # 24 or 50
    section_bounds: tuple[int, ...] = (0, 7, 17, 24)
    subsection_bounds: tuple[int, ...] = ()
    hexes: tuple[Hex, ...] = field(init=False, repr=False, compare=False)
    _hexset: frozenset[Hex] = field(init=False, repr=False, compare=False)
    _nbrs: dict[Hex, tuple[Hex, ...]] = field(init=False, repr=False, compare=False)
    _sections: dict[tuple[Hex, bool], frozenset[int]] = field(init=False, repr=False, compare=False)
    _subsections: dict[tuple[Hex, bool], frozenset[int]] = field(
        init=False, repr=False, compare=False
    )
    _retreats: dict[tuple[Hex, bool], tuple[Hex, ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        hexes = tuple((r, c) for r in range(self.rows) for c in range(r % 2, self.max_col + 1, 2))
        hexset = frozenset(hexes)
        put = object.__setattr__
        put(self, "hexes", hexes)
        put(self, "_hexset", hexset)
        put(
            self,
            "_nbrs",
            {
                h: tuple(
                    (h[0] + dr, h[1] + dc)
                    for dr, dc in DIRECTIONS
                    if (h[0] + dr, h[1] + dc) in hexset
                )
                for h in hexes
            },
        )
        sections: dict[tuple[Hex, bool], frozenset[int]] = {}
        subs: dict[tuple[Hex, bool], frozenset[int]] = {}
        retreats: dict[tuple[Hex, bool], tuple[Hex, ...]] = {}
        for h in hexes:
            bottom = _intervals(h[1], self.section_bounds)
            sub = (
                _intervals(h[1], self.subsection_bounds) if self.subsection_bounds else frozenset()
            )
            for top in (True, False):
                sections[h, top] = _mirror(bottom, 3) if top else bottom
                subs[h, top] = _mirror(sub, 6) if top else sub
                dr = -1 if top else 1
                retreats[h, top] = tuple(
                    n for n in ((h[0] + dr, h[1] - 1), (h[0] + dr, h[1] + 1)) if n in hexset
                )
        put(self, "_sections", sections)
        put(self, "_subsections", subs)
        put(self, "_retreats", retreats)

    def on_board(self, h: Hex) -> bool:
        return h in self._hexset

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """On-board neighbours only (empty tuple for an off-board hex)."""
        return self._nbrs.get(h, ())

    def neighbour_in_direction(self, h: Hex, d: int) -> Hex | None:
        """Neighbour of ``h`` in :data:`DIRECTIONS` ``[d]`` or None when off board."""
        dr, dc = DIRECTIONS[d % 6]
        n = (h[0] + dr, h[1] + dc)
        return n if n in self._hexset else None

    def distance(self, a: Hex, b: Hex) -> int:
        return distance(a, b)

    def within(self, h: Hex, n: int) -> tuple[Hex, ...]:
        """On-board hexes at distance 1..n from ``h``."""
        return tuple(x for x in self.hexes if 0 < distance(h, x) <= n)

    def sections(self, h: Hex, top: bool) -> frozenset[int]:
        """Sections (0 left, 1 centre, 2 right) of ``h`` seen by the top/bottom player."""
        return self._sections.get((h, top), frozenset())

    def subsections(self, h: Hex, top: bool) -> frozenset[int]:
        """Overlord sub-sections 0..5 from that player's view; empty on other boards."""
        return self._subsections.get((h, top), frozenset())

    def in_section(self, h: Hex, section: int, top: bool) -> bool:
        return section in self.sections(h, top)

    def hexes_in_section(self, section: int, top: bool) -> tuple[Hex, ...]:
        return tuple(h for h in self.hexes if section in self._sections[h, top])

    def retreat_hexes(self, h: Hex, top: bool) -> tuple[Hex, ...]:
        """On-board hexes one row toward the own baseline (top: row-1, bottom: row+1)."""
        return self._retreats.get((h, top), ())

    def baseline_row(self, top: bool) -> int:
        return 0 if top else self.rows - 1

    @staticmethod
    def rows_toward_enemy(frm: Hex, to: Hex, top: bool) -> int:
        """Rows gained toward the enemy going from ``frm`` to ``to`` (negative: toward
        the own baseline).  The opposite of the retreat direction (a retreat step moves
        one row toward the unit's own baseline, :meth:`retreat_hexes`): the player at
        the top advances by increasing rows, the player at the bottom by decreasing them.
        Used for 004 Army Manoeuvres "advance towards the enemy"."""
        return to[0] - frm[0] if top else frm[0] - to[0]


_BOARDS: dict[str, Board] = {}


def make_board(kind: str) -> Board:
    """Board for a ``.m44`` ``board.type`` (case-insensitive); boards are shared singletons.

    Unknown kinds raise ``ScenarioError(code="unknown_board")``.
    """
    key = str(kind).upper()
    if key not in _KINDS:
        raise ScenarioError("unknown_board", f"unknown board type {kind!r}")
    if key not in _BOARDS:
        rows, max_col, bounds, subs = _KINDS[key]
        _BOARDS[key] = Board(key, rows, max_col, bounds, subs)
    return _BOARDS[key]
