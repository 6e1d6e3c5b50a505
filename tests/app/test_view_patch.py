"""View patches (app/realtime/delta.py, static/util.js ``mergePatch``): applying the patch
to the previous view gives exactly the new view, nulls and removed members included, in
Python and in the browser client's JavaScript (run with node when it is installed)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from app.realtime.delta import PatchText, ViewParts, apply_patch, full_view, merge_diff
from app.engine_api import view_parts_of, views_of

ROOT = Path(__file__).resolve().parents[2]

CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"a": 1, "b": {"c": 2, "d": None}}, {"a": 1, "b": {"c": None, "d": 3}}),  # set null
    ({"a": 1, "gone": 2, "n": {"x": 1}}, {"a": 2, "n": {}}),  # removed
    ({"p": None}, {"p": {"type": "attack", "x": None}}),  # null -> obj
    ({"p": {"type": "attack"}}, {"p": None}),
    (
        {"u": [{"id": 1, "h": [1, 2]}, {"id": 2, "h": [3, 4]}, {"id": 3, "s": 4}]},
        {"u": [{"id": 1, "h": [1, 3]}, {"id": 3, "s": 4, "t": None}, {"id": 9, "h": [0, 0]}]},
    ),
    ({"u": [{"id": 1}, {"id": 2}]}, {"u": [{"id": 2}, {"id": 1}]}),  # reordered
    ({"u": [{"id": 1}]}, {"u": []}),
    ({"u": []}, {"u": [{"id": "a", "v": None}]}),
    ({"l": [1, 2]}, {"l": {"k": [1]}}),  # list -> obj
    ({"l": {"k": 1}}, {"l": [1]}),
]


def overlord_states(seed: int, steps: int) -> Iterator[tuple[Any, Any, list[str | None]]]:
    """(ruleset, state, seats + spectator): Omaha Beach Overlord, first as set up, then
    after each of ``steps`` random actions (chance steps settled)."""
    rs = engine.get_ruleset("overlord")
    scen = engine.load_scenario((ROOT / "scenarios/13-OmahaBeachOverlord.m44").read_text())
    st = rs.new_game(seed, {}, scen, "overlord")
    seats = [*rs.seats(st), None]
    yield rs, st, seats
    rng = random.Random(seed)
    for _ in range(steps):
        acts = [a for s in rs.seats(st) for a in rs.legal_actions(st, s)]
        if not acts:
            break
        st, _ev = rs.apply(st, rng.choice(acts))
        while rs.is_chance(st):
            st, _ev = rs.apply(st, rs.sample_chance(st))
        yield rs, st, seats


def overlord_views(steps: int = 150) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    play = overlord_states(3, steps)
    rs, st, seats = next(play)
    prev = {s: rs.view_for(st, s) for s in seats}
    pairs = []
    for rs, st, _seats in play:
        for s in seats:
            v = json.loads(json.dumps(rs.view_for(st, s)))
            pairs.append((prev[s], v))
            prev[s] = v
    return pairs


def test_patch_roundtrip_python() -> None:
    for old, new in CASES + overlord_views():
        patch = json.loads(json.dumps(merge_diff(old, new)))
        snapshot = json.dumps(old, sort_keys=True)
        assert apply_patch(old, patch) == new
        assert json.dumps(old, sort_keys=True) == snapshot  # the old view is not modified


def test_patch_is_small_for_overlord() -> None:
    pairs = overlord_views(60)
    full = sum(len(json.dumps(n)) for _o, n in pairs)
    patch = sum(len(json.dumps(merge_diff(o, n))) for o, n in pairs)
    assert patch * 5 < full


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_patch_roundtrip_javascript(tmp_path: Path) -> None:
    pairs = CASES + overlord_views(40)
    data = [{"old": o, "patch": merge_diff(o, n), "new": n} for o, n in pairs]
    (tmp_path / "cases.json").write_text(json.dumps(data))
    script = tmp_path / "check.mjs"
    script.write_text(
        f"import {{ mergePatch }} from {json.dumps((ROOT / 'static/util.js').as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        f"const cases = JSON.parse(readFileSync({json.dumps(str(tmp_path / 'cases.json'))}));\n"
        "let bad = 0;\n"
        "for (const c of cases) {\n"
        "  const before = JSON.stringify(c.old);\n"
        "  const got = mergePatch(c.old, c.patch);\n"
        "  const norm = (x) => JSON.stringify(x, (k, v) => (v && typeof v === 'object' && !Array.isArray(v)) ? Object.fromEntries(Object.entries(v).sort()) : v);\n"
        "  if (norm(got) !== norm(c.new) || JSON.stringify(c.old) !== before) { bad++; console.error(JSON.stringify(c.patch), norm(got), norm(c.new)); }\n"
        "}\n"
        "console.log(bad);\n"
    )
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0", out.stderr[:2000]


def test_patch_text_is_the_patch_for_every_audience() -> None:
    """``PatchText`` (one per delivery, shared by every audience) writes each audience's
    patch as ``merge_diff`` would, while the views share sub-objects (``views_of``: the
    units and the public part are one object for all nine audiences) and the fragments
    of those are serialised once."""
    for old, new in CASES:
        assert json.loads(PatchText().text(old, new)) == merge_diff(old, new)
    play = overlord_states(5, 120)
    rs, st, seats = next(play)
    prev = views_of(rs, st, seats)
    shared_parts = 0
    for rs, st, _seats in play:
        cur = views_of(rs, st, seats)
        texts = PatchText()
        for old, new in zip(prev, cur):
            text = texts.text(old, new)
            assert json.loads(text) == json.loads(json.dumps(merge_diff(old, new)))
            assert apply_patch(json.loads(json.dumps(old)), json.loads(text)) == json.loads(
                json.dumps(new)
            )
        shared_parts += len(seats) * len(cur[0]) > len(texts._parts)
        prev = cur
    assert shared_parts > 0


PART_CASES: list[tuple[Any, Any, Any, Any]] = [
    # (old common, old overlay, new common, new overlay): members moving between the
    # shared part and an overlay, overlaid members dropped, shared members removed
    (
        {"a": 1, "b": 2, "s": {"h": 1}},
        {"s": {"h": 1, "hand": [1]}},
        {"a": 1, "b": 3, "s": {"h": 2}},
        {"s": {"h": 2, "hand": [1, 2]}},
    ),
    ({"a": 1, "p": None}, {"p": {"type": "x"}}, {"a": 1, "p": None}, {}),  # overlay gone
    ({"a": 1, "p": None}, {}, {"a": 1, "p": None}, {"p": {"type": "x"}}),  # overlay new
    ({"a": 1, "gone": 2}, {"mine": 1}, {"a": 2}, {}),  # both removed
    ({"a": 1}, {"x": 1}, {"a": 1, "x": 5}, {}),  # to the shared
    ({"a": 1, "x": 5}, {}, {"a": 1}, {"x": 5}),  # to the overlay
    ({}, {"a": 1, "b": {"c": 2}}, {"a": 1, "b": {"c": 3}}, {"z": 0}),  # a whole old view
]


def test_patch_of_view_parts_is_the_patch_of_the_views() -> None:
    """``PatchText.patch`` of :class:`ViewParts` (the delivery's shared part patched once,
    each audience's overlay apart) is ``merge_diff`` of the whole views, for members
    moving between the parts, and for a whole view (hello, sync) as the old one; then on
    Omaha Beach Overlord's parts (``view_parts_of``) for all nine audiences."""
    for oc, oo, nc, no in PART_CASES:
        old = ViewParts(oc, oo) if oc else oo
        new = ViewParts(nc, no)
        assert json.loads(PatchText().patch(old, new)) == merge_diff({**oc, **oo}, {**nc, **no})
    play = overlord_states(8, 120)
    rs, st, seats = next(play)
    common, overs = view_parts_of(rs, st, seats)
    prev: list[Any] = [ViewParts(common, o) for o in overs]
    prev[0] = prev[0].full()  # one audience holds the whole view of a hello
    for i, (rs, st, _seats) in enumerate(play):
        common, overs = view_parts_of(rs, st, seats)
        cur = [ViewParts(common, o) for o in overs]
        texts = PatchText()
        for old, new in zip(prev, cur):
            whole_old, whole_new = full_view(old), new.full()
            text = texts.patch(old, new)
            assert json.loads(text) == json.loads(json.dumps(merge_diff(whole_old, whole_new)))
            assert apply_patch(json.loads(json.dumps(whole_old)), json.loads(text)) == json.loads(
                json.dumps(whole_new)
            )
            assert new.get("units") is whole_new["units"] and "overlord" in new
        assert len(texts._changed) == 1 + (i == 0)  # the shared part: once per pair
        prev = cur
