"""The compiled copies of pure-Python modules (scripts/build_native.py, app/realtime/native.py):
taken only when built from the very source, and the same results as the pure code."""
from __future__ import annotations

import hashlib
import importlib.util
import random
import types
from typing import Any

import pytest

from app.realtime import delta, native


def _module(name: str = "pkg.mod") -> dict[str, Any]:
    """A module's globals: two functions and a class of its own, one imported name."""
    ns: dict[str, Any] = {"__name__": name}
    exec("def f():\n    return 'pure f'\n"
         "def g():\n    return 'pure g'\n"
         "class C:\n    kind = 'pure'\n", ns)
    ns["imported"] = hashlib.sha256         # not the module's own: never swapped
    return ns


def _compiled(source: bytes, **members: Any) -> Any:
    return types.SimpleNamespace(SOURCE_SHA=hashlib.sha256(source).hexdigest(), **members)


def test_swap_takes_the_copy_built_from_this_source() -> None:
    ns = _module()
    fake = _compiled(b"the source", f=lambda: "native f", C=type("C", (), {"kind": "native"}),
                     imported=lambda: "not this")
    assert native.swap(ns, fake, b"the source")
    assert ns["f"]() == "native f" and ns["C"].kind == "native"
    assert ns["g"]() == "pure g"                       # the copy has none: kept
    assert ns["imported"] is hashlib.sha256           # imported, not the module's own


def test_swap_refuses_a_copy_of_another_source() -> None:
    """An edited module never runs the stale compiled copy of its old text."""
    ns = _module()
    fake = _compiled(b"the old source", f=lambda: "stale f")
    assert not native.swap(ns, fake, b"the source, edited")
    assert ns["f"]() == "pure f"
    assert not native.swap(ns, types.SimpleNamespace(f=lambda: "no sha"), b"the source")
    assert ns["f"]() == "pure f"


def test_adopt_stays_pure_when_turned_off_or_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OVERLORD_NATIVE", "0")
    assert not native.adopt({"__name__": "app.realtime.delta", "__file__": delta.__file__})
    monkeypatch.delenv("OVERLORD_NATIVE")
    assert not native.adopt({"__name__": "app.realtime.nothing_built",
                             "__file__": delta.__file__})
    assert not native.adopt({"__name__": "app.realtime._delta_native"})    # the copy itself
    assert not native.adopt({"__name__": "app.realtime.delta"})     # no source file to compare


def _value(rng: random.Random, depth: int) -> Any:
    r = rng.random()
    if depth <= 0 or r < 0.4:
        return rng.choice([None, True, False, 0, 1, 7, -3, 2.5, "", "a", "b", "x y"])
    if r < 0.6:
        return [_value(rng, depth - 1) for _ in range(rng.randrange(4))]
    if r < 0.8:                             # records with ids: the ``~id`` list patches
        ids = rng.sample(range(8), rng.randrange(1, 5))
        return [{"id": i, **_obj(rng, depth - 1, 3)} for i in ids]
    return _obj(rng, depth - 1, 4)


def _obj(rng: random.Random, depth: int, width: int) -> dict[str, Any]:
    return {rng.choice("pqrstuvw"): _value(rng, depth) for _ in range(rng.randrange(width + 1))}


def _mutate(rng: random.Random, v: Any, depth: int = 3) -> Any:
    """A variant of ``v`` sharing most of its objects (as views of two actions do)."""
    if isinstance(v, dict):
        out = dict(v)
        for k in list(out):
            r = rng.random()
            if r < 0.15:
                del out[k]
            elif r < 0.45:
                out[k] = _mutate(rng, out[k], depth - 1) if depth > 0 else _value(rng, 1)
        if rng.random() < 0.3:
            out[rng.choice("pqrstuvw")] = _value(rng, 2)
        return out
    if isinstance(v, list) and rng.random() < 0.7:
        out_l = [(_mutate(rng, x, depth - 1) if rng.random() < 0.3 else x) for x in v]
        if out_l and rng.random() < 0.2:
            out_l.pop(rng.randrange(len(out_l)))
        return out_l
    return _value(rng, 2) if rng.random() < 0.5 else v


def _pure_delta() -> Any:
    """app/realtime/delta.py loaded again under another name, which has no compiled copy."""
    spec = importlib.util.spec_from_file_location("app.realtime._pure_delta", delta.__file__)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert not mod.NATIVE
    return mod


@pytest.mark.skipif(not delta.NATIVE, reason="the compiled copy is not built here")
def test_compiled_patches_are_the_pure_ones() -> None:
    """The same patches and texts from the compiled code as from the pure code, on random
    views whose parts are shared or changed as the server's are."""
    pure = _pure_delta()
    assert delta.PatchText is not pure.PatchText
    assert type(delta.PatchText.patch).__name__ != "function"     # compiled
    rng = random.Random(14)
    for _ in range(400):
        old_c, old_o = _obj(rng, 4, 6), _obj(rng, 3, 3)
        new_c, new_o = _mutate(rng, old_c), _mutate(rng, old_o)
        for mod in (delta, pure):
            old = mod.ViewParts(old_c, old_o)
            new = mod.ViewParts(new_c, new_o)
            texts = mod.PatchText()
            got = (texts.patch(old, new), texts.patch(old.full(), new),
                   texts.text(old.full(), new.full()),
                   mod.merge_diff(old.full(), new.full()))
            if mod is delta:
                compiled = got
            else:
                assert got == compiled
        patch = delta.merge_diff({**old_c, **old_o}, {**new_c, **new_o})
        assert delta.apply_patch({**old_c, **old_o}, patch) == \
            pure.apply_patch({**old_c, **old_o}, patch) == {**new_c, **new_o}


def test_the_compiled_copy_is_built_wherever_it_can_be(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a C compiler and the Python headers, `make install` builds the copy and the
    module takes it: a build that broke (a type error mypyc refuses, say) fails here
    instead of leaving the server slower without a word.  After an edit of
    app/realtime/delta.py, `make test` (or `make install`) compiles it again."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "build_native.py"
    spec = importlib.util.spec_from_file_location("build_native", path)
    assert spec is not None and spec.loader is not None
    build_native = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_native)
    if build_native.compiler_missing() is not None:
        pytest.skip(build_native.compiler_missing())
    import os
    if os.environ.get("OVERLORD_NATIVE", "1") == "0":
        pytest.skip("OVERLORD_NATIVE=0")
    assert build_native.up_to_date("app/realtime/delta.py"), \
        "app/realtime/delta.py has no compiled copy of its current text: run " \
        ".venv/bin/python scripts/build_native.py"
    assert delta.NATIVE
