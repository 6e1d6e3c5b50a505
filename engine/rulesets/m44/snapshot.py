"""The m44 / overlord snapshots: the versioned JSON snapshots of a procedures
``GameState`` (:mod:`engine.procedures.snapshot`, shared with the ``fastplay`` ruleset,
which plays on the same state).  A loaded state gets its hook table again, built from its
options and seat mode as at the start of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import EngineError
from ...procedures import snapshot as _snapshot
from ...procedures.common import StandardMode
from ...procedures.snapshot import CLASSES, FORMAT, dump_state
from ...procedures.state import GameState
from .hook_table import SEAT_MODES, hooks_for

__all__ = ["CLASSES", "FORMAT", "dump_state", "load_state"]


def load_state(
    data: Any,
    scenario: Any,
    ruleset: str | None = None,
    version: str | None = None,
    modes: Mapping[str, StandardMode] = SEAT_MODES,
) -> GameState:
    """:func:`engine.procedures.snapshot.load_state`, the hook table built again for the
    state's options and its mode, one of ``modes`` (the ruleset's; ``snapshot_format``
    for another)."""
    st = _snapshot.load_state(data, scenario, ruleset, version)
    seat_mode = modes.get(st.mode) if isinstance(st.mode, str) else None
    if seat_mode is None or not isinstance(st.options, dict):
        raise EngineError("snapshot_format", f"no seat mode {st.mode!r} in this ruleset")
    st.hooks = hooks_for(st.options, seat_mode)
    return st
