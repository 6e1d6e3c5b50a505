"""The server's single doorway into the rules engine.

Everything the server needs from ``engine/`` goes through here.  A game is played by the
:class:`engine.core.ruleset.Ruleset` its row names (``ruleset(game.ruleset)``); the server
never knows which rule system runs.  No rule lives in this file: it only names the
registry, the ``.m44`` scenario loader (a core service shared by the rulesets whose
``setup`` is ``"scenario"``) and caches parsed scenarios.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import threading
import time
from collections import OrderedDict
from typing import Any

from engine.ai import NAMES as _AI_LEVELS
from engine.ai import Player
from engine.ai import choose_action as _ai_choose
from engine.rulesets import STRICT_CHAT  # (importing the package fills the registry)
from engine.bot import RandomBot
from engine.core import ruleset as _registry
from engine.core.errors import EngineError, ScenarioError
from engine.core.ruleset import (
    CHANCE,
    Ruleset,
    layouts_of,
    load_state_of,
    normalise_logged,
    public_status_of,
    view_parts_of,
    views_of,
)
from engine.core.scenario import board_for, load_scenario
from engine.fairdice import commitment as seed_commitment
from engine.fairdice import rng_seed
from engine.fairdice import MESSAGES as VERDICT_TEXT
from engine.fairdice import verify as verify_log
from engine.meta import Fold, is_meta, rolls_following

__all__ = [
    "E",
    "EngineError",
    "ScenarioError",
    "Ruleset",
    "scenario_from_text",
    "parsed_scenario",
    "sha256_text",
    "public_view",
    "optional_rules",
    "CHANCE",
    "ruleset",
    "rulesets",
    "rulesets_for",
    "stand_in_modes",
    "bots_stand_in",
    "layouts_of",
    "natural_ruleset",
    "bot_levels",
    "default_bot_level",
    "bot_for",
    "bot_action",
    "scenario_board",
    "RandomBot",
    "normalise_logged",
    "load_state_of",
    "views_of",
    "view_parts_of",
    "public_status_of",
    "seed_commitment",
    "rng_seed",
    "verify_log",
    "VERDICT_TEXT",
    "Fold",
    "is_meta",
    "rolls_following",
    "campaign_rulesets",
    "STRICT_CHAT",
]


def bot_levels() -> list[str]:
    """The levels a server bot may play at (``seats.bot_level``; ``engine.ai``: ``random``,
    ``easy``, ``normal``, ``hard``; docs/ai.md), the default first."""
    return [default_bot_level(), *(lv for lv in _AI_LEVELS if lv != default_bot_level())]


def default_bot_level() -> str:
    """The level of a bot seat whose level was never chosen (``seats.bot_level`` null;
    the server's ``BOT_LEVEL`` setting may name another)."""
    return "normal"


def bot_for(level: str | None, salt: int, rs: Ruleset) -> Player:
    """The engine player of a bot seat at ``level`` (None: :func:`default_bot_level`); an
    unknown level (a row written by a later release) plays at the default level.  Its
    ``choose`` computes: the server calls it in the bot process pool (:func:`bot_action`)
    for every level but ``random``."""
    return Player(rs, level if level in _AI_LEVELS else default_bot_level(), salt)


def bot_process(server: int) -> None:
    """The start of a bot process: the lowest CPU priority, and an exit within a second
    of the server's (``server``, its pid) end.  A server killed with SIGKILL cannot stop
    its pool, and one stopped with SIGTERM to its process group restarts the pool the
    signal broke while it finishes its games: without this watch either leaves a process
    behind for good."""
    os.nice(19)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def bot_action(
    ruleset_name: str,
    snapshot: dict[str, Any],
    scenario_text: str | None,
    seat: str,
    level: str,
    seed: int,
) -> dict[str, Any] | None:
    """The action of a computer player of ``level`` (one of :func:`bot_levels`) for
    ``seat`` in the game of ``snapshot`` (the ruleset's ``dump_state``) set up from
    ``scenario_text`` (None: a ruleset without scenario); None when the seat has nothing to
    decide.  The server runs it in its bot process pool: it sends the game as its ruleset
    saves it (a state loaded there gets its hook table back, as after a restart) and the
    scenario as text (parsed once per process, :func:`scenario_from_text`)."""
    rs = ruleset(ruleset_name)
    scn = scenario_from_text(scenario_text) if scenario_text is not None else None
    state = load_state_of(rs, snapshot, scn)
    if not rs.legal_actions(state, seat):
        return None
    return _ai_choose(rs, state, seat, level, seed)


def ruleset(name: str) -> Ruleset:
    """The registered ruleset ``name`` (``EngineError("unknown_ruleset")`` otherwise)."""
    return _registry.get(name)


def preview_action(name: str, options: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The ruleset's optional preview of ``action`` under ``options`` (a fresh state of a
    ruleset without scenario; ``EngineError("no_preview")`` when it has none)."""
    rs = ruleset(name)
    if not rs.has_preview or rs.setup != "none":
        raise EngineError("no_preview", f"ruleset {name!r} has no preview")
    return _registry.preview_of(rs, rs.new_game(0, options), action)


def rulesets() -> list[Ruleset]:
    """Every registered ruleset (lobby order: registration order)."""
    return [_registry.get(n) for n in _registry.registered()]


def campaign_rulesets() -> list[str]:
    """The names of the rulesets that play campaigns (``supports_campaign``)."""
    return [rs.name for rs in rulesets() if rs.supports_campaign]


def stand_in_modes() -> dict[str, list[str]]:
    """ruleset name -> its modes where a bot stands in for a player who leaves a live game
    (``Ruleset.bots_stand_in``; only rulesets with one)."""
    out: dict[str, list[str]] = {}
    for rs in rulesets():
        modes = [m for m in rs.modes if rs.bots_stand_in(m)]
        if modes:
            out[rs.name] = modes
    return out


def bots_stand_in(ruleset_name: str, mode: str | None) -> bool:
    """Does a bot stand in for a player who leaves a live game of this ruleset and mode?"""
    return ruleset(ruleset_name).bots_stand_in(mode)


def rulesets_for(scenario: Any) -> dict[str, list[str]]:
    """ruleset name -> the modes in which it accepts ``scenario`` (only rulesets with one)."""
    out: dict[str, list[str]] = {}
    for rs in rulesets():
        if rs.setup != "scenario":
            continue
        modes = [m for m in rs.modes if rs.accepts(scenario, m)]
        if modes:
            out[rs.name] = modes
    return out


def natural_ruleset(scenario: Any, mode: str | None = None) -> Ruleset:
    """The ruleset an old client's ``{scenario_id, mode}`` means: the first (registration
    order) accepting the scenario in ``mode`` (any mode when None)."""
    for rs in rulesets():
        if (
            rs.setup == "scenario"
            and rs.accepts(scenario, mode)
            and (mode is None or mode in rs.modes)
        ):
            return rs
    raise EngineError("unknown_mode", f"no ruleset plays this scenario in mode {mode!r}")


def scenario_board(scenario: Any) -> dict[str, Any]:
    """The static board of a parsed ``.m44`` scenario (scenario preview)."""
    return board_for(scenario)


class _Engine:
    """Deprecated: ``E.apply(...)`` is the module-level ``engine.apply(...)`` (the m44 and
    overlord turn machine), resolved at call time.  Game code asks the game's ruleset
    (``ruleset(game.ruleset)``) instead."""

    def __getattr__(self, name: str) -> Any:
        mod = importlib.import_module("engine")
        try:
            return getattr(mod, name)
        except AttributeError:
            raise EngineError(
                "engine_unavailable", f"the engine does not provide {name!r} yet"
            ) from None


E = _Engine()

_SCENARIOS: OrderedDict[str, tuple[Any, str]] = OrderedDict()
_MAX_CACHED = 64


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def scenario_from_text(text: str) -> Any:
    """Parse a ``.m44`` text with ``engine.load_scenario`` (cached by content hash).

    Raises ``ScenarioError`` (with the unknown codes and hexes) for a bad file and a
    ``ScenarioError("invalid_json")`` when the text is not JSON at all.
    """
    return parsed_scenario(text)[0]


def parsed_scenario(text: str) -> tuple[Any, str]:
    """:func:`scenario_from_text` and the text itself as first cached (the games of one
    scenario share one copy of it)."""
    key = sha256_text(text)
    hit = _SCENARIOS.get(key)
    if hit is not None:
        _SCENARIOS.move_to_end(key)
        return hit
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ScenarioError("invalid_json", f"not a JSON .m44 file: {exc}") from None
    if not isinstance(data, dict):
        raise ScenarioError("invalid_json", "a .m44 file is a JSON object")
    scn = load_scenario(data)
    _SCENARIOS[key] = (scn, text)
    while len(_SCENARIOS) > _MAX_CACHED:
        _SCENARIOS.popitem(last=False)
    return scn, text


def public_view(rs: Ruleset, state: Any) -> dict[str, Any]:
    """The spectator view (seat ``None``): what the lobby may show about a game."""
    view: dict[str, Any] = rs.view_for(state, None)
    return view


def optional_rules(name: str = "m44") -> list[dict[str, Any]]:
    """A ruleset's named optional rules (``Ruleset.options()``): name, description, source,
    implemented and, for rules whose value is one of a few choices (e.g. the side using
    Blitzkrieg), ``values``."""
    return list(ruleset(name).options())
