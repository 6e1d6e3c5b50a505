"""The action catalogue of the France 1944 referee: field specifications, the strict
canonical form (``canonical_action``) and the options' value checks.

Every action is ``{"type", "seat", ...fields}``; a field spec is (kind, bounds,
required).  Unknown types / keys and out-of-range values raise ``IllegalAction`` with
the codes ``unknown_action``, ``unknown_field``, ``missing_field``, ``bad_value``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.errors import IllegalAction
from .tables import (
    MAX_ATTACKING_UNITS,
    MORALE_MAX,
    MORALE_MIN,
    ODDS_LABELS,
    RATIO_RESULT_MAX,
    RATIO_RESULT_MIN,
    RESULT_LETTERS,
    TERRAIN_ADJUSTMENTS,
)

SIDES = ("ALLIED", "GERMAN")
CHANCE = "chance"
NAME_MAX = 40  # a unit / HQ designation as printed on a counter, or a hex number
MAX_NAMES = 12  # units of one side in one combat (8 combat units + HQs and more)
MAX_STRENGTH = 999
MAX_REACTION_POINTS = 30
MAX_INITIATIVE = 10

# type -> {field: (kind, low, high, required)}; kinds: int, bool, name, names, terrain,
# odds, dice.  Bounds of "names"/"terrain" are list lengths.
SPECS: dict[str, dict[str, tuple[str, int, int, bool]]] = {
    "turn_entries": {
        "reaction_points": ("int", 0, MAX_REACTION_POINTS, True),
        "initiative_markers": ("int", 0, MAX_INITIATIVE, True),
        "air_availability": ("int", 0, 6, False),
    },
    "begin_initiative_phase": {"hq": ("name", 1, NAME_MAX, True)},
    "pass": {},
    "open_increment": {},
    "end_phase": {},
    "declare_combat": {
        "attackers": ("names", 1, MAX_ATTACKING_UNITS, True),
        "hqs": ("names", 0, 4, False),
        "attack_hexes": ("names", 1, 2, True),
        "defenders": ("names", 1, MAX_NAMES, True),
        "defence_hexes": ("names", 1, 2, True),
        "attack_strength": ("int", 1, MAX_STRENGTH, True),
        "defence_strength": ("int", 1, MAX_STRENGTH, True),
        "attacker_morale": ("int", MORALE_MIN, MORALE_MAX, True),
        "defender_morale": ("int", MORALE_MIN, MORALE_MAX, True),
        "terrain": ("terrain", 0, 4, False),
        "armoured_79th": ("int", -3, 0, False),
        "heavy_bombing": ("int", -3, 0, False),
        "mobile": ("bool", 0, 1, False),
        "odds_column": ("odds", 0, len(ODDS_LABELS) - 1, False),
    },
    "end_declarations": {},
    "air_power": {"combat": ("int", 1, 10**6, True), "morale_adjustment": ("int", -3, 0, True)},
    "resolve_combat": {"combat": ("int", 1, 10**6, True)},
    "roll": {"dice": ("dice", 1, 1, False)},
    "enter_ratio_result": {"ratio_result": ("int", RATIO_RESULT_MIN, RATIO_RESULT_MAX, True)},
    "engage_reaction": {},
    "decline_reaction": {},
    "army_reaction": {"hq": ("name", 1, NAME_MAX, True)},
    "single_piece_reaction": {
        "unit": ("name", 1, NAME_MAX, True),
        "hq": ("bool", 0, 1, False),
        "out_of_supply": ("bool", 0, 1, False),
    },
    "end_segment": {},
}

DEFAULTS: dict[str, Any] = {
    "hqs": [],
    "terrain": [],
    "armoured_79th": 0,
    "heavy_bombing": 0,
    "mobile": False,
    "hq": False,
    "out_of_supply": False,
}


def _bad(field: str, why: str) -> IllegalAction:
    return IllegalAction("bad_value", f"{field}: {why}", field=field)


def _name(field: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > NAME_MAX:
        raise _bad(field, f"a name of 1..{NAME_MAX} characters")
    if any(not ch.isprintable() for ch in value):
        raise _bad(field, "printable characters only")
    return value.strip()


def _int(field: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(field, f"an integer in {low}..{high}")
    return value


def _value(field: str, spec: tuple[str, int, int, bool], value: Any) -> Any:
    kind, low, high, _ = spec
    if kind == "int":
        return _int(field, value, low, high)
    if kind == "bool":
        if not isinstance(value, bool):
            raise _bad(field, "true or false")
        return value
    if kind == "name":
        return _name(field, value)
    if kind == "odds":
        if value not in ODDS_LABELS:
            raise _bad(field, f"one of {', '.join(ODDS_LABELS)}")
        return value
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise _bad(field, f"a list of {low}..{high} entries")
    if kind == "names":
        names = [_name(field, v) for v in value]
        if len(set(names)) != len(names):
            raise _bad(field, "the same name twice")
        return names
    if kind == "terrain":
        return [_int(field, v, min(TERRAIN_ADJUSTMENTS), max(TERRAIN_ADJUSTMENTS)) for v in value]
    return [_int(field, v, 1, 6) for v in value]  # dice


def canonical(action: Any) -> dict[str, Any]:
    """The strict, complete form of ``action`` (defaults filled in)."""
    if not isinstance(action, dict):
        raise IllegalAction("malformed_action", "an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in SPECS:  # a list/object: no dict key
        raise IllegalAction("unknown_action", f"unknown action type {kind!r}"[:200])
    specs = SPECS[kind]
    extra = sorted(set(action) - set(specs) - {"type", "seat"})
    if extra:
        raise IllegalAction("unknown_field", f"{kind} has no field {extra[0]!r}", field=extra[0])
    seat = action.get("seat")
    if seat is not None and seat not in SIDES + (CHANCE,):
        raise _bad("seat", f"one of {', '.join(SIDES + (CHANCE,))}")
    out: dict[str, Any] = {"type": kind, "seat": seat}
    for field, spec in specs.items():
        if field in action and action[field] is not None:
            out[field] = _value(field, spec, action[field])
        elif spec[3]:
            raise IllegalAction("missing_field", f"{kind} needs {field}", field=field)
        elif field in DEFAULTS:
            out[field] = (
                list(DEFAULTS[field]) if isinstance(DEFAULTS[field], list) else DEFAULTS[field]
            )
    return out


def check_declaration_shape(attack_hexes: list[str], defence_hexes: list[str]) -> None:
    """Clarification "Combat Declaration": at most 3 hexes; attackers in two adjacent
    hexes against one defending hex, or attackers in one hex against one or two
    mutually adjacent defending hexes (adjacency is the players' map: not checked)."""
    if len(attack_hexes) == 2 and len(defence_hexes) == 2:
        raise IllegalAction(
            "too_many_hexes",
            "at most 3 hexes in a combat: two attacking hexes attack a single defending hex",
        )
    if set(attack_hexes) & set(defence_hexes):
        raise IllegalAction("bad_hexes", "a hex cannot both attack and defend")


def _limits(value: Any) -> dict[str, int]:
    """{morale: limit} with the morale as a string key (the state stays JSON-exact)."""
    if not isinstance(value, dict):
        raise IllegalAction(
            "invalid_option_value", "control_limits: {morale: limit}", entry="control_limits"
        )
    out: dict[str, int] = {}
    for key, limit in value.items():
        try:
            morale = int(key)
        except (TypeError, ValueError):
            raise IllegalAction(
                "invalid_option_value", f"control_limits: morale {key!r}", entry=str(key)
            ) from None
        if not MORALE_MIN <= morale <= MORALE_MAX:
            raise IllegalAction(
                "invalid_option_value", f"control_limits: morale {key!r}", entry=str(key)
            )
        if limit is None or limit == "":
            continue
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= 99:
            raise IllegalAction(
                "invalid_option_value",
                f"control_limits: limit {limit!r} for morale {morale}",
                entry=str(key),
            )
        out[str(morale)] = limit
    return out


def _meanings(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise IllegalAction(
            "invalid_option_value", "result_meanings: {letter: text}", entry="result_meanings"
        )
    out: dict[str, str] = {}
    for letter, text in value.items():
        if letter not in RESULT_LETTERS or not isinstance(text, str) or len(text) > 200:
            raise IllegalAction(
                "invalid_option_value",
                f"result_meanings: {letter!r} -> a text of at most 200 "
                f"characters, letters {', '.join(RESULT_LETTERS)}",
                entry=str(letter),
            )
        if text.strip():
            out[letter] = text.strip()
    return out


def _option_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().isdigit():  # a lobby <select> value
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise IllegalAction(
            "invalid_option_value", f"{name}: an integer in {low}..{high}", entry=name
        )
    return value


def _option_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise IllegalAction("invalid_option_value", f"{name}: true or false", entry=name)
    return value


OPTION_CHECKS: dict[str, Callable[[str, Any], Any]] = {
    "attacker_may_choose_lower_odds": _option_bool,
    "alternative_crdt": _option_bool,
    "control_limits": lambda _n, v: _limits(v),
    "result_meanings": lambda _n, v: _meanings(v),
    "turns": lambda n, v: _option_int(n, v, 1, 50),
    "increments_per_phase": lambda n, v: _option_int(n, v, 1, 9),
}
