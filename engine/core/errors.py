"""The engine's small error hierarchy (python-chess style).

Every refusal the engine makes is an :class:`EngineError` carrying a stable,
machine-readable ``code`` (snake_case, documented in docs/protocol.md) and a human
``message``.  The server maps ``code``/``message`` straight into its ``reject``
messages, so codes are part of the public API: never rename one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class EngineError(Exception):
    """Base class: an action, scenario or request the rules do not allow."""

    code: str = "engine_error"

    def __init__(self, code: str | None = None, message: str = "", **details: Any) -> None:
        if code is not None:
            self.code = code
        self.message = message or self.code.replace("_", " ")
        self.details = details
        super().__init__(f"{self.code}: {self.message}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class IllegalAction(EngineError):
    """An action that is malformed, out of turn or against the rules.  State unchanged."""

    code = "illegal_action"


@dataclass(frozen=True)
class UnknownCode:
    """One code of a ``.m44`` file the engine does not know, and every hex it is on."""

    slot: str  # "terrain" | "rect_terrain" | "obstacle" | "unit" | "tag" | "badge" | "board" | "option"
    code: str
    hexes: tuple[tuple[int, int], ...] = field(default_factory=tuple)  # (row, col)

    def describe(self) -> str:
        where = ", ".join(f"(row {r}, col {c})" for r, c in self.hexes) or "scenario level"
        return f"{self.slot} code {self.code!r} at {where}"


class ScenarioError(EngineError):
    """A scenario file that cannot be loaded (malformed, or unknown codes)."""

    code = "invalid_scenario"

    def __init__(
        self,
        code: str | None = None,
        message: str = "",
        unknown: list[UnknownCode] | None = None,
        **details: Any,
    ) -> None:
        self.unknown = list(unknown or [])
        if self.unknown and not message:
            message = "unsupported codes: " + "; ".join(u.describe() for u in self.unknown)
        if self.unknown:
            details["unknown"] = [
                {"slot": u.slot, "code": u.code, "hexes": [list(h) for h in u.hexes]}
                for u in self.unknown
            ]
        super().__init__(code, message, **details)
