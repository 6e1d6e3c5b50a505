"""A seeded uniform random bot over ``legal_actions`` (chance nodes use ``sample_chance``),
playing like a player: it decides, then confirms, never taking a decision back
(:func:`decisive`).

Games end because every phase offers its ``end_*`` action and the turn machine skips
phases with nothing to decide; ``play_random_game`` also has a turn cap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .core.ruleset import Ruleset
from .m44_api import new_game
from .rulesets.m44.game import apply, is_chance, legal_actions, sample_chance, to_act
from .core.scenario_model import Scenario
from .procedures.state import GameState


class RandomBot:
    """Uniform choice among the legal actions of a seat.  ``ruleset``: any
    :class:`~engine.core.ruleset.Ruleset` (default: the Memoir '44 turn machine)."""

    def __init__(self, seed: int = 0, ruleset: Ruleset[Any] | None = None) -> None:
        self.rng = random.Random(seed)
        self.legal: Callable[[Any, str], list[dict[str, Any]]] = (
            ruleset.legal_actions if ruleset is not None else legal_actions
        )

    def choose(self, st: Any, seat: str) -> dict[str, Any]:
        acts = self.legal(st, seat)
        if not acts:
            raise RuntimeError(f"no legal action for {seat} in phase {getattr(st, 'phase', '?')}")
        return self.rng.choice(decisive(st, acts))


#: action types that take back an earlier decision (the Overlord C-in-C's tentative
#: dispatch): a bot never plays them
TAKE_BACK = frozenset({"undo_dispatch"})


def decisive(st: Any, acts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal actions a player-like bot picks from: it decides once, then confirms.
    Never an action that takes back one of its decisions (``undo_dispatch``), nor a second
    ``visit`` / ``gung_ho`` choice replacing the one it made this step (each would undo
    the previous); so an Overlord dispatch is at most 3 cards, 1 visit, 1 Gung-Ho choice
    and the confirmation.  The list is ``acts`` itself when nothing is left out (other
    games draw exactly as before)."""
    ext = getattr(st, "ext", None)
    x = ext if getattr(st, "mode", None) == "overlord" and ext else None
    drop = set(TAKE_BACK)
    if x is not None and x.get("visit") is not None:
        drop.add("visit")
    if x is not None and x.get("gung_ho_fg") is not None:
        drop.add("gung_ho")
    if not any(a.get("type") in drop for a in acts):
        return acts
    return [a for a in acts if a.get("type") not in drop] or acts


def next_action(st: GameState, bot: RandomBot) -> dict[str, Any]:
    if is_chance(st):
        return sample_chance(st)
    return bot.choose(st, to_act(st)[0])


def play_random_game(
    scn: Scenario,
    seed: int,
    options: dict[str, Any] | None = None,
    max_turns: int = 200,
    record: bool = False,
) -> tuple[GameState, list[dict[str, Any]]]:
    """Play one game with two random bots; returns (final state, actions if ``record``)."""
    st = new_game(scn, seed, options)
    bot = RandomBot(seed ^ 0x5EED)
    actions: list[dict[str, Any]] = []
    while not st.game_over and st.turn <= max_turns:
        a = next_action(st, bot)
        if record:
            actions.append(a)
        st, _ = apply(st, a)
    return st, actions
