"""Helpers for the Fast Play '44 rule tests: text boards, actions by the seat to act."""

from __future__ import annotations

from engine.core.ruleset import get
from engine.core.textboard import board_from_text

FP = get("fastplay")


SPARES = {(8, 24): "inf", (0, 0): "infger"}


def game(text: str, seed: int = 1, options: dict | None = None, spare: bool = True, **kw):
    """A Fast Play game on a text board (ALLIES, at the bottom, plays first).  ``spare``:
    one idle unit per side in the far corners (8,24) / (0,0), so that a turn passes only
    by ``end_turn`` or when the CP are spent."""
    if spare:
        kw["units"] = {**SPARES, **kw.get("units", {})}
    return FP.new_game(seed, options, board_from_text(text, **kw), "1v1")


def marker(st, h):
    """Order the unit on ``h`` and give it an OpFire marker."""
    return do(order(st, h), "opfire_marker", unit=uid(st, h))


def seat(st) -> str:
    return FP.to_act(st)[0]


def act(st, type_: str, **fields):
    """(state, events) after the action of the seat to act."""
    return FP.apply(st, {"type": type_, "seat": seat(st), **fields})


def do(st, type_: str, **fields):
    return act(st, type_, **fields)[0]


def roll(st, *faces):
    return FP.apply(st, {"type": "roll", "seat": "chance", "dice": list(faces)})


def legal(st, type_: str | None = None) -> list[dict]:
    return [a for a in FP.legal_actions(st, seat(st)) if type_ is None or a["type"] == type_]


def types(st) -> set[str]:
    return {a["type"] for a in legal(st)}


def uid(st, h) -> str:
    return st.occ[tuple(h)]


def unit(st, h):
    return st.units[st.occ[tuple(h)]]


def supp(st, h) -> int:
    return st.ext["supp"].get(uid(st, h), 0)


def ev(events, type_: str) -> list[dict]:
    return [e for e in events if e["type"] == type_]


def order(st, h):
    """Ordering is implicit (the unit's first action orders it, 3.1-3.3): no-op kept so
    that the tests read as the rules do."""
    return st


def battle(st, h, target, assault=False):
    return do(st, "battle", unit=uid(st, h), target=list(target), assault=assault)


def move(st, h, to):
    return act(st, "move", unit=uid(st, h), to=list(to))


def unit_types(st, h) -> set[str]:
    """The types of the legal actions of the unit on ``h``."""
    u = uid(st, h)
    return {a["type"] for a in legal(st) if a.get("unit") == u}
