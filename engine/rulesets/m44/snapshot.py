"""The m44 / overlord snapshots: the versioned JSON snapshots of a procedures
``GameState`` (:mod:`engine.procedures.snapshot`, shared with the ``fastplay`` ruleset,
which plays on the same state)."""

from __future__ import annotations

from ...procedures.snapshot import CLASSES, FORMAT, dump_state, load_state

__all__ = ["CLASSES", "FORMAT", "dump_state", "load_state"]
