"""The rule systems of this server, one package each, registered on import.

Each package registers one or more :class:`engine.core.ruleset.Ruleset` objects with
:func:`engine.core.ruleset.register`; importing this package fills the registry.  Add a
ruleset by adding its package and one import line here (docs/architecture.md).
"""
from __future__ import annotations

from . import m44, overlord  # noqa: I001  (registration order = lobby order)
from . import fastplay  # after m44: natural_for() picks m44 for a bare scenario
