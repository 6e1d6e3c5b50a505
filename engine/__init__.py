"""Overlord game server: the pure rules engine (see docs/architecture.md).

Layers, each importing only downward: ``core`` (no rules of any game), ``procedures``
(Commands & Colors procedures), ``rulesets`` (one package per rule system, registered by
name: ``get_ruleset("m44")``).  The module-level functions below are the m44 / overlord
turn machine (``engine.rulesets.m44.game``), kept for the CLI, the bench and the tests;
``new_game``, ``replay`` and ``load_state`` take the seat modes of both rulesets
(``standard``, ``team``, ``overlord``)."""

from __future__ import annotations

from typing import Any

from . import rulesets  # noqa: F401  (fills the ruleset registry)
from .core.errors import EngineError, IllegalAction, ScenarioError
from .rulesets.m44.action_schema import canonical_action, normalise_logged
from .core.ruleset import Ruleset, all_rulesets, natural_for
from .core.ruleset import get as get_ruleset
from .fairdice import commitment as seed_commitment
from .fairdice import rng_seed
from .fairdice import verify as verify_log
from .rulesets.m44 import game as _m44_game
from .rulesets.m44 import snapshot as _m44_snapshot
from .rulesets.m44.game import (
    apply,
    is_chance,
    legal_actions,
    sample_chance,
    seats,
    to_act,
)
from .core.scenario import board_for, load_scenario
from .core.scenario_model import Scenario
from .rulesets.m44.snapshot import dump_state
from .rulesets.m44.ruleset import M44
from .rulesets.overlord import OVERLORD
from .procedures.state import GameState
from .rulesets.m44.view import events_for, view_for

#: the seat modes of the m44 and overlord games (the functions below take any of them)
SEAT_MODES = {**M44.SEAT_MODES, **OVERLORD.SEAT_MODES}


def new_game(
    scenario: Scenario,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> GameState:
    """An m44 or overlord game (``mode``: a seat mode; None: the board's natural one)."""
    return _m44_game.new_game(scenario, seed, options, mode, SEAT_MODES)


def replay(
    scenario: Scenario,
    seed: int,
    actions: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> GameState:
    """The state after ``actions`` from :func:`new_game`."""
    return _m44_game.replay(scenario, seed, actions, options, mode, SEAT_MODES)


def load_state(data: Any, scenario: Any) -> GameState:
    """The state of an m44 or overlord snapshot (``dump_state``), on ``scenario``."""
    return _m44_snapshot.load_state(data, scenario, modes=SEAT_MODES)


__all__ = [
    "EngineError",
    "IllegalAction",
    "ScenarioError",
    "Scenario",
    "GameState",
    "load_scenario",
    "board_for",
    "new_game",
    "seats",
    "to_act",
    "legal_actions",
    "apply",
    "is_chance",
    "sample_chance",
    "view_for",
    "events_for",
    "replay",
    "dump_state",
    "load_state",
    "Ruleset",
    "get_ruleset",
    "all_rulesets",
    "natural_for",
    "canonical_action",
    "normalise_logged",
    "seed_commitment",
    "rng_seed",
    "verify_log",
]
