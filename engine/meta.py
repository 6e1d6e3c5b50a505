"""Log entries that are not moves of the game: how a game ends outside the rules (a side
resigns, runs out of time or forfeits by absence) and which moves may be taken back.

These are pure functions of engine states, like :func:`engine.apply`; the server logs
``resign`` / ``timeout`` / ``forfeit`` / ``undo`` entries and every replay folds the log
with :func:`fold`, so a replay ends exactly where the live game did.

* ``{"type": "resign" | "timeout" | "forfeit", "seat": S}``: the side of seat ``S``
  loses; the other side wins (event ``game_over`` with ``reason`` = the type and
  ``loser`` = that side).  Every ruleset: through its optional
  ``conclude(state, side, reason)`` (engine/core/ruleset.py), else the Memoir '44 ending
  (:mod:`engine.procedures.ending`: m44 / overlord states).
* ``{"type": "undo", "seat": S, "undoes": N}``: log entry ``N`` (an action of ``S``) is
  taken back; the state is the one before ``N``.  Only the last undoable entry can be
  undone (several undos walk back one step each).  Only for rulesets whose states
  :func:`undoable` understands (``supports_undo``: m44 / overlord); elsewhere an undo is
  refused with ``undo_not_supported``.

A :class:`Fold` knows its ruleset (``Fold(state, seq, ruleset)``; without one, the
ruleset of a bound ``rs.apply`` passed to :meth:`Fold.apply`, else Memoir '44), so live
play and every replay treat these entries the same way for every ruleset.

An action is **undoable** (:func:`undoable`) iff it threw no dice, drew no card,
revealed nothing the acting seat could not see before, did not end the game and the same
seat is the only one to act next: taking it back then gives the player nothing he did
not know when he chose it, and nobody else has acted on it.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from .core.errors import IllegalAction
from .core.ruleset import Ruleset
from .procedures import ending
from .rulesets.m44.game import apply, new_game, to_act

ENDINGS = ("resign", "timeout", "forfeit")
META_TYPES = (*ENDINGS, "undo")
SIDES = ("AXIS", "ALLIES")


def side_of(seat: str) -> str:
    return seat.partition(":")[0]


def is_meta(action: dict[str, Any]) -> bool:
    return isinstance(action, dict) and action.get("type") in META_TYPES


def supports_undo(ruleset: Any) -> bool:
    """May entries of ``ruleset`` be undone (its optional ``supports_undo`` flag; no
    ruleset: the Memoir '44 functions of this module)?"""
    return ruleset is None or bool(getattr(ruleset, "supports_undo", False))


def conclude(st: Any, seat: str, reason: str,
             ruleset: Any = None) -> tuple[Any, list[dict[str, Any]]]:
    """The side of ``seat`` loses by ``reason`` (resign / timeout / forfeit): the
    ruleset's ``conclude(state, side, reason)``, else the Memoir '44 ending."""
    if reason not in ENDINGS:
        raise IllegalAction("illegal_action", f"unknown ending {reason!r}")
    over = ruleset.is_over(st) if ruleset is not None else getattr(st, "game_over", False)
    if over:
        raise IllegalAction("game_over", "the game is over")
    loser = side_of(seat)
    own = getattr(ruleset, "conclude", None)
    new, events = (own if own is not None else ending.conclude)(st, loser, reason)
    return new, [{**e, "seat": seat} if e.get("type") == "game_over" else e for e in events]


# --------------------------------------------------------------------------- undo
# events after which the acting seat knows something it did not know before
REVEALING = frozenset({"cards_drawn", "card_drawn", "draw", "card_kept", "mine_revealed",
                       "deck_reshuffled", "cards_received", "card_taken", "card_exchanged",
                       "camouflage_removed", "dice_rolled", "roll", "initiative_rolled",
                       "game_over", "last_turn", "unit_dropped", "drop_lost",
                       "supply_train_arrived", "visibility_changed",
                       # 004 Kriegspiel: enemy units came onto (or left) a side's board
                       "detection_changed"})


def undoable(before: Any, action: dict[str, Any], events: list[dict[str, Any]], after: Any,
             rolls: int = 0) -> bool:
    """May ``action`` (applied to ``before``, giving ``events`` and ``after``; ``rolls``
    chance entries followed it) be taken back by its seat?"""
    seat = action.get("seat")
    if not isinstance(seat, str) or rolls or getattr(after, "game_over", False):
        return False
    if action.get("type") in META_TYPES or action.get("type") == "roll":
        return False
    if any(e.get("type") in REVEALING or e.get("secret") is not None for e in events):
        return False
    if len(getattr(after, "deck", ())) != len(getattr(before, "deck", ())):
        return False
    if getattr(after, "turn", None) != getattr(before, "turn", None):
        return False
    try:                               # Memoir '44 states (m44 / overlord rulesets) only
        return list(to_act(after)) == [seat] and list(to_act(before)) == [seat]
    except Exception:
        return False


class Fold:
    """A game's state folded over its log, with the stack of undoable entries of the
    current step (what ``undo`` may take back)."""

    def __init__(self, state: Any, seq: int = 0, ruleset: Any = None) -> None:
        self.state = state
        self.seq = seq
        self.ruleset = ruleset
        # (seq of the undoable entry, its seat, the state before it)
        self.stack: list[tuple[int, str, Any]] = []

    @property
    def undo_supported(self) -> bool:
        return supports_undo(self.ruleset)

    def _ruleset_of(self, apply: Any) -> Any:
        if self.ruleset is None and isinstance(getattr(apply, "__self__", None), Ruleset):
            self.ruleset = apply.__self__
        return self.ruleset

    def undo_target(self, seat: str) -> int | None:
        """The seq an ``undo`` by ``seat`` would take back now (None: nothing)."""
        if self.stack and self.stack[-1][1] == seat and not getattr(self.state, "game_over", False):
            return self.stack[-1][0]
        return None

    def apply(self, seq: int, seat: str, action: dict[str, Any],
              apply: Callable[[Any, dict[str, Any]], tuple[Any, list[dict[str, Any]]]],
              rolls_after: int = 0) -> list[dict[str, Any]]:
        """Apply log entry ``seq``; ``rolls_after``: how many chance entries follow it
        in the same batch (known to the writer; a replay passes the log's own count)."""
        t = action.get("type") if isinstance(action, dict) else None
        rs = self._ruleset_of(apply)
        if t == "undo" and not supports_undo(rs):
            raise IllegalAction("undo_not_supported",
                                "this game's rules cannot tell which moves may be taken back")
        if t == "undo":
            target = self.undo_target(action.get("seat") or seat)
            if target is None or target != action.get("undoes"):
                raise IllegalAction("nothing_to_undo", "this step cannot be taken back")
            _, _, prior = self.stack.pop()
            self.state, self.seq = prior, seq
            return [{"type": "undone", "seat": action.get("seat") or seat, "undoes": target}]
        if t in ENDINGS:
            self.state, events = conclude(self.state, action.get("seat") or seat, str(t), rs)
            self.stack.clear()
            self.seq = seq
            return events
        before = self.state
        after, events = apply(before, action)
        self.record(seq, seat, action, before, events, after, rolls_after)
        return events

    def record(self, seq: int, seat: str, action: dict[str, Any], before: Any,
               events: list[dict[str, Any]], after: Any, rolls_after: int = 0) -> None:
        """Entry ``seq`` was applied (by the caller) to ``before`` giving ``after``."""
        self.state, self.seq = after, seq
        if seat == "chance":
            self.stack.clear()
        elif supports_undo(self.ruleset) and undoable(before, action, events, after,
                                                      rolls_after):
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


def fold(state: Any, log: Iterable[tuple[int, str, dict[str, Any]]],
         apply: Callable[[Any, dict[str, Any]], tuple[Any, list[dict[str, Any]]]],
         on_events: Callable[[int, str, list[dict[str, Any]]], None] | None = None,
         start_seq: int = 0, ruleset: Any = None) -> Fold:
    entries = list(log)
    f = Fold(state, start_seq, ruleset)
    for (seq, seat, action), rolls in zip(entries, rolls_following(entries)):
        events = f.apply(seq, seat, action, apply, rolls)
        if on_events is not None:
            on_events(seq, seat, events)
    return f


def replay(scenario: Any, seed: int, log: list[tuple[int, str, dict[str, Any]]],
           options: dict[str, Any] | None = None, mode: str | None = None) -> Any:
    """The final state of a logged game (``GET /api/games/{id}/log``: its ``actions`` as
    ``(seq, seat, action)``), honouring ``undo`` and the endings."""
    return fold(new_game(scenario, seed, options, mode), log, apply).state
