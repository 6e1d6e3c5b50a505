"""Overlord game server: the pure rules engine (see docs/architecture.md).

Layers, each importing only downward: ``core`` (no rules of any game), ``procedures``
(Commands & Colors procedures), ``rulesets`` (one package per rule system, registered by
name: ``get_ruleset("m44")``).  The module-level functions below are the m44 / overlord
turn machine (``engine.rulesets.m44.game``), kept for the CLI, the bench and the tests;
``new_game``, ``replay`` and ``load_state`` (:mod:`.m44_api`) take the seat modes of both
rulesets (``standard``, ``team``, ``overlord``)."""

from __future__ import annotations

from . import rulesets  # noqa: F401  (fills the ruleset registry)
from .core.errors import EngineError, IllegalAction, ScenarioError
from .rulesets.m44.action_schema import canonical_action, normalise_logged
from .core.ruleset import Ruleset, all_rulesets, natural_for
from .core.ruleset import get as get_ruleset
from .fairdice import commitment as seed_commitment
from .fairdice import rng_seed
from .fairdice import verify as verify_log
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
from .m44_api import load_state, new_game, replay
from .procedures.state import GameState
from .rulesets.m44.view import events_for, view_for

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
