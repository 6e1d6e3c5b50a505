"""The server's single doorway into the rules engine.

Everything the server needs from ``engine/`` goes through here (imported lazily so the
app starts while the engine is still being written).  No rule lives in this file: it
only names the engine calls and caches parsed scenarios.
"""
from __future__ import annotations

import hashlib
import importlib
import json
from collections import OrderedDict
from typing import Any

from engine.core.errors import EngineError, ScenarioError

__all__ = ["E", "EngineError", "ScenarioError", "scenario_from_text", "sha256_text",
           "public_view", "optional_rules", "CHANCE"]

CHANCE = "chance"


class _Engine:
    """``E.apply(...)`` is ``engine.apply(...)``, resolved at call time."""

    def __getattr__(self, name: str) -> Any:
        mod = importlib.import_module("engine")
        try:
            return getattr(mod, name)
        except AttributeError:
            raise EngineError("engine_unavailable",
                              f"the engine does not provide {name!r} yet") from None


E = _Engine()

_SCENARIOS: OrderedDict[str, Any] = OrderedDict()
_MAX_CACHED = 64


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def scenario_from_text(text: str) -> Any:
    """Parse a ``.m44`` text with ``engine.load_scenario`` (cached by content hash).

    Raises ``ScenarioError`` (with the unknown codes and hexes) for a bad file and a
    ``ScenarioError("invalid_json")`` when the text is not JSON at all.
    """
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
    scn = E.load_scenario(data)
    _SCENARIOS[key] = scn
    while len(_SCENARIOS) > _MAX_CACHED:
        _SCENARIOS.popitem(last=False)
    return scn


def public_view(state: Any) -> dict[str, Any]:
    """The spectator view (seat ``None``): what the lobby may show about a game."""
    view: dict[str, Any] = E.view_for(state, None)
    return view


def optional_rules() -> list[dict[str, Any]]:
    """The engine's registry of named optional rules (``engine.options.describe``): name,
    description, source, implemented and, for rules whose value is one of a few choices
    (e.g. the side using Blitzkrieg), ``values``."""
    rules: list[dict[str, Any]] = importlib.import_module("engine.options").describe()
    return rules
