"""The computer players: one-ply search over decisions with expected values, a rollout of
one's own whole order for the decisions that only pay off later, determinization over
hidden information.  Pure and deterministic: same state, seat, level and seed, same
action; the effort is bounded by a count of simulated actions (``budget``), never a clock.

How a decision is taken (:meth:`Player.choose`):

1. the legal actions of the seat, those a player would really take
   (:func:`engine.bot.decisive`: never taking back a decision);
2. a state imagined from the seat's view (:func:`engine.ai.hidden.determinize`);
3. each action is applied to it, the dice that follow are rolled with the player's own
   generator (``samples`` different rolls, more when the budget allows, up to 8, their
   values averaged: an expected value; one look when no dice follow),
   and the result is evaluated for the seat's side (:func:`engine.ai.evaluate.evaluate`);
4. actions whose effect shows only later (playing a command card, choosing the section, a set-up or deployment step: :data:`PLANNING`) are valued by
   playing on, with the level's own greedy choice, while the seat's side keeps deciding
   (the whole order: units ordered, moved, battles fought), then evaluating;
5. the best value wins (ties: the first in the legal order).

The Overlord C-in-C's dispatch is decided by :mod:`engine.ai.team` (what each Field
General's section needs) at every level but ``random``.

Levels (:data:`LEVELS`), each described by what it does:

* ``random``: a uniform choice among the legal actions (tests, the old bot);
* ``easy``: one-ply, one roll of the dice per action, no planning ahead (a card is
  chosen by its first step only), and one decision in four a random legal one;
* inside a rollout at most ``width`` actions (drawn by the player's generator) are
  compared per step;
* ``normal``: one-ply with the expected value of two rolls, cards and dispatches
  valued by playing the order through greedily;
* ``hard``: as normal with three rolls per action, a larger budget for playing orders
  through, and the other side's replies inside an order (retreats, ambushes) chosen by
  the same evaluation instead of taken as listed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..bot import decisive
from ..core.ruleset import Action, Ruleset
from .evaluate import evaluate, forget, side_of
from .hidden import determinize
from .team import DISPATCH_TYPES, dispatch_choice

#: action types valued by playing on (their effect shows only in what follows)
PLANNING = frozenset(
    {
        "play_card",
        "choose_section",
        "choose_card",
        "order",
        "end_orders",
        "initiative",
        "initiative_unit",
        "choose_first",
        "commissar",
    }
)


@dataclass(frozen=True)
class Level:
    """How hard a player thinks: see the module docstring."""

    name: str
    samples: int  # dice rolls averaged per action
    plan: bool  # value PLANNING actions by playing the order through
    budget: int  # simulated actions per decision, at most
    mistakes: float  # chance of a random legal action instead
    replies: bool  # the other side's decisions inside a rollout: evaluated
    width: int = 10  # inside a rollout: actions compared per step, at most


LEVELS: dict[str, Level] = {
    "easy": Level("easy", samples=1, plan=False, budget=200, mistakes=0.25, replies=False),
    "normal": Level("normal", samples=2, plan=True, budget=500, mistakes=0.0, replies=False),
    "hard": Level("hard", samples=3, plan=True, budget=900, mistakes=0.0, replies=True),
}
NAMES = ("random", *LEVELS)


class Player:
    """A computer player of ``level`` for any registered ruleset, seeded by ``seed``."""

    def __init__(self, rs: Ruleset[Any], level: str = "normal", seed: int = 0) -> None:
        if level not in NAMES:
            raise ValueError(f"unknown level {level!r} (one of {list(NAMES)})")
        self.rs = rs
        self.level = LEVELS.get(level)
        self.rng = random.Random(seed)
        self.rolled = False  # a chance step followed the last action simulated

    def choose(self, state: Any, seat: str) -> Action:
        """The action ``seat`` takes in ``state`` (reads only ``seat``'s view)."""
        acts = decisive(state, self.rs.legal_actions(state, seat))
        if not acts:
            raise RuntimeError(f"no legal action for {seat}")
        lv = self.level
        if lv is None or len(acts) == 1 or self.rng.random() < lv.mistakes:
            return self.rng.choice(acts)
        if all(a.get("type") in DISPATCH_TYPES for a in acts):
            return dispatch_choice(state, seat, acts)  # public board + own dispatch
        det = determinize(self.rs, state, seat, self.rng)
        forget()
        side = side_of(seat)
        best, best_v = acts[0], float("-inf")
        per_action = max(8, lv.budget // len(acts))
        for a in acts:
            v = self._value(det, a, side, lv, per_action)
            if v > best_v:
                best, best_v = a, v
        return best

    # -- search -------------------------------------------------------------------------
    def _value(self, st: Any, a: Action, side: str, lv: Level, budget: int) -> float:
        plan = lv.plan and a.get("type") in PLANNING
        samples = 1 if plan else max(lv.samples, min(8, budget // 6))
        total = 0.0
        for i in range(samples):
            self.rolled = False
            s = self._step(st, a)
            if plan:
                s = self._play_on(s, side, lv, budget // samples)
            total += evaluate(self.rs, s, side)
            if not self.rolled:
                return total / (i + 1)  # no dice followed: one look is exact
        return total / samples

    def _step(self, st: Any, a: Action) -> Any:
        """``a`` applied, then the dice that follow rolled from the player's own guesses."""
        s, _ = self.rs.apply(st, a)
        while self.rs.is_chance(s) and not self.rs.is_over(s):
            self.rolled = True
            s.rng = _fresh(s.rng, self.rng)
            s, _ = self.rs.apply(s, self.rs.sample_chance(s))
        return s

    def _play_on(self, st: Any, side: str, lv: Level, budget: int) -> Any:
        """Play on greedily (one roll per action) while ``side`` decides, within
        ``budget`` simulated actions; the other side's decisions inside: its first legal
        action, or (``replies``) its best one by the same evaluation."""
        spent = 0
        while not self.rs.is_over(st) and spent < budget:
            seats = self.rs.to_act(st)
            if not seats:
                break
            seat = seats[0]
            acts = decisive(st, self.rs.legal_actions(st, seat))
            if not acts:
                break
            mine = side_of(seat) == side
            if not mine and _turn_passed(st, side):
                break
            if len(acts) == 1 or (not mine and not lv.replies):
                choice = acts[0]
            elif all(a.get("type") in DISPATCH_TYPES for a in acts):
                choice = dispatch_choice(st, seat, acts)
            else:
                who = side_of(seat)
                if len(acts) > lv.width:
                    acts = self.rng.sample(acts, lv.width)
                if spent + len(acts) > budget:
                    break
                choice = max(acts, key=lambda a: evaluate(self.rs, self._step(st, a), who))
                spent += len(acts)
            st = self._step(st, choice)
            spent += 1
        return st


def _turn_passed(st: Any, side: str) -> bool:
    """The other side has the turn (its own order begins: stop playing on)."""
    active = getattr(st, "active", None)
    return active is not None and active != side


def _fresh(rng: Any, own: random.Random) -> Any:
    """A generator of the state's kind seeded from the player's own (future dice are
    never read from the game's generator)."""
    return type(rng)(own.getrandbits(63))


def choose_action(rs: Ruleset[Any], state: Any, seat: str, level: str, seed: int) -> Action:
    """One decision of a fresh player (the server's bots: one call per action)."""
    return Player(rs, level, seed).choose(state, seat)
