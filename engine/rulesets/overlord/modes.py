"""Overlord's seat modes (:data:`SEAT_MODES`, given by the ``overlord`` ruleset): ``"team"`` (004
Team Play on a standard board: the m44 turn machine with role seats) and ``"overlord"``
(rules 002: the Overlord turn machine, :mod:`engine.rulesets.overlord.machine`), and the
Overlord part of the view."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..m44.cards import CARDS, card_view
from ...procedures.common import SIDES, StandardMode, is_top
from ...procedures.state import GameState, Play, Unit
from . import machine
from .cards import FGS
from .chain import FIREFIGHT_PLAY, ROLES, _side_x, _waiting, seat, split, zone
from .records import ox


# ============================================================================ modes
class TeamMode(StandardMode):
    """004 Team Play on a standard board (standard turn machine, role seats)."""

    name = "team"

    def seats(self, st: GameState) -> list[str]:
        return [seat(s, r) for s in SIDES for r in ROLES]

    def hand_seat(self, st: GameState, side: str) -> str:
        return seat(side, "cinc")

    def play_seat(self, st: GameState, side: str, card: int | None) -> str:
        c = CARDS.get(card) if card is not None else None
        if c is not None and c.kind == "section" and len(c.sections) == 1:
            return seat(side, FGS[c.sections[0]])
        return seat(side, "cinc")

    def unit_seat(self, st: GameState, u: Unit) -> str:
        secs = st.scn.board.sections(u.hex, is_top(st, u.side))
        return seat(u.side, FGS[min(secs)] if secs else "cinc")

    def side_of(self, st: GameState, s: str) -> str | None:
        return split(s)[0]


class OverlordMode(TeamMode):
    """002 Overlord: C-in-C dispatches, Field Generals play in their sub-sections."""

    name = "overlord"
    machine = machine  # the Overlord turn machine (its module)

    def play_seat(self, st: GameState, side: str, card: int | None) -> str:
        return seat(side, "cinc")

    def unit_seat(self, st: GameState, u: Unit) -> str:
        subs = st.scn.board.subsections(u.hex, is_top(st, u.side))
        return seat(u.side, FGS[min(subs) // 2] if subs else "cinc")

    def fights_on(self, st: GameState, play: Play, u: Unit) -> bool:
        """A continuing firefight is fought without an order: the Field General commanding
        the unit's sub-section declares it, through his card-less firefight play of the
        battle wave (:func:`_firefight_plays`), never through a card play."""
        return play.key == FIREFIGHT_PLAY and self.unit_seat(st, u) == play.seat

    def view_common(self, st: GameState) -> Any:
        return _view_common(st)

    def extend_view(
        self, st: GameState, s: str | None, view: dict[str, Any], common: Any = None
    ) -> None:
        _extend_view(st, s, view, _view_common(st) if common is None else common)


# ============================================================================ view
# The public Overlord part and each side's chain of command are interned: while the mode
# data they are made of are the same objects (``ShallowExt``: a value is replaced on
# change, never mutated in place), a view gets the very dict of the previous one, so the
# server's view diff skips it by identity and the chain of command's history (it grows
# with the game) is not rebuilt at every action.  A seat's own part is rebuilt: its
# sources change at most steps (measured: interning it cost more than it saved).  Views
# are never mutated once returned.
_VIEW_PARTS: dict[tuple[Any, ...], tuple[tuple[Any, ...], dict[str, Any]]] = {}
_VIEW_PARTS_MAX = 5_000


def _interned(
    tag: str,
    sources: tuple[Any, ...],
    scalars: tuple[Any, ...],
    make: Callable[[], dict[str, Any]],
) -> dict[str, Any]:
    """``make()``, or the dict it gave for the same ``sources`` (by identity: the memo
    keeps them alive, so their ids name them) and equal ``scalars``."""
    key = (tag, *map(id, sources), *scalars)
    hit = _VIEW_PARTS.get(key)
    if hit is not None:  # its sources are alive in the memo: the ids are theirs
        return hit[1]
    out = make()
    if len(_VIEW_PARTS) >= _VIEW_PARTS_MAX:  # bounded: start again
        _VIEW_PARTS.clear()
    _VIEW_PARTS[key] = (sources, out)
    return out


def _view_common(
    st: GameState,
) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]] | None:
    """What every seat's Overlord view shares: the decisions waited for, the public
    counters (dispatched card counts, initiative, sub-sections), and a place for what the
    seats of one side share (their chain of command, filled by the first of them)."""
    x = ox(st)
    if x is None:
        return None
    waits = [dict(p) for p in _waiting(st)]  # copied once, shared by the views
    ol = _interned(
        "public",
        (
            x["hand_size"],
            x["received"],
            x["initiative"],
            x["chip"],
            x["commissar_sides"],
            x["gung_ho_sides"],
        ),
        (x["step"],),
        lambda: {
            "step": x["step"],
            "hand_size": dict(x["hand_size"]),
            "received": {fg: len(x["received"][fg]) for fg in FGS},
            "initiative": dict(x["initiative"]),
            "commissar": {sd: len(v) for sd, v in x["chip"].items()},
            "commissar_sides": list(x["commissar_sides"]),
            "gung_ho_sides": list(x["gung_ho_sides"]),
            "fg_subsections": _FG_SUBSECTIONS,
        },
    )
    return waits, ol, {}


def _chain_of_command(st: GameState, vside: str) -> dict[str, Any]:
    """The side's chain of command (public to its seats): the C-in-C's visits."""
    x = ox(st)
    visits = [v for v in x["visits"] if v[1] == vside]
    last = visits[-1] if visits else None
    return {
        "side": vside,
        "turn": last[0] if last else None,
        "visited": last[2] if last and last[0] == st.turn else None,
        "history": [[v[0], v[2]] for v in visits],
    }


def _seat_part(
    st: GameState, vside: str, role: str, public: dict[str, Any], coc: dict[str, Any]
) -> dict[str, Any]:
    x = ox(st)
    ol = dict(public)
    ol["chain_of_command"] = coc
    if vside == st.active:
        ol["gung_ho_fg"] = x["gung_ho_fg"]
    if role == "cinc":
        if vside == _side_x(st):
            ol["dispatch"] = {r: [card_view(c) for c in x["dispatch"][r]] for r in ROLES}
            ol["visit"] = x["visit"]
            ol["taken"] = [card_view(c) for c in x["taken"]]
        if vside in x["chip"]:
            ol["commissar_cards"] = [card_view(c) for c in x["chip"][vside]]
    elif role in FGS and vside == st.active:
        ol["my_cards"] = [card_view(c) for c in x["received"][role]]
    if vside == st.active and role in FGS:
        ol["halves_used"] = list(x["halves"][role])
    return ol


def _extend_view(
    st: GameState,
    s: str | None,
    view: dict[str, Any],
    common: tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]] | None,
) -> None:
    x = ox(st)
    if x is None or common is None:
        return
    waits, public, per_side = common
    mine = [p for p in waits if p["seat"] == s]
    if mine:  # shared by the views (never mutated once returned)
        view["pending"] = mine[0]
    view["pendings"] = waits
    vside, role = split(s)
    if vside is None or role is None:  # (both, or neither)
        view["overlord"] = public
        return
    coc = per_side.get(vside)  # the side's chain of command: once per side
    if coc is None:
        coc = per_side[vside] = _interned(
            "coc", (x["visits"],), (vside, st.turn), lambda: _chain_of_command(st, vside)
        )
    view["overlord"] = _seat_part(st, vside, role, public, coc)


_FG_SUBSECTIONS = {fg: sorted(zone(fg)) for fg in FGS}


#: the seat modes of the ``overlord`` ruleset's games (engine mode name -> mode)
SEAT_MODES: dict[str, StandardMode] = {"team": TeamMode(), "overlord": OverlordMode()}
