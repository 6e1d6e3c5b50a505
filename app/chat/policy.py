"""Chat channel policy: a pure function of (who, channel, game view, the game's ruleset)
-> allowed / why not.  Who may talk to whom inside a side is the ruleset's rule, asked
through ``Ruleset.chat_line(view, side)`` (engine/core/ruleset.py; Overlord: its chain
of command, engine/rulesets/overlord/talk.py; the others: a side talks freely); this
module turns its answer into channels.  Called without a ruleset (a view of unknown
origin), the strictest rules read the view (``STRICT_CHAT``).

Channels: ``all`` (players write, everyone reads), ``side:<SIDE>`` (that side's seats),
``spectators`` (spectators only: never delivered to players), and for team/Overlord play
``pair:<SIDE>:<role>`` between a side's Commander-in-Chief and one Field General.

Overlord, 002 "The Military Chain of Command": the Commander-in-Chief talks with one (and
only one) Field General per turn, the one he visits; he may not talk with the others (no
side channel for him, and no ``all`` either: his Field Generals read it, so "he must limit
his input to the time he is visiting the front" closes it to him until the game is over;
his opponents learn nothing from him either way); the Field Generals of a side may talk
among themselves at any time; nothing crosses sides.  The ruleset says from the writer's
own view which line is open (the Field General he visits this turn once he confirms his
orders; none during the opponent's turn; at game over the chain of command is lifted:
the side's channels open to all its seats; still nothing crosses sides).

Team play (004 "Team Play": the team agrees on the card together): every seat of a side
may write the side channel and its pair channel at any time.

Several role seats held by one person (002 "Teams"; the server's layouts of 4/3/2/1
players per side).  The policy is a function of ALL the seats the person's identity holds
in the game, never of the one seat a connection was pinned to (``?seat=`` or ``auth``
``seat``): he reads what any of his seats reads; when he holds the C-in-C seat, the
C-in-C's rules decide his writes whichever of his seats he speaks from (the hand holder
stays bound by the chain of command), else any seat's permission.  Per layout:

* ``4`` (one role each): the rules above, seat by seat.
* ``3`` (002: "the Commanders-in-Chief sit in the Center and also act as the Center
  Field Generals"; slots ``cinc+centre``, ``left``, ``right``): the ``cinc+centre``
  player is the C-in-C: no side channel, only the pair channel of the Field General he
  visits this turn; he reads the side channel (as the Centre FG, the Field Generals'
  talk reaches him, his input is what 002 limits); ``left`` / ``right``: Field Generals.
* ``2`` and ``1`` (002: "with 2 or even 1 player per side, the players play all roles
  collectively, for their camp"): no separate C-in-C and Field Generals to keep apart, so
  no chain of command inside the side: every channel of the side a seat reads is open
  to it at any time (``Actor.collective``, set by the server from the side's slots: the
  ruleset's ``Ruleset.collective_sides``, Overlord's answer).  Still nothing crosses sides.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..engine_api import STRICT_CHAT, Ruleset

CINC = "cinc"
FG_NAMES = {"left": "Left", "centre": "Centre", "right": "Right"}

# reasons (stable texts: the client shows them on closed channel panes)
R_NOT_SIDE = "not your side"
R_PAIR = "a private channel of two generals"
R_UNKNOWN = "unknown channel"
R_SPECTATORS = "spectator chat is never shown to players"
R_IDENTIFY = "identify yourself (a guest name) to chat"
R_SPECTATOR_ALL = "spectators write in the spectators channel"
R_CINC_SIDE = (
    "the Commander-in-Chief may not talk to all his Field Generals: "
    "only to the one he visits this turn"
)
R_CINC_ALL = (
    "the Commander-in-Chief may not write where his Field Generals read: "
    "only to the one he visits this turn"
)
R_NO_VISIT = (
    "no Field General visited yet this turn: the line opens when the "
    "Commander-in-Chief confirms his orders"
)
R_OPPONENT = "the opponent's turn: the Commander-in-Chief visits the front only on his side's turn"
R_FG_WAIT = "; your line to him opens when he visits you"


def r_visiting(fg: str) -> str:
    return f"the Commander-in-Chief is visiting the {FG_NAMES.get(fg, fg)} Field General this turn"


@dataclass(frozen=True)
class Actor:
    seat: str | None  # None: spectator
    side: str | None
    role: str | None
    identified: bool  # has an identity (name) — anonymous spectators cannot write
    collective: bool = False  # the side plays all roles collectively (layouts 2 / 1)


@dataclass(frozen=True)
class Decision:
    allowed: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.allowed


OK = Decision(True)


def _no(reason: str) -> Decision:
    return Decision(False, reason)


def chain_state(
    view: dict[str, Any] | None, side: str | None, rules: Ruleset | None = None
) -> tuple[str, str | None]:
    """The side's line of talk from a seat's view, as the game's ruleset reads it
    (``Ruleset.chat_line``): ``("free", None)``, ``("visiting", fg)``, ``("no_visit",
    None)`` (own turn, orders not confirmed) or ``("opponent", None)``."""
    return (rules or STRICT_CHAT).chat_line(view, side)


def visiting(view: dict[str, Any] | None, side: str, rules: Ruleset | None = None) -> str | None:
    """The Field General (role) the side's Commander-in-Chief visits this turn, if any."""
    state, fg = chain_state(view, side, rules)
    return fg if state == "visiting" else None


