"""Army lists: "Each army is composed of six units and a General" (General rules).

The text names no unit types beyond foot, mounted and artillery and no qualities beyond
elite / average / poor, and gives no army lists.  Presets for the Colonial setting
(options ``red_army`` / ``blue_army``: a preset name) and a custom army builder (the
same options given a list of exactly six ``{"type", "quality", "name"?}`` entries).
Every unit starts with 2 SPs; the General is not one of the six.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import EngineError

from .state import MAX_SP, QUALITIES, TYPES, GENERAL_SP, Unit

ARMY_SIZE = 6


def _u(name: str, type_: str, quality: str) -> dict[str, str]:
    return {"name": name, "type": type_, "quality": quality}


PRESETS: dict[str, dict[str, Any]] = {
    "british": {
        "title": "British column",
        "general": "Column Commander",
        "units": [
            _u("Line Infantry", "foot", "elite"),
            _u("Line Infantry", "foot", "elite"),
            _u("Line Infantry", "foot", "average"),
            _u("Naval Brigade", "foot", "average"),
            _u("Hussars", "mounted", "average"),
            _u("Field Artillery", "artillery", "average"),
        ],
    },
    "zulu": {
        "title": "Zulu impi",
        "general": "Induna",
        "units": [
            _u("Veteran Regiment", "foot", "elite"),
            _u("Veteran Regiment", "foot", "elite"),
            _u("Regiment", "foot", "average"),
            _u("Regiment", "foot", "average"),
            _u("Regiment", "foot", "average"),
            _u("Young Warriors", "foot", "poor"),
        ],
    },
    "mahdist": {
        "title": "Mahdist army",
        "general": "Emir",
        "units": [
            _u("Beja", "foot", "elite"),
            _u("Ansar Spearmen", "foot", "average"),
            _u("Ansar Spearmen", "foot", "average"),
            _u("Jihadiyya Riflemen", "foot", "poor"),
            _u("Baggara Horse", "mounted", "average"),
            _u("Camel Corps", "mounted", "poor"),
        ],
    },
    "egyptian": {
        "title": "Egyptian garrison",
        "general": "Pasha",
        "units": [
            _u("Egyptian Infantry", "foot", "poor"),
            _u("Egyptian Infantry", "foot", "poor"),
            _u("Sudanese Infantry", "foot", "average"),
            _u("Bashi-Bazouks", "mounted", "poor"),
            _u("Krupp Battery", "artillery", "average"),
            _u("Gatling Guns", "artillery", "poor"),
        ],
    },
}
DEFAULT = {"RED": "british", "BLUE": "zulu"}


def check(value: Any, option: str) -> None:
    """Raise ``invalid_option_value`` unless ``value`` is a preset name or a custom list."""
    if isinstance(value, str):
        if value not in PRESETS:
            raise EngineError(
                "invalid_option_value",
                f"{option}: unknown army {value!r} (one of {sorted(PRESETS)})",
                entry=option,
            )
        return
    if not isinstance(value, list) or len(value) != ARMY_SIZE:
        raise EngineError(
            "invalid_option_value",
            f"{option}: a preset name or a list of exactly {ARMY_SIZE} units",
            entry=option,
        )
    for i, e in enumerate(value):
        if (
            not isinstance(e, dict)
            or set(e) - {"type", "quality", "name"}
            or e.get("type") not in TYPES
            or e.get("quality") not in QUALITIES
            or not isinstance(e.get("name", ""), str)
            or len(e.get("name", "")) > 40
        ):
            raise EngineError(
                "invalid_option_value",
                f"{option}[{i}]: {{type: {'|'.join(TYPES)}, "
                f"quality: {'|'.join(QUALITIES)}, name?}}",
                entry=option,
            )


def build(side: str, value: Any) -> list[Unit]:
    """The six units and the General of ``side`` (ids ``r1``..``r6``, ``rG``)."""
    if isinstance(value, str):
        entries, gname = PRESETS[value]["units"], PRESETS[value]["general"]
    else:
        entries, gname = value, "General"
    p = side[0].lower()
    out = [
        Unit(
            f"{p}{i + 1}",
            side,
            e["type"],
            e["quality"],
            e.get("name") or f"{e['quality'].title()} {e['type']}",
            MAX_SP,
        )
        for i, e in enumerate(entries)
    ]
    out.append(Unit(f"{p}G", side, "general", "-", gname, GENERAL_SP))
    return out
