"""Log entries that are not moves of the game: how a game ends outside the rules (a side
resigns, runs out of time or forfeits by absence) and which moves may be taken back.

These are pure functions of engine states, like :func:`engine.apply`; the server logs
``resign`` / ``timeout`` / ``forfeit`` / ``undo`` entries and every replay folds the log
with :func:`fold`, so a replay ends exactly where the live game did.

* ``{"type": "resign" | "timeout" | "forfeit", "seat": S}``: the side of seat ``S``
  loses; the other side wins (event ``game_over`` with ``reason`` = the type and
  ``loser`` = that side), through the ruleset's ``conclude(state, side, reason)``
  (engine/core/ruleset.py: every ruleset defines it).
* ``{"type": "undo", "seat": S, "undoes": N}``: log entry ``N`` (an action of ``S``) is
  taken back; the state is the one before ``N``.  Only the last undoable entry can be
  undone (several undos walk back one step each).  Only for rulesets that support it
  (``supports_undo``; which steps: the ruleset's ``undoable``); elsewhere an undo is
  refused with ``undo_not_supported``.

A :class:`Fold` knows its ruleset (``Fold(state, seq, ruleset)``; without one, the
ruleset of a bound ``rs.apply`` passed to :meth:`Fold.apply`), so live play and every
replay treat these entries the same way for every ruleset.  The functions of this module
called without a ruleset are those of :data:`LEGACY`: the states of the engine's
module-level functions (``engine.new_game`` / ``engine.apply``: the Memoir '44 turn
machine), named, never guessed from a state.
"""

from __future__ import annotations

import inspect

from collections.abc import Callable, Iterable
from typing import Any

from .core.errors import IllegalAction
from .core.ruleset import Ruleset
from .m44_api import new_game
from .rulesets.m44.game import apply
from .rulesets.m44.ruleset import M44
from .rulesets.m44.undo import REVEALING

__all__ = [
    "ENDINGS",
    "META_TYPES",
    "SIDES",
    "LEGACY",
    "REVEALING",
    "side_of",
    "is_meta",
    "supports_undo",
    "conclude",
    "undoable",
    "Fold",
    "rolls_following",
    "fold",
    "replay",
]

# the ruleset of the engine's module-level functions (engine.new_game, engine.apply)
LEGACY: Ruleset[Any] = M44
Apply = Callable[[Any, dict[str, Any]], tuple[Any, list[dict[str, Any]]]]

ENDINGS = ("resign", "timeout", "forfeit")
META_TYPES = (*ENDINGS, "undo")
SIDES = ("AXIS", "ALLIES")


def side_of(seat: str) -> str:
    return seat.partition(":")[0]


def is_meta(action: dict[str, Any]) -> bool:
    return isinstance(action, dict) and action.get("type") in META_TYPES


def supports_undo(ruleset: Ruleset[Any] | None) -> bool:
    """May entries of ``ruleset`` (None: :data:`LEGACY`) be undone?"""
    return (ruleset or LEGACY).supports_undo


def conclude(
    st: Any, seat: str, reason: str, ruleset: Ruleset[Any] | None = None
) -> tuple[Any, list[dict[str, Any]]]:
    """The side of ``seat`` loses by ``reason`` (resign / timeout / forfeit): the
    ruleset's ``conclude(state, side, reason)`` (None: :data:`LEGACY`'s)."""
    rs = ruleset or LEGACY
    if reason not in ENDINGS:
        raise IllegalAction("illegal_action", f"unknown ending {reason!r}")
    if rs.is_over(st):
        raise IllegalAction("game_over", "the game is over")
    new, events = rs.conclude(st, side_of(seat), reason)
    return new, [{**e, "seat": seat} if e.get("type") == "game_over" else e for e in events]


def undoable(
    before: Any,
    action: dict[str, Any],
    events: list[dict[str, Any]],
    after: Any,
    rolls: int = 0,
    ruleset: Ruleset[Any] | None = None,
) -> bool:
    """May ``action`` (applied to ``before``, giving ``events`` and ``after``; ``rolls``
    chance entries followed it) be taken back by its seat?  The ruleset's ``undoable``
    (None: :data:`LEGACY`'s); never for a ruleset without ``supports_undo``."""
    rs = ruleset or LEGACY
    return rs.supports_undo and rs.undoable(before, action, events, after, rolls)