def may_read(actor: Actor, channel: str, view: dict[str, Any] | None = None) -> Decision:
    if channel == "all":
        return OK
    if channel == "spectators":
        return OK if actor.seat is None else _no(R_SPECTATORS)
    if channel.startswith("side:"):
        return OK if actor.seat is not None and actor.side == channel[5:] else _no(R_NOT_SIDE)
    if channel.startswith("pair:"):
        parts = channel.split(":")
        if len(parts) != 3 or parts[2] not in FG_NAMES:
            return _no(R_UNKNOWN)
        _, side, role = parts
        if actor.seat is None or actor.side != side:
            return _no(R_NOT_SIDE)
        return OK if actor.role in (CINC, role) else _no(R_PAIR)
    return _no(R_UNKNOWN)


Line = tuple[str, str | None]  # a side's line of talk (``chain_state``)


def may_write(
    actor: Actor,
    channel: str,
    view: dict[str, Any] | None = None,
    rules: Ruleset | None = None,
    *,
    line: Line | None = None,
) -> Decision:
    """May ``actor`` write on ``channel`` now (``line``: his side's line of talk when
    known, else read from ``view`` by ``rules``)?"""
    read = may_read(actor, channel, view)
    if not read:
        return read
    if not actor.identified:
        return _no(R_IDENTIFY)
    if channel == "spectators":
        return OK
    if channel == "all" and actor.seat is None:
        return _no(R_SPECTATOR_ALL)
    state, fg = line if line is not None else chain_state(view, actor.side, rules)
    if state == "free" or actor.collective:
        return OK
    if channel == "all":  # his Field Generals read it
        return _no(R_CINC_ALL) if actor.role == CINC else OK
    if channel.startswith("side:"):
        return _no(R_CINC_SIDE) if actor.role == CINC else OK
    # pair:<side>:<role>: open only while the C-in-C visits that Field General
    role = channel.split(":")[2]
    if state == "visiting" and fg == role:
        return OK
    why = {"visiting": r_visiting(fg or ""), "no_visit": R_NO_VISIT, "opponent": R_OPPONENT}[state]
    if actor.role != CINC and state == "visiting":
        why += R_FG_WAIT
    return _no(why)


# -- several seats held by one identity --------------------------------------------------------
def may_read_any(actors: list[Actor], channel: str, view: dict[str, Any] | None = None) -> Decision:
    last = _no(R_UNKNOWN)
    for a in actors:
        d = may_read(a, channel, view)
        if d:
            return d
        last = d
    return last


def writer_for(
    actors: list[Actor],
    channel: str,
    view: dict[str, Any] | None = None,
    rules: Ruleset | None = None,
    *,
    lines: dict[str | None, Line] | None = None,
) -> tuple[Actor | None, Decision]:
    """Which held seat writes on ``channel`` (the C-in-C's rules bind whoever holds the
    C-in-C seat); (None, refusal) when none may.  ``lines``: side -> line of talk when
    known (else read from ``view`` by ``rules``)."""
    if not actors:
        return None, _no(R_UNKNOWN)

    def can_write(a: Actor) -> Decision:
        return may_write(a, channel, view, rules, line=lines.get(a.side) if lines else None)

    cinc = [a for a in actors if a.role == CINC]
    if cinc:
        d = can_write(cinc[0])
        if d or may_read(cinc[0], channel, view):
            return (cinc[0] if d else None), d
    first: Decision | None = None
    for a in actors:
        d = can_write(a)
        if d:
            return a, d
        if first is None and may_read(a, channel, view):
            first = d  # the reason of a seat that reads the channel
    return None, first if first is not None else can_write(actors[0])


