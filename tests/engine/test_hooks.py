"""Extension points (engine/procedures/hooks.py): each game carries its own hook table,
built by its ruleset from the options it plays (never stored: a loaded state gets it
again); several extensions combine by the point's rule; importing the m44 ruleset alone
is enough to play it (nothing is registered as a side effect of another import)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from engine import load_scenario, load_state, new_game
from engine.core.ruleset import get as get_ruleset
from engine.procedures import hooks
from engine.procedures.common import StandardMode
from engine.rulesets.m44 import ambush, end_turn, hand, tactics, unit_actions
from engine.rulesets.m44.options import bridges, conditions, hazards, kriegspiel, manoeuvres
from engine.rulesets.m44.options.variants import zombie

from .paths import SCN_DIR

ROOT = Path(__file__).resolve().parents[2]
PEGASUS = load_scenario(str(SCN_DIR / "2-PegasusBridge.m44"))


def test_a_game_without_options_has_the_scenario_rules_and_the_ports_only() -> None:
    t = new_game(PEGASUS, 1).hooks
    assert t.on_enter is hazards.on_enter
    assert t.enemy_entered is bridges.enemy_entered
    assert set(t.roll_handlers) == {"seal_cave", "heal", "blow_bridge", "bombard_bridge"}
    assert (t.sight_reach, t.sighted) == (conditions.sight_reach, conditions.sighted)  # night
    assert t.after_card_attack is tactics.next_card_target
    assert t.reaction_possible is ambush.ambush_possible
    assert (t.draw, t.give, t.finish_turn) == (end_turn.draw, end_turn._give, end_turn._finish_turn)
    assert t.discard_random_card is hand.discard_random_card
    assert t.after_move is unit_actions._after_move
    assert set(t.steps) == {"airdrop", "smoke", "offer", "exchange"}
    # an option that is off fills nothing
    for name in ("dice_minus", "move_allowance", "hidden", "filter_destinations", "victory"):
        assert getattr(t, name) is getattr(hooks.STANDARD, name), name
    assert not t.phases and not t.chance_handlers
    assert type(t.mode) is StandardMode


def test_the_options_chosen_fill_their_points() -> None:
    t = new_game(PEGASUS, 1, {"weather": "FOG", "kriegspiel": True}).hooks
    assert t.move_allowance is conditions.allowance
    assert t.hidden is kriegspiel.hidden
    assert t.redact_view is kriegspiel.redact_view
    assert set(t.chance_handlers) == {"supply"}
    z = new_game(PEGASUS, 1, {"variant": "ZOMBIE", "army_manoeuvres": True}).hooks
    assert z.dislodge is zombie.dislodge
    assert z.pressing_on is manoeuvres.pressing_on
    # zombies then Army Manoeuvres, chained: both filters apply
    assert z.filter_destinations not in (zombie.destinations, manoeuvres.allowed_destinations)


def test_team_and_overlord_games_carry_their_seat_mode() -> None:
    team = new_game(PEGASUS, 1, mode="team")
    assert team.hooks.mode.name == "team" and team.hooks.mode.machine is None
    omaha = new_game(load_scenario(str(SCN_DIR / "13-OmahaBeachOverlord.m44")), 1)
    assert omaha.hooks.mode.name == "overlord" and omaha.hooks.mode.machine is not None
    with pytest.raises(Exception) as exc:
        get_ruleset("m44").new_game(1, {}, PEGASUS, "team")
    assert getattr(exc.value, "code", None) == "unknown_mode"


def test_the_states_of_a_game_share_its_table() -> None:
    st = new_game(PEGASUS, 3)
    assert st.clone().hooks is st.hooks


def test_the_table_is_never_stored_and_is_built_again_on_load() -> None:
    rs = get_ruleset("m44")
    st = rs.new_game(4, {"kriegspiel": True}, PEGASUS)
    data = rs.dump_state(st)
    assert "hooks" not in data["state"] and b"hooks" not in orjson.dumps(data)
    back = rs.load_state(orjson.loads(orjson.dumps(data)), PEGASUS)
    assert back.hooks is not st.hooks and back.hooks.hidden is kriegspiel.hidden
    assert load_state(data, PEGASUS).hooks.hidden is kriegspiel.hidden


def test_states_saved_by_the_previous_release_load_and_equal_the_replay_of_their_log() -> None:
    """``golden/snapshots_format1.json``: snapshots (and the logs that led to them) written
    by the engine release whose extension points were global registries (m44 with
    weather, Kriegspiel and supply lines; team play with zombies; Overlord; Fast Play)."""
    cases = json.loads((ROOT / "tests/engine/golden/snapshots_format1.json").read_text())
    assert len(cases) == 4
    for c in cases:
        rs = get_ruleset(c["ruleset"])
        scn = load_scenario(str(SCN_DIR / c["scenario"]))
        back = rs.load_state(c["snapshot"], scn)
        st = rs.new_game(c["seed"], c["options"], scn, c["mode"])
        for a in c["actions"]:
            st, _ = rs.apply(st, a)
        assert back == st, c["ruleset"]
        assert rs.dump_state(back) == c["snapshot"]
        for _ in range(20):  # and it plays on as the replayed game does
            if rs.is_over(st):
                break
            act = rs.sample_chance(st) if rs.is_chance(st) else None
            if act is None:
                act = rs.legal_actions(st, rs.to_act(st)[0])[0]
            (st, ev), (back, ev2) = rs.apply(st, act), rs.apply(back, act)
            assert ev == ev2
        assert back == st


def _point(combine: str) -> tuple[str, str]:
    return "test", combine


def test_combine_rules() -> None:
    chain = hooks._combined(*_point("chain"), [lambda st, u, n: n + 1, lambda st, u, n: n * 10])
    assert chain(None, None, 2) == 30
    assert hooks._combined(*_point("sum"), [lambda *a: 1, lambda *a: 2])(None) == 3
    assert hooks._combined(*_point("any"), [lambda *a: False, lambda *a: True])(None) is True
    assert hooks._combined(*_point("all"), [lambda *a: True, lambda *a: False])(None) is False
    assert hooks._combined(*_point("concat"), [lambda *a: [1], lambda *a: [2]])(None) == [1, 2]
    assert hooks._combined(*_point("merge"), [{"a": 1}, {"b": 2}]) == {"a": 1, "b": 2}
    seen: list[int] = []
    hooks._combined(*_point("each"), [lambda x: seen.append(1), lambda x: seen.append(2)])(0)
    assert seen == [1, 2]
    one = lambda: 0  # noqa: E731
    assert hooks._combined(*_point("one"), [one]) is one
    with pytest.raises(ValueError):
        hooks._combined(*_point("one"), [one, one])


def test_build_refuses_an_undeclared_point() -> None:
    with pytest.raises(KeyError):
        hooks.build([{"no_such_point": lambda *a: None}])
    assert hooks.build([]).dice_minus is hooks.STANDARD.dice_minus


def test_importing_the_m44_ruleset_alone_plays_it() -> None:
    """A fresh interpreter imports ``engine.rulesets.m44`` without the package imports of
    ``engine`` and ``engine.rulesets`` (which load every ruleset): no Overlord, no Fast
    Play module is loaded, and a game with options plays through the m44 ruleset, a
    snapshot round trip included."""
    code = """
import pathlib, random, sys, types
for name in ("engine", "engine.rulesets"):  # the packages, not their __init__ imports
    pkg = types.ModuleType(name)
    pkg.__path__ = [str(pathlib.Path(*name.split(".")).resolve())]
    sys.modules[name] = pkg
from engine.core.scenario import load_scenario
from engine.rulesets.m44 import M44
scn = load_scenario("scenarios/2-PegasusBridge.m44")
st = M44.new_game(5, {"weather": "FOG", "variant": "ZOMBIE"}, scn)
rnd = random.Random(5)
for _ in range(80):
    if M44.is_over(st):
        break
    a = (M44.sample_chance(st) if M44.is_chance(st)
         else rnd.choice(M44.legal_actions(st, M44.to_act(st)[0])))
    st, _ = M44.apply(st, a)
assert M44.load_state(M44.dump_state(st), scn) == st
rulesets = sorted({m.split(".")[2] for m in sys.modules if m.startswith("engine.rulesets.")})
print(rulesets, st.seq)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "['m44']", out.stdout
