"""004 house-rule battle conditions as data, and the checks of their option values.

* ``weather`` (004 "Night & Severe Weather Conditions (Optional)"): one condition of
  :data:`WEATHER` for the whole game;
* ``demoralisation`` (004 "Demoralisation, & Disorganisation (Optional)"): a mapping
  ``{"row,col" | .m44 unit code | "AXIS" | "ALLIES": 1 | 2}`` (a hex entry wins over a
  code entry, a code entry over a side entry), read at game start by
  :func:`demoralised_units`;
* ``supply_lines`` (004 "Supply Lines & Sieges (Optional)"): ``true`` (each side's base
  is its own board edge) or ``{"AXIS" | "ALLIES": ["row,col", ...]}`` (that side's supply
  base hexes instead of its edge).

The rules that use them are in :mod:`engine.rulesets.m44.options.conditions`.  Invalid values raise
``invalid_option_value`` with ``details.entry`` naming the offending entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import EngineError
from .scenario_model import SIDES
from .unit_types import check_entries, hex_key

WEATHER_OPTION = "weather"
DEMORALISATION = "demoralisation"
SUPPLY = "supply_lines"


@dataclass(frozen=True)
class Weather:
    label: str
    visibility: int = 6  # hexes a unit can fire at (6 = full day, no limit)
    spotter: int = 0  # indirect-firing artillery may fire beyond the visibility
    #                              when a friendly unit is within this many hexes of the target
    move_minus: int = 0  # every unit's movement reduced by this (Deep Snow)
    mud_cap: int = 0  # most hexes a move entering mud may total (0: no mud)
    mud_classes: frozenset[str] = frozenset()  # classes the mud cap applies to
    firm: frozenset[str] = frozenset()  # terrain families mud does not affect
    special_to_regular: bool = False  # Special Infantry become Regular Infantry
    no_air: bool = False  # no paradrops or tactical air power


#: 004 "Night & Severe Weather Conditions (Optional)", one row per condition (quoted).
WEATHER: dict[str, Weather] = {
    # "Blizzards, Fog - Visibility is reduced to 2 hexes. Indirect Firing Artillery may fire
    # at any target provided that it is within range and that a friendly Unit is within 2
    # hexes of the target."
    "BLIZZARD": Weather("Blizzard", visibility=2, spotter=2),
    "FOG": Weather("Fog", visibility=2, spotter=2),
    # "Deep Snow - All Units Movement is reduced by one hex per turn."
    "DEEP_SNOW": Weather("Deep Snow", move_minus=1),
    # "Mud - ... All Armour is reduced to Moving 2 hexes per turn. Special Infantry Units
    # are reduced to Regular Infantry Units. Movement is normal on Railways, Roads, and
    # through Towns & Villages, etc. as Mud does not affect them."
    "MUD": Weather(
        "Mud",
        mud_cap=2,
        mud_classes=frozenset({"armor"}),
        firm=frozenset({"road", "rail", "village"}),
        special_to_regular=True,
    ),
    # "Russian Mud reduces all Units, except on Railways, to Moving only 1 hex per turn."
    "RUSSIAN_MUD": Weather(
        "Russian Mud",
        mud_cap=1,
        mud_classes=frozenset({"inf", "armor", "art"}),
        firm=frozenset({"rail"}),
    ),
    # "Night - Visibility is reduced to adjacent hexes only. Indirect Firing Artillery may
    # fire at any target provided that it is within range and that a friendly Unit is in
    # Close Assault with the target."
    "NIGHT": Weather("Night", visibility=1, spotter=1),
    # "Rainstorm - No paradrops or tactical airpower are allowed. Visibility is reduced to
    # 3 hexes. Indirect Firing Artillery may fire ... a friendly Unit is within 3 hexes."
    "RAINSTORM": Weather("Rainstorm", visibility=3, spotter=3, no_air=True),
}

NO_WEATHER = Weather("Clear")


def weather(options: dict[str, Any]) -> Weather:
    """The game's weather condition (clear when the option is off)."""
    w = options.get(WEATHER_OPTION)
    return WEATHER[w] if w else NO_WEATHER


def _err(message: str, **details: Any) -> EngineError:
    return EngineError("invalid_option_value", message, **details)


def check_demoralisation(name: str, value: Any) -> None:
    """Shape of the ``demoralisation`` value: a non-empty mapping of hexes / unit codes /
    sides to 1 or 2 (004: "reduce ... by a factor of 1. Only in exceptional cases of
    near-collapse should these be reduced by a factor of 2")."""
    if not isinstance(value, dict) or not value:
        raise _err(
            f"{name}: expected a mapping of hexes / unit codes / sides to 1 or 2",
            option=name,
            entry=None,
        )
    for key, k in value.items():
        if not isinstance(key, str) or not key.strip():
            raise _err(f"{name}: bad key {key!r}", option=name, entry=key)
        if isinstance(k, bool) or k not in (1, 2):
            raise _err(
                f"{name}: {key!r} must be reduced by 1 or 2, not {k!r}", option=name, entry=key
            )


def demoralised_units(value: dict[str, int], units: list[tuple[str, Any]]) -> dict[str, int]:
    """Unit id -> reduction (1 or 2) for ``units`` ((id, Unit) at game start); a hex entry
    wins over a code entry, a code entry over a side entry.  A hex without a unit or a
    code no unit has is refused (``invalid_option_value``, ``entry``)."""
    by_hex: dict[tuple[int, int], int] = {}
    by_code: dict[str, int] = {}
    by_side: dict[str, int] = {}
    for key, k in value.items():
        h = hex_key(key)
        if h is not None:
            by_hex[h] = k
        elif key.upper() in SIDES:
            by_side[key.upper()] = k
        else:
            by_code[key] = k
    check_entries(by_hex, by_code, units)
    out: dict[str, int] = {}
    for uid, u in units:
        k = by_hex.get(u.hex) or by_code.get(u.spec.code) or by_side.get(u.side) or 0
        if k:
            out[uid] = k
    return out


def check_supply(name: str, value: Any) -> None:
    """Shape of the ``supply_lines`` value: ``true`` or ``{side: ["row,col", ...]}``."""
    if value is True:
        return
    if not isinstance(value, dict) or not value:
        raise _err(
            f"{name}: expected true or a mapping of sides to supply hexes", option=name, entry=None
        )
    for side, hexes in value.items():
        if not isinstance(side, str) or side.upper() not in SIDES:
            raise _err(f"{name}: unknown side {side!r}", option=name, entry=side)
        if not isinstance(hexes, list) or not hexes:
            raise _err(f'{name}: {side} needs a list of "row,col" hexes', option=name, entry=side)
        for h in hexes:
            if not isinstance(h, str) or hex_key(h) is None:
                raise _err(f"{name}: bad hex {h!r} for {side}", option=name, entry=h)


def supply_bases(value: Any) -> dict[str, tuple[tuple[int, int], ...]]:
    """Side -> supply base hexes named by the option (sides not named: their edge)."""
    if not isinstance(value, dict):
        return {}
    return {
        s.upper(): tuple(h for h in map(hex_key, hexes) if h is not None)
        for s, hexes in value.items()
    }


__all__ = [
    "WEATHER",
    "Weather",
    "weather",
    "check_demoralisation",
    "demoralised_units",
    "check_supply",
    "supply_bases",
    "hex_key",
]
