"""Compact JSON text: the one writer of the server's wire messages and of the stored log
(orjson, with ``json`` for what orjson refuses; the same text either way)."""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson

    _OPTS = orjson.OPT_NON_STR_KEYS

    def dumps(obj: Any) -> str:
        """Compact JSON (orjson: ~10x faster than ``json`` on views; same text)."""
        try:
            return orjson.dumps(obj, option=_OPTS).decode()
        except TypeError:  # e.g. an int beyond 64 bits: the slow path
            return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)

    def loads(data: str | bytes) -> Any:
        return orjson.loads(data)
except ImportError:  # pragma: no cover - orjson is a dependency

    def dumps(obj: Any) -> str:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)

    def loads(data: str | bytes) -> Any:
        return json.loads(data)
