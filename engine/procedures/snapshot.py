"""Versioned, portable snapshots of a :class:`~engine.procedures.state.GameState` (JSON, not pickle).

A snapshot is a JSON object (docs/architecture.md "Snapshots")::

    {"format": 1, "ruleset": "m44", "version": "1",
     "objects": [...],          # interned immutable values (unit profiles, tiles, mines)
     "state": {slot: value}}    # every GameState slot but the scenario and hooks

Values are plain JSON where JSON can say them; otherwise a one-key object tags them:
``{"$t": [...]}`` tuple, ``{"$set": [...]}`` / ``{"$fs": [...]}`` set / frozenset,
``{"$map": [[k, v], ...]}`` a dict whose keys are not all plain strings,
``{"$ext": [[k, v], ...]}`` the mode data (``state.ShallowExt``),
``{"$o": "Unit", "f": {...}}`` an object of one of the classes of :data:`CLASSES`
(by slot), ``{"$ref": i}`` entry ``i`` of ``objects`` (``{"$o", "f"}`` of a frozen
dataclass, each stored once).  Only the classes of :data:`CLASSES` can be built when
loading: unlike a pickle, a snapshot read from a database runs no code it names.

The scenario is not in the snapshot: :func:`load_state` takes it (the game row names it).
``ruleset`` and ``version`` are the ruleset's (``engine/rulesets/m44``: ``m44`` /
``overlord``, its ``version``).  A snapshot is valid only for the ``format``, ruleset and
version that wrote it; :func:`load_state` refuses any other with
``EngineError("snapshot_version")`` and a
malformed one with ``EngineError("snapshot_format")``: the caller then replays the log
(the log is the truth, a snapshot only shortens a cold start).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core.errors import EngineError
from ..core.rng import Rng
from ..core.terrain import TerrainSpec, Tile
from ..core.terrain_table import TERRAIN
from ..core.units import UnitSpec
from .state import Battle, GameState, Mine, Play, Quota, ShallowExt, Unit

#: the snapshot encoding; bump it when ``GameState`` or a class of CLASSES changes shape
FORMAT = 1

#: the only classes a snapshot may build
CLASSES: dict[str, type[Any]] = {
    c.__name__: c for c in (Unit, Play, Battle, Quota, Rng, Mine, UnitSpec, TerrainSpec, Tile)
}
_INTERNED = (UnitSpec, TerrainSpec, Tile, Mine)  # frozen dataclasses: stored once
_SKIP = {"Play": {"memo"}}  # caches, rebuilt on demand
# the scenario and the hook table are the game's, not the state's: the loader's caller
# (the ruleset) gives the scenario and builds the table again
_STATE_SLOTS = tuple(s for s in GameState.__slots__ if s not in ("scn", "hooks", "owned"))


def _fields(cls: type[Any]) -> tuple[str, ...]:
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls))
    return tuple(cls.__slots__)


_FIELDS = {name: _fields(cls) for name, cls in CLASSES.items()}


class _Encoder:
    def __init__(self) -> None:
        self.objects: list[dict[str, Any]] = []
        self.index: dict[Any, int] = {}

    def enc(self, x: Any) -> Any:
        t = type(x)
        if x is None or t is bool or t is int or t is str or t is float:
            return x
        if t is list:
            return [self.enc(v) for v in x]
        if t is tuple:
            return {"$t": [self.enc(v) for v in x]}
        if t is dict:
            if all(type(k) is str and not k.startswith("$") for k in x):
                return {k: self.enc(v) for k, v in x.items()}
            return {"$map": [[self.enc(k), self.enc(v)] for k, v in x.items()]}
        if t is ShallowExt:
            return {"$ext": [[self.enc(k), self.enc(v)] for k, v in x.items()]}
        if t is set or t is frozenset:
            return {"$set" if t is set else "$fs": [self.enc(v) for v in sorted(x, key=repr)]}
        if t in _INTERNED:
            i = self.index.get(x)
            if i is None:
                entry = self._object(x)  # children first: lower indices
                i = self.index[x] = len(self.objects)
                self.objects.append(entry)
            return {"$ref": i}
        if t.__name__ in CLASSES and CLASSES[t.__name__] is t:
            return self._object(x)
        raise EngineError("snapshot_format", f"cannot snapshot a {t.__name__}")

    def _object(self, x: Any) -> dict[str, Any]:
        name = type(x).__name__
        skip = _SKIP.get(name, ())
        return {
            "$o": name,
            "f": {f: self.enc(getattr(x, f)) for f in _FIELDS[name] if f not in skip},
        }


def dump_state(
    st: GameState, ruleset: str | None = None, version: str | None = None
) -> dict[str, Any]:
    """The snapshot of ``st`` as JSON-able data (``orjson.dumps`` it to store it), marked
    with the ``ruleset`` name and ``version`` that wrote it."""
    e = _Encoder()
    state = {s: e.enc(getattr(st, s)) for s in _STATE_SLOTS}
    return {
        "format": FORMAT,
        "ruleset": ruleset,
        "version": version,
        "objects": e.objects,
        "state": state,
    }


class _Decoder:
    def __init__(self, objects: list[Any]) -> None:
        self.objects: list[Any] = []
        for entry in objects:
            self.objects.append(self._object(entry))

    def dec(self, x: Any) -> Any:
        t = type(x)
        if x is None or t is bool or t is int or t is str or t is float:
            return x
        if t is list:
            return [self.dec(v) for v in x]
        if t is not dict:
            raise EngineError("snapshot_format", f"unexpected {t.__name__} in a snapshot")
        if len(x) == 1:
            ((k, v),) = x.items()
            if k == "$t":
                return tuple(self.dec(i) for i in v)
            if k == "$set":
                return {self.dec(i) for i in v}
            if k == "$fs":
                return frozenset(self.dec(i) for i in v)
            if k == "$map":
                return {self.dec(a): self.dec(b) for a, b in v}
            if k == "$ext":
                return ShallowExt((self.dec(a), self.dec(b)) for a, b in v)
            if k == "$ref":
                if type(v) is not int or not 0 <= v < len(self.objects):
                    raise EngineError("snapshot_format", f"bad object reference {v!r}")
                return self.objects[v]
        if "$o" in x:
            return self._object(x)
        if any(k.startswith("$") for k in x):
            raise EngineError("snapshot_format", "unknown tag in a snapshot")
        return {k: self.dec(v) for k, v in x.items()}

    def _object(self, x: Any) -> Any:
        if not isinstance(x, dict) or set(x) != {"$o", "f"} or not isinstance(x["f"], dict):
            raise EngineError("snapshot_format", 'an object is {"$o": class, "f": fields}')
        name = x["$o"]
        cls = CLASSES.get(name) if isinstance(name, str) else None
        if cls is None:
            raise EngineError("snapshot_format", f"class {name!r} may not be in a snapshot")
        wanted = set(_FIELDS[name]) - set(_SKIP.get(name, ()))
        if set(x["f"]) != wanted:
            raise EngineError("snapshot_version", f"{name} fields differ from this engine's")
        obj = object.__new__(cls)  # no class of CLASSES defines __new__
        for k, v in x["f"].items():
            object.__setattr__(obj, k, self.dec(v))
        for k in _SKIP.get(name, ()):
            object.__setattr__(obj, k, None)
        if cls is TerrainSpec:  # the engine's own table entry if equal
            known = TERRAIN.get(obj.code)
            if known == obj:
                return known
        return obj


def load_state(
    data: Any, scenario: Any, ruleset: str | None = None, version: str | None = None
) -> GameState:
    """The state a :func:`dump_state` snapshot describes, on ``scenario``; ``ruleset`` /
    ``version`` given: the snapshot must have been written by them.  The state has no
    hook table yet: the ruleset sets ``hooks`` (built from the state's options and mode)."""
    if not isinstance(data, dict):
        raise EngineError("snapshot_format", "a snapshot is a JSON object")
    if (
        data.get("format") != FORMAT
        or (ruleset is not None and data.get("ruleset") != ruleset)
        or (version is not None and data.get("version") != version)
    ):
        raise EngineError(
            "snapshot_version",
            f"snapshot format {data.get('format')!r} of "
            f"{data.get('ruleset')!r} {data.get('version')!r}; this engine "
            f"reads format {FORMAT} of {ruleset!r} {version!r}",
            format=data.get("format"),
            version=data.get("version"),
        )
    objects, state = data.get("objects"), data.get("state")
    if (
        not isinstance(objects, list)
        or not isinstance(state, dict)
        or set(state) != set(_STATE_SLOTS)
    ):
        raise EngineError(
            "snapshot_version", "the snapshot's state fields differ from this engine's"
        )
    try:
        d = _Decoder(objects)
        st = GameState.__new__(GameState)
        st.scn = scenario
        for s in _STATE_SLOTS:
            setattr(st, s, d.dec(state[s]))
    except EngineError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        raise EngineError("snapshot_format", f"malformed snapshot: {exc}") from None
    st.owned = set(st.units)
    return st
