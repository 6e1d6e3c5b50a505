"""Overlord game server: the pure Memoir '44 rules engine (see docs/architecture.md)."""
from __future__ import annotations

from . import rulesets  # noqa: F401  (fills the ruleset registry: m44, overlord, ...)
from .core.errors import EngineError, IllegalAction, ScenarioError
from .action_schema import canonical_action, normalise_logged
from .core.ruleset import Ruleset, all_rulesets, natural_for
from .core.ruleset import get as get_ruleset
from .fairdice import commitment as seed_commitment
from .fairdice import rng_seed
from .fairdice import verify as verify_log
from .rules import (apply, is_chance, legal_actions, new_game, replay, sample_chance, seats,
                    to_act)
from .scenario import Scenario, board_for, load_scenario
from .snapshot import dump_state, load_state
from .state import GameState
from .view import events_for, view_for

__all__ = ["EngineError", "IllegalAction", "ScenarioError", "Scenario", "GameState",
           "load_scenario", "board_for", "new_game", "seats", "to_act", "legal_actions",
           "apply", "is_chance", "sample_chance", "view_for", "events_for", "replay",
           "dump_state", "load_state", "Ruleset", "get_ruleset", "all_rulesets", "natural_for",
           "canonical_action", "normalise_logged", "seed_commitment", "rng_seed", "verify_log"]
