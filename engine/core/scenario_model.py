"""The parsed scenario as immutable data: :class:`Scenario` and its parts (unit set-ups,
objectives, exit zones, minefields, sudden-death conditions).  Built by
:func:`engine.core.scenario.load_scenario`; shared by every game state played on it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import UnknownCode
from .geometry import Board, Hex
from .terrain import OPEN, HexTerrain, Tile
from .units import UnitSpec


SIDES = ("AXIS", "ALLIES")


@dataclass(frozen=True, slots=True)
class UnitSetup:
    hex: Hex
    side: str  # "AXIS" | "ALLIES"
    spec: UnitSpec
    figures: int
    badge: int | None = None
    equipment: str | None = None
    behavior: str | None = None
    inactive_until: int = 0  # vocabulary 2.5 CANNOT_BE_ACTIVATED_TILL_TURN + ``turn``


@dataclass(frozen=True, slots=True)
class Objective:
    """An objective medal from a ``medal*`` tag (m44-vocabulary 3.1/3.2)."""

    id: str
    hexes: tuple[Hex, ...]  # tag hex + its ``group``
    side: str | None  # who may win it; None = either side ("medal0")
    counts_for: int = 1
    nbr_hex: int = 1
    permanent: bool = False
    majority: bool = False
    sole_control: bool = False
    last_to_occupy: bool = False
    turn_start: bool = False
    any_hex: bool = False


@dataclass(frozen=True, slots=True)
class ExitZone:
    side: str
    hexes: tuple[Hex, ...]
    value: int = 1


@dataclass(frozen=True, slots=True)
class Minefield:
    hex: Hex
    side: str | None  # side that laid it (hits the other side); None: hits all
    decoy: bool = False


@dataclass(frozen=True, slots=True)
class SuddenDeath:
    side: str
    number: int
    hexes: tuple[Hex, ...]


@dataclass(frozen=True)
class Scenario:
    name: str
    board: Board
    face: str  # COUNTRY | WINTER | DESERT | BEACH
    tiles: dict[Hex, tuple[Tile, ...]]  # every hex with at least one tile (beach rows included)
    terrain: dict[Hex, HexTerrain]  # combined per hex; hexes absent = open countryside
    units: tuple[UnitSetup, ...]
    objectives: tuple[Objective, ...]
    exits: tuple[ExitZone, ...]
    mines: tuple[Minefield, ...]
    sudden_death: tuple[SuddenDeath, ...]
    player1_side: str  # top of the board (row 0)
    player2_side: str
    starting_side: str
    cards: dict[str, int]  # side -> hand size
    victory: dict[str, int]  # side -> medals needed
    country: dict[str, str]  # side -> "DE","US",...
    date_begin: str | None
    options: dict[str, Any]
    road_links: dict[Hex, frozenset[Hex]] = field(default_factory=dict)
    unknown: tuple[UnknownCode, ...] = ()  # only in lenient mode (treated as open)
    labels: tuple[tuple[Hex, str], ...] = ()
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    # --- additions ---------------------------------------------------------------------
    masses: dict[Hex, int] = field(default_factory=dict)  # hill/mountain mass id per hex
    rail_links: dict[Hex, frozenset[Hex]] = field(default_factory=dict)
    edge_links: dict[Hex, frozenset[Hex]] = field(default_factory=dict)  # wadi / bridge section
    camouflage: tuple[Hex, ...] = ()
    markers: tuple[Hex, ...] = ()

    def top(self, side: str) -> bool:
        """True when ``side`` sits at the top of the board (player 1)."""
        return side == self.player1_side

    def other(self, side: str) -> str:
        return self.player2_side if side == self.player1_side else self.player1_side

    def terrain_at(self, h: Hex) -> HexTerrain:
        """Combined terrain of ``h`` (open countryside when the hex has no tile)."""
        return self.terrain.get(h, OPEN)

    def unit_at(self, h: Hex) -> UnitSetup | None:
        """The unit set up on ``h`` at the start, if any."""
        return next((u for u in self.units if u.hex == h), None)
