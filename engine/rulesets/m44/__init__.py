"""Standard Memoir '44 (rules 004 and their optional rules): the ``m44`` ruleset.

One side per player (mode ``1v1``), set up from a ``.m44`` scenario on a standard or
Breakthrough board.  See :mod:`engine.rulesets.m44.ruleset`.
"""

from __future__ import annotations

from ...core.ruleset import register
from .ruleset import M44, M44Ruleset

register(M44)

__all__ = ["M44", "M44Ruleset"]
