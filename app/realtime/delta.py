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
    if list(b) != kept + added:          # reordered: the whole list
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


def merge_diff(old: dict[str, Any], new: dict[str, Any],
               memo: Memo | None = None) -> dict[str, Any]:
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


class PatchText:
    """The texts of the view patches of one delivery: each top-level member's patch is
    serialised once per pair of (old, new) objects, however many audiences' views share
    them (the units, the public part), and every audience's patch is the join of those
    fragments.  ``text(old, new)`` is ``dumps(merge_diff(old, new))`` (same members, same
    order); the views must stay alive and unchanged while the object is used."""

    __slots__ = ("memo", "_parts")

    def __init__(self) -> None:
        self.memo: Memo = {}
        # id(new member) -> (old member, name, fragment): the new members stay alive
        # in their views for the whole delivery, so an id names one object
        self._parts: dict[int, tuple[Any, str, str]] = {}

    def text(self, old: dict[str, Any], new: dict[str, Any]) -> str:
        parts = []
        cache = self._parts
        for k, v in new.items():
            o = old.get(k, _ABSENT)
            if o is v:
                continue
            hit = cache.get(id(v))
            if hit is not None and hit[0] is o and hit[1] == k:
                part = hit[2]
            else:
                part = self._part(k, o, v)
                cache[id(v)] = (o, k, part)
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
