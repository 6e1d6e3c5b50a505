"""View deltas for ``update`` messages (docs/protocol.md "View patches").

A patch is a JSON merge patch (RFC 7386) of the previous view the connection received,
exact for nulls and with one extension for lists of records:

* an object patch lists the members that changed (a nested object: its own patch;
  anything else: the new value, ``null`` included: it SETS null); members removed are
  named in ``"~del": [...]`` (RFC 7386 would remove on null, which cannot keep a null);
* a list of records with a unique ``id`` (the units) whose new order keeps the old one
  (records removed, records added at the end) is patched as ``{"~id": {"<id>": patch of
  that record | null (removed)}, "~add": [new records, in order]}`` (``~add`` only when
  records were added); any other list is sent whole.

Applying a view's patch to the previous view gives exactly the new view.  The server
holds no rules here: it compares two views the ruleset produced.
"""

from __future__ import annotations

from typing import Any

from ..jsontext import dumps

ID_KEY = "~id"
ADD_KEY = "~add"
DEL_KEY = "~del"


def _records(xs: Any) -> dict[Any, dict[str, Any]] | None:
    """``{id: record}`` for a list of dicts with distinct ``id``s, else None."""
    if not isinstance(xs, list) or not xs:
        return None
    out: dict[Any, dict[str, Any]] = {}
    for x in xs:
        if not isinstance(x, dict) or "id" not in x:
            return None
        i = x["id"]
        if not isinstance(i, (int, str)) or isinstance(i, bool) or i in out:
            return None
        out[i] = x
    return out


Memo = dict[tuple[int, int], Any]


def _list_patch(old: list[Any], new: list[Any], memo: Memo | None = None) -> Any:
    a, b = _records(old), _records(new)
    if a is None or b is None:
        return new
    kept = [i for i in a if i in b]
    added = [i for i in b if i not in a]
    if list(b) != kept + added:  # reordered: the whole list
        return new
    patch: dict[str, Any] = {}
    for i in a:
        if i not in b:
            patch[str(i)] = None
        elif a[i] is not b[i] and a[i] != b[i]:
            patch[str(i)] = merge_diff(a[i], b[i], memo)
    out: dict[str, Any] = {ID_KEY: patch}
    if added:
        out[ADD_KEY] = [b[i] for i in added]
    return out


def merge_diff(
    old: dict[str, Any], new: dict[str, Any], memo: Memo | None = None
) -> dict[str, Any]:
    """The patch that turns ``old`` into ``new`` (``{}``: equal).

    ``memo``: patches of nested objects already computed, by ``(id(old), id(new))``: the
    views of several audiences share sub-objects (the units, the public part), so the
    fan-out diffs each shared pair once.  The objects must stay alive and unchanged while
    the memo is used (one delivery)."""
    patch: dict[str, Any] = {}
    for k, v in new.items():
        if k not in old:
            patch[k] = v
            continue
        o = old[k]
        if o is v:
            continue
        if isinstance(v, dict) and isinstance(o, dict):
            sub = _memo(memo, o, v, _dict_diff)
            if sub:
                patch[k] = sub
        elif isinstance(v, list) and isinstance(o, list):
            sub = _memo(memo, o, v, _list_diff)
            if sub is not None:
                patch[k] = sub
        elif o != v or type(o) is not type(v):
            patch[k] = v
    gone = [k for k in old if k not in new]
    if gone:
        patch[DEL_KEY] = gone
    return patch


def _dict_diff(old: dict[str, Any], new: dict[str, Any], memo: Memo | None) -> Any:
    """{} when equal (one comparison in C: most nested members of a rebuilt view did not
    change), else the dict's patch."""
    return {} if old == new else merge_diff(old, new, memo)


def _list_diff(old: list[Any], new: list[Any], memo: Memo | None) -> Any:
    """None when equal, else the list's patch."""
    return None if old == new else _list_patch(old, new, memo)


def _memo(memo: Memo | None, o: Any, v: Any, diff: Any) -> Any:
    if memo is None:
        return diff(o, v, None)
    key = (id(o), id(v))
    out = memo.get(key, memo)
    if out is memo:
        out = memo[key] = diff(o, v, memo)
    return out


_ABSENT = object()
_EMPTY: dict[str, Any] = {}


class ViewParts:
    """A view as the ruleset's shared ``common`` part and one seat's ``over`` (members
    that replace or extend it): the view is ``{**common, **over}`` (``view_parts_of``).
    Read-only; ``get`` and ``in`` as the view's (the chat policy reads a few members),
    :meth:`full` the view itself (built once)."""

    __slots__ = ("common", "over", "_full")

    def __init__(self, common: dict[str, Any], over: dict[str, Any]) -> None:
        self.common, self.over = common, over
        self._full: dict[str, Any] | None = None

    def get(self, key: str, default: Any = None) -> Any:
        v = self.over.get(key, _ABSENT)
        return self.common.get(key, default) if v is _ABSENT else v

    def __contains__(self, key: object) -> bool:
        return key in self.over or key in self.common

    def full(self) -> dict[str, Any]:
        if self._full is None:
            self._full = {**self.common, **self.over}
        return self._full


def full_view(view: ViewParts | dict[str, Any]) -> dict[str, Any]:
    return view.full() if type(view) is ViewParts else view  # type: ignore[return-value]


