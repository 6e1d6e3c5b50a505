"""Reading a ``.m44`` scenario's JSON (the official editor's format): the source (a
path, JSON text or bytes, an already-parsed dict), its loose shapes (a slot holding a dict,
a list or an index-keyed map; names in any case), coordinates, and the unknown codes
found on the way (``ScenarioError`` ``unknown_codes``)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from .errors import ScenarioError, UnknownCode
from .geometry import Hex


def malformed(message: str) -> ScenarioError:
    return ScenarioError("malformed_scenario", message)


def read_source(source: str | Path | dict[str, Any] | bytes) -> tuple[dict[str, Any], str | None]:
    """Parse ``source``; returns (data, file stem or None)."""
    if isinstance(source, dict):
        return source, None
    stem = None
    try:
        if isinstance(source, (bytes, bytearray)):
            text = bytes(source).decode("utf-8-sig")
        elif isinstance(source, Path) or not str(source).lstrip().startswith("{"):
            path = Path(source)
            stem = path.stem
            text = path.read_bytes().decode("utf-8-sig")
        else:
            text = str(source)
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise malformed(f"cannot read scenario: {exc}") from exc
    if not isinstance(data, dict):
        raise malformed("scenario JSON must be an object")
    return data, stem


def entries(value: Any) -> list[dict[str, Any]]:
    """A slot value as a list of dicts (dict, list, or index-keyed map of dicts)."""
    if isinstance(value, dict):
        if "name" in value:
            return [value]
        return [
            v for _, v in sorted(value.items(), key=lambda kv: str(kv[0])) if isinstance(v, dict)
        ]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, dict)]
    return []


def upper(value: Any) -> str | None:
    return str(value).upper() if value not in (None, "") else None


def parse_coord(text: str, rows: int) -> Hex | None:
    """Coordinate string (vocabulary 3.4) -> hex.  ``"A9"`` = (0, 0) on a 9-row board.

    Uppercase letter = even column ``2k``; lowercase = odd column ``2k + 1``; the number
    counts rows from the bottom: row = rows - number.  Returns None when malformed.
    """
    m = re.fullmatch(r"\s*([A-Za-z])\s*(\d+)\s*", str(text))
    if not m:
        return None
    letter, number = m.group(1), int(m.group(2))
    k = ord(letter.lower()) - ord("a")
    col = 2 * k + (1 if letter.islower() else 0)
    return (rows - number, col)


class Unknowns:
    """Gathers unknown codes with all their hexes (ScenarioError ``unknown_codes``)."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], list[Hex]] = defaultdict(list)

    def add(self, slot: str, code: str, h: Hex | None = None) -> None:
        hexes = self.found[(slot, code)]
        if h is not None and h not in hexes:
            hexes.append(h)

    def result(self) -> list[UnknownCode]:
        return [UnknownCode(slot, code, tuple(hexes)) for (slot, code), hexes in self.found.items()]


def as_int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def hex_of(entry: dict[str, Any]) -> Hex | None:
    try:
        return (int(entry["row"]), int(entry["col"]))
    except (KeyError, TypeError, ValueError):
        return None


def text_field(data: dict[str, Any], key: str) -> str | None:
    """A field of the editor's ``text`` block: English first, else any language."""
    text = data.get("text")
    if not isinstance(text, dict):
        return None
    langs = [text.get("en")] + [v for k, v in text.items() if k != "en"]
    for lang in langs:
        value = lang.get(key) if isinstance(lang, dict) else None
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None
