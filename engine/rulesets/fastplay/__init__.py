"""Fast Play '44 (rules text 000): the ``fastplay`` ruleset.

Command Points instead of cards, units ordered one at a time anywhere on the board,
opportunity fire, defensive fire, suppression, assaults, withdrawal.  Reuses the
procedures (movement, line of sight, battle dice, hits, retreats, take ground, medals);
owns its turn machine (:mod:`.machine`, :mod:`.command`, :mod:`.moves`, :mod:`.game`),
its combat flow (:mod:`.combat`, :mod:`.fights`, :mod:`.firing`, :mod:`.retreat`,
:mod:`.aftermath`), the data it keeps (:mod:`.records`, :mod:`.markers`) and its view
(:mod:`.view`).  See docs/rules-coverage.md "Fast Play '44".
"""

from __future__ import annotations

from ...core.ruleset import register
from .ruleset import FASTPLAY, FastPlayRuleset

register(FASTPLAY)

__all__ = ["FASTPLAY", "FastPlayRuleset"]