def candidates(seats: list[tuple[str, str, str]]) -> list[str]:
    """Every channel of a game with these (seat, side, role) seats."""
    sides = sorted({side for _, side, _ in seats})
    out = ["all", *(f"side:{s}" for s in sides), "spectators"]
    out += [
        f"pair:{side}:{role}"
        for _, side, role in seats
        if role in FG_NAMES and any(r == CINC for _, sd, r in seats if sd == side)
    ]
    return out


def closed_reasons(
    actor: Actor,
    readable: list[str],
    writable: list[str],
    view: dict[str, Any] | None = None,
    rules: Ruleset | None = None,
) -> dict[str, str]:
    """Why each readable channel is not writable now (for the client's closed panes)."""
    return {c: may_write(actor, c, view, rules).reason for c in readable if c not in writable}


def channels(
    actor: Actor,
    seats: list[tuple[str, str, str]],
    view: dict[str, Any] | None = None,
    rules: Ruleset | None = None,
) -> dict[str, list[str]]:
    """Channels this actor may read / write, given the game's (seat, side, role) list."""
    cands = candidates(seats)
    return {
        "read": [c for c in cands if may_read(actor, c, view)],
        "write": [c for c in cands if may_write(actor, c, view, rules)],
    }


def channels_for(
    actors: list[Actor],
    seats: list[tuple[str, str, str]],
    view: dict[str, Any] | None = None,
    rules: Ruleset | None = None,
) -> dict[str, Any]:
    """``{"read", "write", "closed"}`` for a connection playing these seats (one actor per
    seat; a spectator: one seatless actor).  ``closed``: readable channel -> reason.

    A pure function of the actors, the seats and their sides' lines of talk
    (:func:`chain_state`): memoised, since the server asks it for every seated audience
    after every action."""
    got = channels_of(actors, seats, view, rules)
    return {"read": list(got["read"]), "write": list(got["write"]), "closed": dict(got["closed"])}


def channels_of(
    actors: list[Actor] | tuple[Actor, ...],
    seats: list[tuple[str, str, str]] | tuple[tuple[str, str, str], ...],
    view: dict[str, Any] | None = None,
    rules: Ruleset | None = None,
) -> dict[str, Any]:
    """:func:`channels_for`'s value as ONE shared object per value (read-only: the hub
    only serialises it, and tells by identity that a connection's channels did not
    change since its last message)."""
    key = _lines(actors, view, rules)
    if type(actors) is tuple and type(seats) is tuple:
        # the hub's kept tuples (a connection's actors, the game's seats): the last
        # answer for these very objects, without hashing the actors (a Python __hash__
        # per actor) for the lru cache at every seated audience of every delivery
        last = _LAST.get(id(actors))
        if last is not None and last[1] is seats and last[2] == key:
            return last[3]
        got = _channels_cached(actors, seats, key)
        if len(_LAST) >= 4096:
            _LAST.clear()
        _LAST[id(actors)] = (actors, seats, key, got)  # keeps them alive: ids stay theirs
        return got
    return _channels_cached(
        actors if isinstance(actors, tuple) else tuple(actors),
        seats if isinstance(seats, tuple) else tuple(map(tuple, seats)),
        key,
    )


_LAST: dict[int, tuple[tuple[Actor, ...], tuple[Any, ...], tuple[Any, ...], dict[str, Any]]] = {}


def _lines(
    actors: Any, view: dict[str, Any] | None, rules: Ruleset | None
) -> tuple[tuple[str | None, Line], ...]:
    """The line of talk of every side the actors sit on (what the channels depend on)."""
    return tuple(
        (side, chain_state(view, side, rules)) for side in sorted({a.side for a in actors}, key=str)
    )


@lru_cache(maxsize=4096)
def _channels_cached(
    actors: tuple[Actor, ...],
    seats: tuple[tuple[str, str, str], ...],
    key: tuple[tuple[str | None, Line], ...],
) -> dict[str, Any]:
    lines = dict(key)
    cands = candidates(list(seats))
    read = [c for c in cands if may_read_any(list(actors), c)]
    write, closed = [], {}
    for c in read:
        _, d = writer_for(list(actors), c, lines=lines)
        if d:
            write.append(c)
        else:
            closed[c] = d.reason
    return {"read": read, "write": write, "closed": closed}
