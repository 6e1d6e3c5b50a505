"""Computer players for every rule system that has players (``france1944`` is a referee).

:class:`Player` decides from its seat's view (plus a determinization of what it cannot
see) with a heuristic evaluation and a bounded one-ply search; :data:`NAMES` are the
levels (``random``, ``easy``, ``normal``, ``hard``).  docs/ai.md has the method and the
measured strength.
"""

from __future__ import annotations

from .player import LEVELS, NAMES, Level, Player, choose_action

__all__ = ["LEVELS", "NAMES", "Level", "Player", "choose_action"]
