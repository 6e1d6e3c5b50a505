"""Overlord (rules 002) and 004 Team Play: the ``overlord`` ruleset.

Per side a Commander-in-Chief and three Field Generals (modes ``team`` on a standard or
Breakthrough board, ``overlord`` on an Overlord board).  See
:mod:`engine.rulesets.overlord.ruleset`.
"""

from __future__ import annotations

from ...core.ruleset import register
from .ruleset import OVERLORD, OverlordRuleset

register(OVERLORD)

__all__ = ["OVERLORD", "OverlordRuleset"]
