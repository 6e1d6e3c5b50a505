"""The fan-out's two protocol promises (engine/core/ruleset.py, docs/architecture.md):

* ``views_of(rs, state, seats)`` equals one ``view_for`` per seat, although the views
  share their seat-independent part: no seat's view carries another seat's hand, and
  the views are equal to views computed alone (nothing leaks through a shared object);
* ``legal_actions(state, seat)`` is empty for every seat not in ``to_act(state)`` (the
  server then asks the engine for the acting seats' lists only).

Random play of every ruleset (seeded), checked at every step."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine.rulesets  # noqa: F401  (fills the registry)
from engine.core import ruleset as R
from engine.core.ruleset import public_status_of, views_of
from engine.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2] / "scenarios"

CASES = [
    ("m44", "2-PegasusBridge.m44", None, {}),
    ("m44", "2-PegasusBridge.m44", None, {"kriegspiel": True}),
    ("overlord", "13-OmahaBeachOverlord.m44", "overlord", {}),
    ("overlord", "2-PegasusBridge.m44", "team", {}),
    ("fastplay", "2-PegasusBridge.m44", None, {}),
    ("portable", None, None, {}),
    ("france1944", None, None, {}),
]


def _steps(name: str, scn_file: str | None, mode: str | None, options: dict, seed: int, limit: int):
    rs = R.get(name)
    scn = load_scenario((ROOT / scn_file).read_text()) if scn_file else None
    st = rs.new_game(seed, options, scn, mode)
    rng = random.Random(seed)
    for _ in range(limit):
        if rs.is_over(st):
            return
        yield rs, st
        if rs.is_chance(st):
            action = rs.sample_chance(st)
        else:
            action = rng.choice(rs.legal_actions(st, rs.to_act(st)[0]))
        st, _ = rs.apply(st, action)


@pytest.mark.parametrize("name,scn_file,mode,options", CASES)
def test_views_for_equals_view_for_per_seat(name, scn_file, mode, options):
    checked = 0
    for i, (rs, st) in enumerate(_steps(name, scn_file, mode, options, 3, 400)):
        if i % 7:
            continue
        seats = [None, *rs.seats(st)]
        together = views_of(rs, st, seats)
        alone = [rs.view_for(st, s) for s in seats]
        for s, a, b in zip(seats, together, alone):
            assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), (name, s, i)
        checked += 1
    assert checked > 10


def test_overlord_hands_stay_with_their_holder():
    """The C-in-C's hand is in his view only, though all eight views share one public
    part: the Field Generals and the spectator see counts."""
    for rs, st in _steps("overlord", "13-OmahaBeachOverlord.m44", "overlord", {}, 5, 60):
        seats = [None, *rs.seats(st)]
        for s, v in zip(seats, views_of(rs, st, seats)):
            for side, d in v["sides"].items():
                assert ("hand" in d) == (s == f"{side}:cinc"), (s, side)
                assert d["hand_count"] == len(st.hands[side])


@pytest.mark.parametrize("name,scn_file,mode,options", CASES)
def test_no_legal_action_off_to_act(name, scn_file, mode, options):
    steps = 0
    for rs, st in _steps(name, scn_file, mode, options, 11, 600):
        acting = set(rs.to_act(st))
        for s in rs.seats(st):
            if s not in acting:
                assert rs.legal_actions(st, s) == [], (name, s, acting)
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("name,scn_file,mode,options", CASES)
def test_public_status_is_the_spectator_view(name, scn_file, mode, options):
    """The lobby columns (``public_status_of``) equal the spectator view's fields, fog
    included (004 Kriegspiel hides which role seat acts)."""
    n = 0
    for rs, st in _steps(name, scn_file, mode, options, 4, 300):
        v = rs.view_for(st, None)
        assert public_status_of(rs, st) == {
            k: v.get(k) for k in ("turn", "to_act", "game_over", "winner")
        }
        n += 1
    assert n > 50


@pytest.mark.parametrize("name,scn_file,mode,options", CASES)
def test_view_parts_merge_into_each_seats_view(name, scn_file, mode, options):
    """``view_parts_of``: ``{**common, **overlay}`` is the seat's view, member order
    included (the server patches the shared part once and each overlay apart)."""
    checked = 0
    for i, (rs, st) in enumerate(_steps(name, scn_file, mode, options, 4, 300)):
        if i % 5:
            continue
        seats = [None, *rs.seats(st)]
        common, overlays = R.view_parts_of(rs, st, seats)
        for s, over in zip(seats, overlays):
            merged = {**common, **over}
            alone = rs.view_for(st, s)
            assert list(merged) == list(alone), (name, s, i)
            assert json.dumps(merged) == json.dumps(alone), (name, s, i)
        checked += 1
    assert checked > 10


def test_view_parts_split_the_overlord_views():
    """Omaha Beach Overlord: the eight seats and the spectator share one common part; a
    seat's overlay holds only what is its own (the mode's part, a hand, its decision)."""
    for rs, st in _steps("overlord", "13-OmahaBeachOverlord.m44", "overlord", {}, 6, 40):
        seats = [None, *rs.seats(st)]
        common, overlays = R.view_parts_of(rs, st, seats)
        assert "units" in common
        for s, over in zip(seats, overlays):
            assert set(over) <= {"overlord", "pendings", "pending", "sides"}, (s, set(over))
            assert ("sides" in over) == (s is not None and s.endswith(":cinc")), s


def test_kriegspiel_views_are_not_split():
    """004 Kriegspiel rewrites each side's whole view: no shared part to patch once."""
    rs = R.get("m44")
    st = rs.new_game(
        3, {"kriegspiel": True}, load_scenario((ROOT / "2-PegasusBridge.m44").read_text()), None
    )
    assert rs.view_parts(st, [None]) is None
    common, overlays = R.view_parts_of(rs, st, [None, "AXIS"])
    assert common == {} and overlays[1] == rs.view_for(st, "AXIS")


@pytest.mark.parametrize("name,scn_file,mode,options", CASES)
def test_views_are_a_function_of_the_state_alone(name, scn_file, mode, options):
    """The engine keeps no view cache in the state: computing views changes nothing of
    it, and a state loaded from its snapshot (nothing computed before) shows the same
    views (the server's ``app/games/view_memo.py`` interns successive views)."""
    for i, (rs, st) in enumerate(_steps(name, scn_file, mode, options, 7, 120)):
        if i % 5:
            continue
        scn = getattr(st, "scn", None)
        before = json.dumps(rs.dump_state(st), sort_keys=True, default=str)
        seats = [None, *rs.seats(st)]
        views = views_of(rs, st, seats)
        assert json.dumps(rs.dump_state(st), sort_keys=True, default=str) == before
        fresh = rs.load_state(rs.dump_state(st), scn)
        assert json.dumps(views) == json.dumps(views_of(rs, fresh, seats)), (name, i)
