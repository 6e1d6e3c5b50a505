"""Overlord speed-ups keep the rules: copy-on-write mode data (``ShallowExt``) never leaks
between states, and the fast dispatch enumeration equals the rule checks one by one."""

import copy
from dataclasses import replace

from engine import apply, legal_actions, load_scenario, new_game, to_act
from engine.bot import RandomBot, next_action
from engine.rulesets.overlord import chain as CH
from tests.engine.paths import SCN_DIR

OMAHA = f"{SCN_DIR}/13-OmahaBeachOverlord.m44"
PELELIU = f"{SCN_DIR}/1517-PeleliuLandingsOverlord.m44"


def _slow_dispatch(st, s):
    side = CH.split(s)[0]
    out = []
    for c in CH._pool(st, side):
        if c in CH._dispatched(st):
            out.append({"type": "undo_dispatch", "seat": s, "card": c})
            continue
        for to in CH.ROLES:
            if CH._dispatch_error(st, side, c, to) is None:
                out.append({"type": "dispatch", "seat": s, "card": c, "to": to})
    return out


def _snap(st):
    return copy.deepcopy(
        (
            dict(st.ext),
            st.hands,
            [(p.card, p.key, p.seat, p.flags, repr(p.quotas)) for p in st.plays],
            st.phase,
            st.pending,
        )
    )


def _games(path, seeds, steps, scn_options=None, options=None):
    scn = load_scenario(path)
    if scn_options:
        scn = replace(scn, options={**scn.options, **scn_options})
    for seed in seeds:
        st = new_game(scn, seed, options)
        bot = RandomBot(seed)
        for _ in range(steps):
            if st.game_over:
                break
            yield st
            st, _ = apply(st, next_action(st, bot))


def test_apply_never_changes_the_input_overlord_state():
    for path, opts in ((OMAHA, None), (PELELIU, None), (OMAHA, {"russian_commissar_rule": "AXIS"})):
        for st in _games(path, (3,), 400, opts):
            before = _snap(st)
            nxt, _ = apply(st, next_action(st, RandomBot(st.seq)))
            assert _snap(st) == before
            assert nxt.ext is not st.ext


def test_fast_dispatch_enumeration_equals_the_rule_checks():
    seen = 0
    for path, opts, gopts in (
        (OMAHA, None, None),
        (PELELIU, None, None),
        (OMAHA, {"russian_commissar_rule": "AXIS"}, None),
        (OMAHA, {"russian_commissar_rule": "AXIS"}, {"overlord_air_sortie": 1}),
        (PELELIU, None, {"overlord_air_sortie": True}),
    ):
        for st in _games(path, (5, 6), 300, opts, gopts):
            if st.pending and st.pending["type"] == "dispatch":
                s = to_act(st)[0]
                fast = [
                    a for a in legal_actions(st, s) if a["type"] in ("dispatch", "undo_dispatch")
                ]
                assert fast == _slow_dispatch(st, s)
                seen += 1
    assert seen > 50
