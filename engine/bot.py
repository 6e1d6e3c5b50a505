"""A seeded uniform random bot over ``legal_actions`` (chance nodes use ``sample_chance``).

Games end because every phase offers its ``end_*`` action and the turn machine skips
phases with nothing to decide; ``play_random_game`` also has a turn cap.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .core.ruleset import Ruleset
from .rules import apply, is_chance, legal_actions, new_game, sample_chance, to_act
from .scenario import Scenario
from .state import GameState


class RandomBot:
    """Uniform choice among the legal actions of a seat.  ``ruleset``: any
    :class:`~engine.core.ruleset.Ruleset` (default: the Memoir '44 turn machine)."""

    def __init__(self, seed: int = 0, ruleset: Ruleset | None = None) -> None:
        self.rng = random.Random(seed)
        self.legal: Callable[[Any, str], list[dict[str, Any]]] = \
            ruleset.legal_actions if ruleset is not None else legal_actions

    def choose(self, st: Any, seat: str) -> dict[str, Any]:
        acts = self.legal(st, seat)
        if not acts:
            raise RuntimeError(f"no legal action for {seat} in phase "
                               f"{getattr(st, 'phase', '?')}")
        return self.rng.choice(acts)


def next_action(st: GameState, bot: RandomBot) -> dict[str, Any]:
    if is_chance(st):
        return sample_chance(st)
    return bot.choose(st, to_act(st)[0])


def play_random_game(scn: Scenario, seed: int, options: dict | None = None,
                     max_turns: int = 200, record: bool = False
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
