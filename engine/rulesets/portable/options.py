"""Named optional rules: every choice where the text is silent and players might differ.

``describe()`` lists them (the ruleset's ``options()``); ``normalise(options)`` checks a
game's options and fills in the defaults.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import EngineError

from . import armies

SOURCE = "house rule (003 is silent)"

OPTIONS: tuple[dict[str, Any], ...] = (
    {
        "name": "turn_limit",
        "kind": "int",
        "min": 1,
        "max": 50,
        "default": 12,
        "description": "The battle ends after this many turns; if no army has withdrawn it is a draw.",
    },
    {
        "name": "break_units",
        "kind": "int",
        "min": 1,
        "max": 6,
        "default": 3,
        "description": "An army that has lost this many of its six units withdraws: it loses the battle.",
    },
    {
        "name": "break_units_general",
        "kind": "int",
        "min": 0,
        "max": 6,
        "default": 2,
        "description": "An army whose General is killed and that has lost this many units withdraws.",
    },
    {
        "name": "flank_attacks",
        "kind": "bool",
        "default": True,
        "description": "Close Combat from an area beside or behind the enemy unit (seen from its "
        "baseline) is a flank or rear attack: +1 to the attacker, -1 to the defender.",
    },
    {
        "name": "hill_cover_vs_artillery",
        "kind": "bool",
        "default": False,
        "description": "A unit on a hill counts as in cover against Artillery Fire (-1).",
    },
    {
        "name": "built_up_fortified",
        "kind": "bool",
        "default": False,
        "description": "A built-up area is also a fortification (a fort or mission station): "
        "-1 more in Close Combat against units in it.",
    },
    {
        "name": "river_crossing_stops",
        "kind": "bool",
        "default": True,
        "description": "A unit crossing the river must stop in the first area beyond it.",
    },
    {
        "name": "river_defence",
        "kind": "bool",
        "default": True,
        "description": "A unit that starts a Close Combat across the river reduces its D6 by 1.",
    },
    {
        "name": "red_army",
        "kind": "army",
        "default": armies.DEFAULT["RED"],
        "description": "RED's army: a preset ("
        + ", ".join(sorted(armies.PRESETS))
        + ") or six {type, quality, name} units.",
    },
    {
        "name": "blue_army",
        "kind": "army",
        "default": armies.DEFAULT["BLUE"],
        "description": "BLUE's army: a preset or six {type, quality, name} units.",
    },
)
BY_NAME = {o["name"]: o for o in OPTIONS}


def describe() -> list[dict[str, Any]]:
    """The options as the lobby lists them: ``values`` (a choice) where a checkbox
    meaning "switch on" is not enough (numbers, armies, rules on by default)."""
    out = []
    for o in OPTIONS:
        d = dict(o, source=SOURCE, implemented=True)
        if o["kind"] == "int":
            d["values"] = (
                list(range(o["min"], o["max"] + 1))
                if o["max"] <= 12
                else sorted({4, 6, 8, 10, 12, 15, 20, 30, o["default"]})
            )
        elif o["kind"] == "army":
            d["values"] = sorted(armies.PRESETS)
        elif o["default"] is True:
            d["values"] = ["on", "off"]
        out.append(d)
    return out


_BOOL_TEXT = {"on": True, "true": True, "off": False, "false": False}


def _coerce(spec: dict[str, Any], value: Any) -> tuple[bool, Any]:
    """(ok, value): booleans may come as "on"/"off", numbers as decimal text (lobby forms)."""
    kind = spec["kind"]
    if kind == "bool":
        if isinstance(value, str) and value.lower() in _BOOL_TEXT:
            value = _BOOL_TEXT[value.lower()]
        return isinstance(value, bool), value
    if kind == "int":
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        ok = (
            isinstance(value, int)
            and not isinstance(value, bool)
            and spec["min"] <= value <= spec["max"]
        )
        return ok, value
    armies.check(value, spec["name"])
    return True, value


def normalise(options: dict[str, Any] | None) -> dict[str, Any]:
    if options is not None and not isinstance(options, dict):
        raise EngineError(
            "invalid_option_value", "options: an object {name: value}", entry="options"
        )
    out = {o["name"]: o["default"] for o in OPTIONS}
    for name, value in (options or {}).items():
        spec = BY_NAME.get(name)
        if spec is None:
            raise EngineError("unknown_option", f"unknown option {name!r}", entry=name)
        ok, value = _coerce(spec, value)
        if not ok:
            raise EngineError("invalid_option_value", f"{name}: bad value {value!r}", entry=name)
        out[name] = value
    return out
