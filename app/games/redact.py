"""Redaction for an identity holding several role seats (Overlord/team layouts of fewer
than four players per side): what it may see is the union of what each of its seats may
see.  The game's ruleset redacts per seat (``events_for``, ``view_for``); nothing here
decides a rule."""

from __future__ import annotations

import json
from typing import Any

from ..engine_api import Ruleset


def events_for_seats(
    rs: Ruleset,
    state: Any,
    events: list[dict[str, Any]],
    seats: list[str],
    watch: str | None = None,
) -> list[dict[str, Any]]:
    """``events_for`` for a set of seats: an event keeps its secret when any seat may see it
    (``seats == []``: a spectator, ``watch`` the spectator seat of the side he watches).
    ``state``: the state after the events or a later one (None when no longer held)."""
    if len(seats) <= 1:
        return list(rs.events_for(state, events, seats[0] if seats else watch))
    per_seat = [rs.events_for(state, events, s) for s in seats]
    if len({len(v) for v in per_seat}) > 1:
        # the seats see different events (seats of both sides under Kriegspiel, e.g. one
        # identity playing hot-seat): no alignment to merge by; the first seat's events
        return list(per_seat[0])
    out: list[dict[str, Any]] = []
    for i, base in enumerate(per_seat[0]):
        best = base
        for versions in per_seat[1:]:
            if "secret" in versions[i] and "secret" not in best:
                best = versions[i]
        out.append(best)
    return out


def legal_for_seats(rs: Ruleset, state: Any, seats: list[str]) -> list[dict[str, Any]]:
    """Every legal action of every seat held (each action names its ``seat``)."""
    out: list[dict[str, Any]] = []
    for s in seats:
        out.extend(rs.legal_actions(state, s))
    return out


def actor_for_seats(
    rs: Ruleset, state: Any, actor: str | None, seats: list[str] | None, seat: str | None = None
) -> str | None:
    """The seat that acted as the holder of ``seats`` (or the single ``seat``, a
    spectator's pseudo-seat) may know it: the ruleset's ``actor_for`` (004 Kriegspiel team
    play: an enemy role seat is only its side)."""
    if actor is None or state is None:
        return actor
    return rs.actor_for(state, actor, seats[0] if seats else seat)


def nothing_seen(
    batches: list[Any], seats: list[str], events: list[dict[str, Any]], view: Any, prev_view: Any
) -> bool:
    """An update that would tell its audience only that entries were logged under fog of
    war (004 Kriegspiel: the view has ``fog``, the events carry it): nobody of the audience acted
    (``batches``' actors, ``seats``: the audience's), none of the events is visible to it
    (the enemy's unseen orders) and its view did not change (``view``, ``prev_view``:
    dicts or ``ViewParts``).  Not sent (the opponent would learn when orders were given);
    the next update carries those entries' seqs."""
    if events or prev_view is None or {b.actor for b in batches} & set(seats):
        return False
    if view.get("fog") is None and not any("fog" in e for b in batches for e in b.events):
        return False  # no fog of war: every audience follows every seq
    # as the client holds them: JSON (a tuple and a list are the same hex)
    whole = [
        json.dumps(v.full() if hasattr(v, "full") else v, sort_keys=True, separators=(",", ":"))
        for v in (view, prev_view)
    ]  # ViewParts
    return whole[0] == whole[1]