class PatchText:
    """The texts of the view patches of one delivery: each top-level member's patch is
    serialised once per pair of (old, new) objects, however many audiences' views share
    them (the units, the public part), and every audience's patch is the join of those
    fragments.  ``text(old, new)`` is ``dumps(merge_diff(old, new))`` (same members, same
    order); the views must stay alive and unchanged while the object is used."""

    __slots__ = ("memo", "_parts", "_changed")

    def __init__(self) -> None:
        self.memo: Memo = {}
        # id(new member) -> (old member, name, fragment): the new members stay alive
        # in their views for the whole delivery, so an id names one object
        self._parts: dict[int, tuple[Any, str, str]] = {}
        # (id(old common), id(new common)) -> (old, new, members whose object changed,
        # members gone, their (name, fragment)s): once per delivery for every audience
        # whose views share them
        self._changed: dict[
            tuple[int, int], tuple[Any, Any, list[str], list[str], list[tuple[str, str]] | None]
        ] = {}

    def patch(self, old: ViewParts | dict[str, Any], new: ViewParts | dict[str, Any]) -> str:
        """``text(full old view, full new view)`` (same members, in another order), from
        the views' parts when the new view has them: the shared part's changed members
        are found once per delivery, then each audience looks only at its own overlays
        (a few members) instead of every member of both views."""
        if type(new) is not ViewParts:
            return self.text(full_view(old), new)  # type: ignore[arg-type]
        oc: dict[str, Any]
        oo: dict[str, Any]
        if isinstance(old, ViewParts):
            oc, oo = old.common, old.over
        else:  # a whole view (hello, sync): every member is its overlay
            oc, oo = _EMPTY, old
        assert isinstance(new, ViewParts)
        nc, no = new.common, new.over
        key = (id(oc), id(nc))
        hit = self._changed.get(key)
        if hit is None or hit[0] is not oc or hit[1] is not nc:
            changed = [k for k, v in nc.items() if oc.get(k, _ABSENT) is not v]
            # the shared members' fragments, once per delivery (a whole old view: none,
            # its members are all its overlay's)
            frags = (
                None
                if oc is _EMPTY
                else [(k, p) for k in changed if (p := self._member(k, oc.get(k, _ABSENT), nc[k]))]
            )
            hit = self._changed[key] = (oc, nc, changed, [k for k in oc if k not in nc], frags)
        gone: list[str] = []
        if hit[4] is not None:  # shared members that changed, not overlaid
            parts = [p for k, p in hit[4] if k not in no and k not in oo]
        else:
            parts = []
            for k in hit[2]:
                if k in no or k in oo:
                    continue
                part = self._member(k, oc.get(k, _ABSENT), nc[k])
                if part:
                    parts.append(part)
        for k in hit[3]:
            if k not in no and k not in oo:
                gone.append(k)
        for k, v in no.items():  # the new overlay against the old view
            o = oo.get(k, _ABSENT)
            if o is _ABSENT:
                o = oc.get(k, _ABSENT)
            if o is not v:
                part = self._member(k, o, v)
                if part:
                    parts.append(part)
        for k, o in oo.items():  # the old overlay's members the new one dropped
            if k in no:
                continue
            v = nc.get(k, _ABSENT)
            if v is _ABSENT:
                gone.append(k)
            elif o is not v:
                part = self._member(k, o, v)
                if part:
                    parts.append(part)
        if gone:
            parts.append(dumps({DEL_KEY: gone})[1:-1])
        return "{" + ",".join(parts) + "}"

    def _member(self, k: str, o: Any, v: Any) -> str:
        """``_part`` through the fragment cache: the fragment of member ``k`` from ``o`` to
        ``v``, computed once per delivery for every audience whose views share ``v``."""
        hit = self._parts.get(id(v))
        if hit is not None and hit[0] is o and hit[1] == k:
            return hit[2]
        part = self._part(k, o, v)
        self._parts[id(v)] = (o, k, part)
        return part

    def text(self, old: dict[str, Any], new: dict[str, Any]) -> str:
        parts = []
        for k, v in new.items():
            o = old.get(k, _ABSENT)
            if o is v:
                continue
            part = self._member(k, o, v)
            if part:
                parts.append(part)
        gone = [k for k in old if k not in new]
        if gone:
            parts.append(dumps({DEL_KEY: gone})[1:-1])
        return "{" + ",".join(parts) + "}"

    def _part(self, k: str, o: Any, v: Any) -> str:
        """``"k":patch`` of one member, or "" when it did not change."""
        if o is _ABSENT:
            p = v
        elif isinstance(v, dict) and isinstance(o, dict):
            p = _memo(self.memo, o, v, _dict_diff)
            if not p:
                return ""
        elif isinstance(v, list) and isinstance(o, list):
            p = _memo(self.memo, o, v, _list_diff)
            if p is None:
                return ""
        elif o != v or type(o) is not type(v):
            p = v
        else:
            return ""
        return dumps({k: p})[1:-1]


def apply_patch(target: Any, patch: Any) -> Any:
    """Apply a patch (what static/util.js ``mergePatch`` does; tests and the bench)."""
    if not isinstance(patch, dict):
        return patch
    if ID_KEY in patch and isinstance(target, list):
        items = patch[ID_KEY]
        out = []
        seen = set()
        for x in target:
            k = str(x.get("id")) if isinstance(x, dict) else None
            if k is not None and k in items:
                seen.add(k)
                if items[k] is None:
                    continue
                x = apply_patch(dict(x), items[k])
            out.append(x)
        out.extend(patch.get(ADD_KEY) or [])
        return out
    out_d = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if k == DEL_KEY:
            for gone in v:
                out_d.pop(gone, None)
        elif isinstance(v, dict) and isinstance(out_d.get(k), (dict, list)):
            out_d[k] = apply_patch(out_d[k], v)
        else:
            out_d[k] = v
    return out_d
