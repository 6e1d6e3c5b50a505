"""The rule systems of this server, one package each, registered on import.

Each package registers one or more :class:`engine.core.ruleset.Ruleset` objects with
:func:`engine.core.ruleset.register`; importing this package fills the registry.  Add a
ruleset by adding its package and one import line here (docs/architecture.md).
"""

from __future__ import annotations

from . import m44, overlord  # noqa: F401  (register the m44 and overlord rulesets)
from . import portable  # noqa: F401  (registers "portable")
from . import france1944  # noqa: F401  (the France 1944 revised combat referee, 001)
from . import fastplay  # noqa: F401  (Fast Play '44, 000; after m44: natural_for() picks m44)
from .overlord import OVERLORD

# whose chat rules read a view of unknown origin (None, {}): the strictest ones (002
# chain of command: no line between a commander and his generals is open)
STRICT_CHAT = OVERLORD