class Fold:
    """A game's state folded over its log, with the stack of undoable entries of the
    current step (what ``undo`` may take back)."""

    def __init__(self, state: Any, seq: int = 0, ruleset: Ruleset[Any] | None = None) -> None:
        self.state = state
        self.seq = seq
        self.ruleset = ruleset
        # (seq of the undoable entry, its seat, the state before it)
        self.stack: list[tuple[int, str, Any]] = []

    @property
    def undo_supported(self) -> bool:
        return supports_undo(self.ruleset)

    def _ruleset_of(self, apply: Apply) -> Ruleset[Any]:
        """The fold's ruleset: the one given, else the one whose bound ``apply`` is
        used, else :data:`LEGACY` (the module-level functions)."""
        if self.ruleset is None:
            owner = apply.__self__ if inspect.ismethod(apply) else None
            if isinstance(owner, Ruleset):
                self.ruleset = owner
        return self.ruleset or LEGACY

    def undo_target(self, seat: str) -> int | None:
        """The seq an ``undo`` by ``seat`` would take back now (None: nothing)."""
        if (
            self.stack
            and self.stack[-1][1] == seat
            and not (self.ruleset or LEGACY).is_over(self.state)
        ):
            return self.stack[-1][0]
        return None

    def apply(
        self, seq: int, seat: str, action: dict[str, Any], apply: Apply, rolls_after: int = 0
    ) -> list[dict[str, Any]]:
        """Apply log entry ``seq``; ``rolls_after``: how many chance entries follow it
        in the same batch (known to the writer; a replay passes the log's own count)."""
        t = action.get("type") if isinstance(action, dict) else None
        rs = self._ruleset_of(apply)
        if t == "undo" and not supports_undo(rs):
            raise IllegalAction(
                "undo_not_supported", "this game's rules cannot tell which moves may be taken back"
            )
        if t == "undo":
            target = self.undo_target(str(action.get("seat") or seat))
            if target is None or target != action.get("undoes"):
                raise IllegalAction("nothing_to_undo", "this step cannot be taken back")
            _, _, prior = self.stack.pop()
            self.state, self.seq = prior, seq
            return [{"type": "undone", "seat": action.get("seat") or seat, "undoes": target}]
        if t in ENDINGS:
            self.state, events = conclude(self.state, str(action.get("seat") or seat), str(t), rs)
            self.stack.clear()
            self.seq = seq
            return events
        before = self.state
        after, events = apply(before, action)
        self.record(seq, seat, action, before, events, after, rolls_after)
        return events

    def record(
        self,
        seq: int,
        seat: str,
        action: dict[str, Any],
        before: Any,
        events: list[dict[str, Any]],
        after: Any,
        rolls_after: int = 0,
    ) -> None:
        """Entry ``seq`` was applied (by the caller) to ``before`` giving ``after``."""
        self.state, self.seq = after, seq
        if seat == "chance":
            self.stack.clear()
        elif undoable(before, action, events, after, rolls_after, self.ruleset):
            self.stack.append((seq, seat, before))
        else:
            self.stack.clear()


def rolls_following(log: list[tuple[int, str, dict[str, Any]]]) -> list[int]:
    """For each log entry, how many chance entries directly follow it."""
    out = [0] * len(log)
    n = 0
    for i in range(len(log) - 1, -1, -1):
        out[i] = n
        n = n + 1 if log[i][1] == "chance" else 0
    return out


def fold(
    state: Any,
    log: Iterable[tuple[int, str, dict[str, Any]]],
    apply: Apply,
    on_events: Callable[[int, str, list[dict[str, Any]]], None] | None = None,
    start_seq: int = 0,
    ruleset: Ruleset[Any] | None = None,
) -> Fold:
    """A :class:`Fold` of ``state`` over the log entries ``(seq, seat, action)``;
    ``on_events(seq, seat, events)`` hears each entry's events."""
    entries = list(log)
    f = Fold(state, start_seq, ruleset)
    for (seq, seat, action), rolls in zip(entries, rolls_following(entries)):
        events = f.apply(seq, seat, action, apply, rolls)
        if on_events is not None:
            on_events(seq, seat, events)
    return f


def replay(
    scenario: Any,
    seed: int,
    log: list[tuple[int, str, dict[str, Any]]],
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> Any:
    """The final state of a logged game (``GET /api/games/{id}/log``: its ``actions`` as
    ``(seq, seat, action)``), honouring ``undo`` and the endings."""
    return fold(new_game(scenario, seed, options, mode), log, apply).state
