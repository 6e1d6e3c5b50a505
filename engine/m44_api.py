"""The module-level game functions of the m44 and overlord rulesets (``engine.new_game``,
``engine.replay``, ``engine.load_state``), for the CLI, the bench, the bots and the tests:
a game in any of their seat modes (``standard``, ``team``, ``overlord``)."""

from __future__ import annotations

from typing import Any

from .core.scenario_model import Scenario
from .procedures.state import GameState
from .rulesets.m44 import game as _game
from .rulesets.m44 import snapshot as _snapshot
from .rulesets.m44.ruleset import M44
from .rulesets.overlord import OVERLORD

#: the seat modes of the m44 and overlord games (the functions below take any of them)
SEAT_MODES = {**M44.SEAT_MODES, **OVERLORD.SEAT_MODES}


def new_game(
    scenario: Scenario,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> GameState:
    """An m44 or overlord game (``mode``: a seat mode; None: the board's natural one)."""
    return _game.new_game(scenario, seed, options, mode, SEAT_MODES)


def replay(
    scenario: Scenario,
    seed: int,
    actions: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> GameState:
    """The state after ``actions`` from :func:`new_game`."""
    return _game.replay(scenario, seed, actions, options, mode, SEAT_MODES)


def load_state(data: Any, scenario: Any) -> GameState:
    """The state of an m44 or overlord snapshot (``dump_state``), on ``scenario``."""
    return _snapshot.load_state(data, scenario, modes=SEAT_MODES)
