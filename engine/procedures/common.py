"""Shared helpers of the turn machine: terrain lookup, adjacency, seats, events."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

from ..core.conditions import WEATHER
from ..core.errors import IllegalAction
from ..core.geometry import Hex
from ..core.scenario_model import Scenario
from .state import GameState, Play, Unit
from ..core.terrain import HexTerrain, Tile, combine
from ..core.units import UnitSpec, unit_spec

OPEN = HexTerrain()
SIDES = ("AXIS", "ALLIES")


@lru_cache(maxsize=4096)
def combined(tiles: tuple[Tile, ...]) -> HexTerrain:
    return combine(tiles) if tiles else OPEN


def terrain_at(st: GameState, h: Hex) -> HexTerrain:
    """Current combined terrain of a hex (scenario tiles, or the game's changed tiles)."""
    if st.tiles_over and h in st.tiles_over:
        return combined(st.tiles_over[h])
    return st.scn.terrain.get(h, OPEN)


_CODES: dict[int, tuple[tuple[Tile, ...], tuple[str, ...]]] = {}  # id -> (tiles, codes)


def tile_codes(tiles: tuple[Tile, ...]) -> tuple[str, ...]:
    """The codes of a changed-tiles tuple, memoised per tuple object (the tuples in
    ``GameState.tiles_over`` are replaced, never mutated; the identity check guards
    against a reused ``id``)."""
    hit = _CODES.get(id(tiles))
    if hit is not None and hit[0] is tiles:
        return hit[1]
    codes = tuple([t.spec.code for t in tiles])
    if len(_CODES) > 4096:
        _CODES.clear()
    _CODES[id(tiles)] = (tiles, codes)
    return codes


def tiles_at(st: GameState, h: Hex) -> tuple[Tile, ...]:
    if h in st.tiles_over:
        return st.tiles_over[h]
    return tuple(st.scn.tiles.get(h, ()))


def other(side: str) -> str:
    return "ALLIES" if side == "AXIS" else "AXIS"


def is_top(st: GameState, side: str) -> bool:
    return side == st.scn.player1_side


def army_options(st: GameState) -> dict[str, Any]:
    """The options :func:`engine.core.units.army_rules` reads: the scenario's, plus the game
    option ``blitzkrieg`` (004 "Blitzkrieg Rules (Optional)")."""
    blitz = st.options.get("blitzkrieg")
    return {**st.scn.options, "blitzkrieg": blitz} if blitz else st.scn.options


_NO_SECTION: frozenset[int] = frozenset()


def unit_sections(st: GameState, u: Unit) -> frozenset[int]:
    scn = st.scn
    return scn.board._sections.get((u.hex, u.side == scn.player1_side), _NO_SECTION)


def adjacent_enemies(st: GameState, u: Unit) -> list[Unit]:
    out = []
    for n in st.scn.board.neighbours(u.hex):
        v = st.unit_at(n)
        if v is not None and v.side != u.side:
            out.append(v)
    return out


FULL_DAY = 6


def night_track(st: GameState) -> int:
    """Night visibility track (scenario option ``night_visibility_rules``, vocabulary
    3.3): 1..6, 6 = full day (also when the option is off)."""
    x = st.ext
    return x.get("visibility", FULL_DAY) if x else FULL_DAY


def visibility(st: GameState) -> int:
    """How far a unit may fire (vocabulary 3.3: "targets farther than the current
    visibility (1..6) cannot be fired at"): the night track, or the game option
    ``weather``'s visibility (004 "Night & Severe Weather Conditions"), the lower."""
    w = st.options.get("weather")
    n = night_track(st)
    return min(n, WEATHER[w].visibility) if w else n


def camouflaged(st: GameState) -> tuple[Hex, ...]:
    """Hexes whose unit is camouflaged (tags tag14/tag15, vocabulary 3.1): kept in
    ``GameState.ext["camouflage"]``; the marker goes when the unit moves or battles."""
    x = st.ext
    return x.get("camouflage", ()) if x else ()


def drop_camouflage(st: GameState, h: Hex, events: list[dict[str, Any]]) -> None:
    c = camouflaged(st)
    if h in c:
        st.ext["camouflage"] = tuple(x for x in c if x != h)
        events.append({"type": "camouflage_removed", "hex": [*h]})


def set_ext(st: GameState, key: str, value: object) -> None:
    """Replace one entry of ``GameState.ext`` (never mutated in place), keeping its type
    (the Overlord mode's ``ShallowExt``, else a plain dict)."""
    x = st.ext
    new = type(x)(x) if x else {}
    new[key] = value
    st.ext = new


def can_activate(st: GameState, u: Unit) -> bool:
    """Vocabulary 2.5 ``CANNOT_BE_ACTIVATED_TILL_TURN`` (+ ``turn``): a unit cannot be
    ordered while the game turn (``GameState.turn``, one per side's turn, as BGA's) is
    <= its ``inactive_until``."""
    return st.turn > u.inactive_until


#: ``GameState.ext`` counters of units made during the game (new ids follow the scenario's)
MADE_COUNTERS = ("dropped", "reinforced", "broke_through", "variant_made")


def fresh_unit_id(st: GameState) -> str:
    """The id of the next unit made during the game (airdrop, supply train, armour breakthrough): ``u<n>``
    after the scenario's units and every unit made so far."""
    x = st.ext or {}
    return f"u{len(st.scn.units) + sum(x.get(k, 0) for k in MADE_COUNTERS)}"


#: The keys of a ``.m44`` unit template kept for the units it makes during the game
#: (airdrop, supply train; ``turn``: vocabulary 2.5 ``CANNOT_BE_ACTIVATED_TILL_TURN``)
TEMPLATE_KEYS = ("name", "badge", "nbr_units", "behavior", "equipment", "turn")


def template_spec(st: GameState, tpl: dict[str, Any]) -> UnitSpec:
    """The profile of a unit made from template ``tpl`` (:func:`engine.core.units.unit_spec` of
    its code, badge, figures, behaviour and equipment at the scenario's date); raises
    ``KeyError`` / ``ValueError`` for a template it cannot read."""
    return unit_spec(
        str(tpl["name"]),
        tpl.get("badge"),
        tpl.get("nbr_units"),
        tpl.get("behavior"),
        tpl.get("equipment"),
        st.scn.date_begin,
    )


def pop_ext(st: GameState, key: str) -> None:
    """Remove one entry of ``GameState.ext`` (never mutated in place), keeping its type;
    an emptied ext becomes None."""
    x = st.ext
    if x and key in x:
        st.ext = type(x)((k, v) for k, v in x.items() if k != key) or None


def take_from_hand(st: GameState, action: dict[str, Any]) -> int:
    """The card ``action["card"]`` removed from the active side's hand (error
    ``card_not_in_hand`` when it is not there)."""
    cid = action.get("card")
    hand = st.hands[st.active]
    if not isinstance(cid, int) or cid not in hand:
        raise IllegalAction("card_not_in_hand", "that card is not in your hand")
    hand.remove(cid)
    return cid


def side_units(st: GameState, side: str) -> list[Unit]:
    return [u for u in st.units.values() if u.side == side]


def hexj(h: Hex | None) -> list[int] | None:
    return None if h is None else [h[0], h[1]]


def parse_hex(action: dict[str, Any], field: str = "to") -> Hex:
    v = action.get(field)
    if (
        not isinstance(v, (list, tuple))
        or len(v) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
    ):
        raise IllegalAction("malformed_action", f"field {field!r} must be [row, col]")
    return (v[0], v[1])


def parse_unit(st: GameState, action: dict[str, Any]) -> Unit:
    uid = action.get("unit")
    if not isinstance(uid, str):
        raise IllegalAction("malformed_action", "field 'unit' must be a unit id")
    u = st.units.get(uid)
    if u is None:
        raise IllegalAction("unknown_unit", f"no unit {uid!r} on the board")
    return u


class TurnMachine(Protocol):
    """A turn machine (a module: ``engine.rulesets.m44.turn``, or a seat mode's own, the
    Overlord one)."""

    def to_act(self, st: GameState) -> list[str]: ...

    def legal_actions(self, st: GameState, seat: str | None) -> list[dict[str, Any]]: ...

    def apply_action(
        self, st: GameState, action: dict[str, Any], events: list[dict[str, Any]]
    ) -> None: ...


class ModeMachine(TurnMachine, Protocol):
    """A seat mode's own turn machine, which also sets the game up (its deck, its deal)."""

    def init_game(self, st: GameState) -> None: ...


class StandardMode:
    """Who performs what in a 1v1 game: every decision of a side is taken by its seat.

    The Overlord modes subclass this: the C-in-C seat holds the hand, each card play
    is performed by a Field General seat, retreats are decided by the seat commanding
    the unit's sub-section.  Every "who decides" question of the machine goes here.
    """

    name = "standard"
    # its own turn machine (Overlord), else None: engine.rulesets.m44.turn
    machine: ModeMachine | None = None

    def seats(self, st: GameState) -> list[str]:
        return list(SIDES)

    def hand_seat(self, st: GameState, side: str) -> str:
        """The seat holding (and seeing) ``side``'s command cards."""
        return side

    def play_seat(self, st: GameState, side: str, card: int | None) -> str:
        """The seat that carries out a card play of ``side``."""
        return side

    def unit_seat(self, st: GameState, u: Unit) -> str:
        """The seat deciding for a unit out of turn (retreat path, ambush)."""
        return u.side

    def side_of(self, st: GameState, seat: str) -> str | None:
        return seat if seat in SIDES else None

    def fights_on(self, st: GameState, play: Play, u: Unit) -> bool:
        """May ``play`` (the current card play of ``u``'s side, in its battle phase)
        declare ``u``'s continuing firefight (option ``firefight_continuing``)?  Standard
        and team play: the side's play does."""
        return True

    def view_common(self, st: GameState) -> Any:
        """The seat-independent part of the mode's view additions, computed once for the
        views of several seats (``views_for``) and handed to :meth:`extend_view`."""
        return None

    def extend_view(
        self, st: GameState, seat: str | None, view: dict[str, Any], common: Any = None
    ) -> None:
        """Mode-specific additions to ``view_for`` (Overlord: dispatch, chain of command);
        ``common``: :meth:`view_common` of the same state.  Only sets members of ``view``,
        never reads it: ``view`` is the seat's overlay (``view_parts``)."""


def mode(st: GameState) -> StandardMode:
    """The game's seat mode (its hook table's, set by the ruleset)."""
    return st.hooks.mode


def commissar_sides(scn: Scenario) -> list[str]:
    """The sides under the Russian Commissar rule (scenario option
    ``russian_commissar_rule``: a side name, else the Russian sides, else ALLIES)."""
    v = scn.options.get("russian_commissar_rule")
    if not v:
        return []
    if isinstance(v, str) and v.upper() in SIDES:
        return [v.upper()]
    return [s for s in SIDES if scn.country.get(s) == "RU"] or ["ALLIES"]
