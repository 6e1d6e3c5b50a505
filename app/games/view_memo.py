"""The server's memo of a game's last view parts, so that the members of a new view that
equal the last ones ARE the last objects.

The engine computes every view from the state alone (no cache in the state, nothing kept
between calls).  The server patches each audience's view against the one it sent last
(``app/realtime/delta.py``), skipping by identity the members that are the same object:
:class:`ViewMemo` gives it that identity.  One per game (``GameRuntime.view_memo``), fed
with each delivery's ``(common, overlays)`` (``view_parts_of``): every member of the
common part and of each audience's overlay that equals the last one's (same type) is
replaced by the last one's object, a part equal in every member by the last part itself,
and the records of a list of records with ``id`` (the units) one by one.  Views are never
mutated once handed out, so a kept object stays what it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

View = dict[str, Any]
_NONE = object()
MAX_AUDIENCES = 64  # overlays kept per game (beyond: the memo starts again)


def _records(old: list[Any], new: list[Any]) -> list[Any]:
    """``new`` with each record (a dict with ``id``) equal to ``old``'s record of that id
    replaced by it; ``old`` itself when every record is."""
    by_id = {r.get("id"): r for r in old if type(r) is dict}
    same = len(old) == len(new)
    for i, r in enumerate(new):
        o = by_id.get(r.get("id"), _NONE) if type(r) is dict else _NONE
        if o is r:
            continue
        if o is not _NONE and o == r:
            new[i] = o
            same = same and old[i] is o
        else:
            same = False
    return old if same else new


def same(old: View | None, new: View) -> View:
    """``new`` with every member equal to ``old``'s (same type) replaced by ``old``'s
    object; ``old`` itself when all are (and no member was added or removed).  ``new`` is
    a fresh dict of the engine's (its members are replaced, never mutated)."""
    if old is None:
        return new
    equal = len(old) == len(new)
    for k, v in new.items():
        o = old.get(k, _NONE)
        if o is v:
            continue
        if o is not _NONE and type(o) is type(v):
            if o == v:
                new[k] = o
                continue
            if type(v) is list and v and type(v[0]) is dict and "id" in v[0]:
                new[k] = _records(o, list(v))
        equal = False
    return old if equal else new


class ViewMemo:
    """The last common part and the last overlay of each audience of one game."""

    def __init__(self) -> None:
        self.common: View | None = None
        self.overlays: dict[str | None, View] = {}

    def intern(
        self, common: View, overlays: Sequence[View], seats: Sequence[str | None]
    ) -> tuple[View, list[View]]:
        """``(common, overlays)`` of ``seats`` with the unchanged members the last
        objects (equal values: ``{**common, **overlays[i]}`` is the same view)."""
        common = self.common = same(self.common, dict(common))
        out = [same(self.overlays.get(s), dict(o)) for s, o in zip(seats, overlays)]
        if len(self.overlays) >= MAX_AUDIENCES:
            self.overlays.clear()
        self.overlays.update(zip(seats, out))
        return common, out
