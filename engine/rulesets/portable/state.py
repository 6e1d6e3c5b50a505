"""The game state of the 3x3 Portable Wargame: typed dataclasses, explicit clone, JSON form.

Sides are the seats ``"RED"`` (top of the board, baseline rank 3) and ``"BLUE"``
(bottom, baseline rank 1); which side attacks is decided by the first chance step.
Areas are named like chess squares, files ``a``-``c`` from BLUE's left and ranks 1-3
from BLUE's baseline (``"b2"`` is the centre), plus the two Reserve Areas
``"red_reserve"`` and ``"blue_reserve"``.  Unit ids: ``r1``..``r6`` and ``rG`` (the
General) for RED, ``b1``..``b6`` and ``bG`` for BLUE.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypedDict

from engine.core.errors import EngineError
from engine.core.rng import Rng

from engine.core.grid import Cell, SquareGrid

SIDES = ("RED", "BLUE")
GRID = SquareGrid(3, 3)
FILES = "abc"
RESERVE = {"RED": "red_reserve", "BLUE": "blue_reserve"}
BASELINE_Y = {"RED": 2, "BLUE": 0}
FORWARD = {"RED": -1, "BLUE": 1}  # the y step towards the enemy baseline
EDGES = ("1-2", "2-3")  # river lines: between ranks 1|2 and 2|3
MAX_SP = 2
GENERAL_SP = 2
TYPES = ("foot", "mounted", "artillery")
QUALITIES = ("elite", "average", "poor")
FEATURES = ("hill", "built_up", "wood")


def other(side: str) -> str:
    return "BLUE" if side == "RED" else "RED"


def name_of(cell: Cell) -> str:
    return f"{FILES[cell[0]]}{cell[1] + 1}"


GRID_AREAS = tuple(name_of(c) for c in GRID.cells())
_CELLS = {name_of(c): c for c in GRID.cells()}


def cell_of(area: str) -> Cell | None:
    """The grid cell of a battlefield area name; ``None`` for a Reserve Area."""
    return _CELLS.get(area)


def cell(area: str) -> Cell:
    """The grid cell of a battlefield area (never a Reserve Area)."""
    return _CELLS[area]


def decided(side: str | None) -> str:
    """A side the game has decided by now (the attacker after the set-up throw, the
    active side within a phase); a state without it is malformed."""
    if side is None:
        raise EngineError("malformed_state", "a side the game has not decided yet")
    return side


AREAS = GRID_AREAS + (RESERVE["RED"], RESERVE["BLUE"])


def baseline(side: str) -> tuple[str, ...]:
    return tuple(name_of((x, BASELINE_Y[side])) for x in range(GRID.width))


@dataclass
class Unit:
    id: str
    side: str
    type: str  # foot | mounted | artillery | general
    quality: str  # elite | average | poor ("-" for a General)
    name: str
    sp: int
    area: str | None = None  # None: not deployed yet, or destroyed / killed
    lost: bool = False  # destroyed (a unit) or killed / captured (a General)
    moves: int = 0  # how many times it has changed area (artillery "stationary")
    engaged: tuple[str, ...] = ()  # enemy units it is in Close Combat with
    # per phase (reset when a side's phase begins)
    activated: bool = False
    moved: bool = False
    fired: bool = False
    fought: bool = False
    fight_on: bool = False  # advanced after winning: may fight once more

    @property
    def general(self) -> bool:
        return self.type == "general"

    @property
    def at(self) -> str:
        """The area of a piece on the board (``area`` is None before its deployment and
        after its loss); a rule asks it only of pieces on the board."""
        if self.area is None:
            raise EngineError("malformed_state", f"{self.id} is not on the board")
        return self.area

    def copy(self) -> "Unit":
        u = Unit.__new__(Unit)
        u.__dict__.update(self.__dict__)
        return u


#: the fire or close combat being resolved (``State.combat``): who fights, then the
#: units it hit, one at a time (``hits`` still to resolve, ``current`` being resolved)
Combat = TypedDict(
    "Combat",
    {
        "kind": str,  # fire | close
        "unit": str,  # the firing / attacking unit
        "side": str,
        "target": str,  # fire: the target area; close: the target unit
        "from": str,  # close: the attacker's area
        "to": str,  # close: the target's area
        "direction": str,  # close: front | flank | rear
        "hits": list[str],
        "current": str | None,
    },
    total=False,
)


@dataclass
class State:
    seed: int
    rng: Rng
    options: dict[str, Any]
    units: dict[str, Unit]
    pending: dict[str, Any]
    attacker: str | None = None
    terrain: dict[str, str] = field(default_factory=dict)  # area -> hill|built_up|wood
    river: str | None = None  # "1-2" | "2-3"
    turn: int = 0
    first: str | None = None
    active: str | None = None
    dice: dict[str, int] = field(default_factory=dict)  # this turn's activation scores
    activations: int = 0  # left in the active phase
    fights: tuple[tuple[str, str], ...] = ()  # (from, to) close combats this phase
    # artillery -> (turn, target area, ((unit id, its moves), ...)) of its last fire
    fire_memory: dict[str, tuple[int, str, tuple[tuple[str, int], ...]]] = field(
        default_factory=dict
    )
    combat: Combat | None = None
    last_roll: dict[str, Any] | None = None
    over: bool = False
    winner: str | None = None
    reason: str | None = None

    def clone(self) -> "State":
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.rng = self.rng.copy()
        s.units = {k: u.copy() for k, u in self.units.items()}
        s.pending = dict(self.pending)
        s.terrain = dict(self.terrain)
        s.dice = dict(self.dice)
        s.fire_memory = dict(self.fire_memory)
        s.combat = None if self.combat is None else self.combat.copy()
        return s

    @property
    def defender(self) -> str | None:
        return None if self.attacker is None else other(self.attacker)

    def side_units(self, side: str, generals: bool = False) -> list[Unit]:
        return [
            u
            for u in self.units.values()
            if u.side == side and not u.lost and (generals or not u.general)
        ]

    def in_area(self, area: str, side: str | None = None, generals: bool = False) -> list[Unit]:
        return [
            u
            for u in self.units.values()
            if u.area == area
            and not u.lost
            and (side is None or u.side == side)
            and (generals or not u.general)
        ]

    def resolving(self) -> Combat:
        """The combat being resolved (its rolls and choices come only while there is one)."""
        if self.combat is None:
            raise EngineError("malformed_state", "no combat is being resolved")
        return self.combat

    def general_of(self, side: str) -> Unit | None:
        g = self.units[side[0].lower() + "G"]
        return None if g.lost else g

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["rng"] = [self.rng.seed, self.rng.counter]
        d["units"] = [asdict(u) for u in self.units.values()]
        d["fights"] = [list(p) for p in self.fights]
        d["fire_memory"] = {
            k: [v[0], v[1], [list(p) for p in v[2]]] for k, v in self.fire_memory.items()
        }
        out: dict[str, Any] = _jsonable(d)
        return out

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "State":
        try:
            d = dict(d)
            d["rng"] = Rng(*d["rng"])
            units = {}
            for ud in d["units"]:
                ud = dict(ud)
                ud["engaged"] = tuple(ud.get("engaged", ()))
                units[ud["id"]] = Unit(**ud)
            d["units"] = units
            d["fights"] = tuple(tuple(p) for p in d.get("fights", ()))
            d["fire_memory"] = {
                k: (v[0], v[1], tuple(tuple(p) for p in v[2]))
                for k, v in d.get("fire_memory", {}).items()
            }
            return State(**d)
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineError("malformed_state", f"not a portable state: {exc}") from None


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v
