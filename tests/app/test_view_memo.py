"""app/games/view_memo.py: the server's memo of a game's last view parts.  Over a
random Overlord game (seeded), every interned view equals the engine's view (the memo
changes identities, never values), and the unchanged members of one action's views are
the objects of the previous action's (what the patches skip by identity): the units
records one by one, and most of the common part."""

from __future__ import annotations

import json
import random
from pathlib import Path

from app.engine_api import ruleset, scenario_from_text, view_parts_of
from app.games.view_memo import ViewMemo, same

ROOT = Path(__file__).resolve().parents[2] / "scenarios"


def test_interned_views_equal_the_engines_and_reuse_unchanged_members() -> None:
    rs = ruleset("overlord")
    scn = scenario_from_text((ROOT / "13-OmahaBeachOverlord.m44").read_text())
    st = rs.new_game(7, {}, scn, "overlord")
    memo, rng = ViewMemo(), random.Random(7)
    seats = [None, *rs.seats(st)]
    reused_units = reused_common = steps = 0
    last_units: dict[str, int] = {}
    for _ in range(150):
        if rs.is_over(st):
            break
        common, overlays = memo.intern(*view_parts_of(rs, st, seats), seats)
        for s, over in zip(seats, overlays):
            assert json.dumps({**common, **over}) == json.dumps(rs.view_for(st, s))
        ids = {u["id"]: id(u) for u in common["units"]}
        reused_units += sum(1 for k, v in ids.items() if last_units.get(k) == v)
        last_units = ids
        steps += 1
        action = (
            rs.sample_chance(st)
            if rs.is_chance(st)
            else rng.choice(rs.legal_actions(st, rs.to_act(st)[0]))
        )
        before = memo.common
        st, _ = rs.apply(st, action)
        after, _ = memo.intern(*view_parts_of(rs, st, seats), seats)
        reused_common += sum(1 for k, v in after.items() if before and before.get(k) is v)
    assert steps > 100
    assert reused_units > steps * 20  # most unit records survive an action
    assert reused_common > steps * 3


def test_same_keeps_the_old_object_only_for_equal_values() -> None:
    old = {"a": [1], "units": [{"id": "u1", "hex": [1, 2]}, {"id": "u2", "hex": [3, 4]}]}
    new = {"a": [1], "units": [{"id": "u1", "hex": [1, 2]}, {"id": "u2", "hex": [5, 4]}]}
    got = same(old, new)
    assert got == {"a": [1], "units": [{"id": "u1", "hex": [1, 2]}, {"id": "u2", "hex": [5, 4]}]}
    assert got["a"] is old["a"] and got["units"][0] is old["units"][0]
    assert got["units"] is not old["units"] and got["units"][1] is not old["units"][1]
    assert same(old, json.loads(json.dumps(old))) is old


def test_unchanged_members_stay_the_same_objects() -> None:
    """The common part's and each overlay's members equal to the last views' are those
    very objects (the server's patches skip them by identity): after an Overlord action,
    most of the common part is the previous one's."""
    rs = ruleset("overlord")
    scn = scenario_from_text((ROOT / "13-OmahaBeachOverlord.m44").read_text())
    st = rs.new_game(9, {}, scn, "overlord")
    memo, rng = ViewMemo(), random.Random(9)
    kept = total = 0
    prev = None
    for _ in range(120):
        if rs.is_over(st):
            break
        seats = [None, *rs.seats(st)]
        common, overlays = memo.intern(*view_parts_of(rs, st, seats), seats)
        if prev is not None:
            for k, v in common.items():
                total += 1
                kept += prev[0].get(k) is v
                if prev[0].get(k) is not v:
                    assert prev[0].get(k) != v or type(prev[0].get(k)) is not type(v), k
            for s, over, old in zip(seats, overlays, prev[1]):
                for k, v in over.items():
                    if k in old and old[k] == v and type(old[k]) is type(v):
                        assert old[k] is v, (s, k)
        prev = (common, overlays)
        action = (
            rs.sample_chance(st)
            if rs.is_chance(st)
            else rng.choice(rs.legal_actions(st, rs.to_act(st)[0]))
        )
        st, _ = rs.apply(st, action)
    assert kept > 0.7 * total, (kept, total)
