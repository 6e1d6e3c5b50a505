"""Fast Play '44 as a whole: random legal play on every bundled scenario of a standard or
Breakthrough board (no error, replay equals live, states never mutated, snapshots round
trip, views JSON-able) and a golden playthrough of Pegasus Bridge.

Regenerate the golden file after an intended rules change with
``REGEN_GOLDEN=1 pytest tests/engine/test_fastplay_play.py`` and review the diff."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engine.core.ruleset import get
from engine.core.scenario import load_scenario
from tests.engine.paths import SCN_DIR

FP = get("fastplay")
GOLDEN = Path(__file__).parent / "golden" / "fastplay_pegasus_seed44.jsonl"
BUNDLED = sorted(p.name for p in Path(SCN_DIR).glob("*.m44"))


def _random_game(scn, seed: int, limit: int):
    st = FP.new_game(seed, None, scn, "1v1")
    rng = random.Random(seed)
    actions = []
    while not FP.is_over(st) and len(actions) < limit:
        if FP.is_chance(st):
            a = FP.sample_chance(st)
        else:
            a = rng.choice(FP.legal_actions(st, FP.to_act(st)[0]))
        check = len(actions) % 50 == 0
        before = FP.dump_state(st) if check else None
        nxt, events = FP.apply(st, a)
        assert not check or FP.dump_state(st) == before, f"apply mutated its input ({a})"
        if check:
            assert FP.load_state(before, scn) == st  # JSON snapshot round trip
        json.dumps(events)
        actions.append(a)
        st = nxt
    return st, actions


@pytest.mark.parametrize("name", BUNDLED)
def test_random_play_replay_equals_live(name):
    scn = load_scenario(f"{SCN_DIR}/{name}")
    if not FP.accepts(scn, "1v1"):
        pytest.skip("Overlord board: not a Fast Play '44 board")
    st, actions = _random_game(scn, 7, 1500)
    again = FP.new_game(7, None, scn, "1v1")
    for a in actions:
        again, _ = FP.apply(again, a)
    assert again == st
    snap = FP.dump_state(st)
    json.dumps(snap)
    assert FP.load_state(snap, scn) == st
    for seat in (None, "AXIS", "ALLIES"):
        json.dumps(FP.view_for(st, seat))


def test_random_play_finishes_pegasus():
    scn = load_scenario(f"{SCN_DIR}/2-PegasusBridge.m44")
    st, _ = _random_game(scn, 3, 20000)
    assert FP.is_over(st) and FP.result(st)["winner"] in ("AXIS", "ALLIES")


def _record() -> list[dict]:
    scn = load_scenario(f"{SCN_DIR}/2-PegasusBridge.m44")
    st = FP.new_game(44, None, scn, "1v1")
    rng = random.Random(44)
    rows: list[dict] = [{"scenario": "2-PegasusBridge.m44", "seed": 44}]
    while not FP.is_over(st) and len(rows) < 600:
        a = (
            FP.sample_chance(st)
            if FP.is_chance(st)
            else rng.choice(FP.legal_actions(st, FP.to_act(st)[0]))
        )
        st, ev = FP.apply(st, a)
        rows.append({"action": a, "events": ev})
    rows.append({"final": FP.view_for(st, None)})
    return rows


def test_golden_fastplay_pegasus():
    if os.environ.get("REGEN_GOLDEN") or not GOLDEN.exists():
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in _record()))
    rows = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    head, steps, final = rows[0], rows[1:-1], rows[-1]["final"]
    st = FP.new_game(head["seed"], None, load_scenario(f"{SCN_DIR}/{head['scenario']}"), "1v1")
    for i, row in enumerate(steps):
        st, ev = FP.apply(st, row["action"])
        assert json.loads(json.dumps(ev)) == row["events"], f"step {i}: {row['action']}"
    assert json.loads(json.dumps(FP.view_for(st, None))) == final


def test_canonical_action_keeps_known_fields_only():
    from engine.core.errors import IllegalAction

    st = FP.new_game(1, None, load_scenario(f"{SCN_DIR}/2-PegasusBridge.m44"), "1v1")
    for a in FP.legal_actions(st, "ALLIES"):
        assert FP.canonical_action(st, a) == a
    for bad, code in (
        ({"type": "move", "seat": "ALLIES", "unit": "u5", "to": [4, 4], "x": 1}, "unknown_field"),
        ({"type": "battle", "seat": "ALLIES", "unit": "u5", "target": "3,7"}, "bad_value"),
        ({"type": "order", "seat": "ALLIES"}, "unknown_action"),
    ):
        with pytest.raises(IllegalAction) as e:
            FP.canonical_action(st, bad)
        assert e.value.code == code


MIXED = """
1@3: .:a W:i H:g .:i T:e .:a .:i
2@4: .:i .:s .:a .:i .:g
4@4: W:I .:A X:I .:G H:S
6@2: .:I .:E .:A T:I .:G .:I .:A
7@3: .:I .:I W:S .:A .:I
"""


@pytest.mark.parametrize(
    "kw",
    [
        {"nations": {"AXIS": "ger", "ALLIES": "brit"}},
        {"game_info": {"country_player1": "IT", "country_player2": "FR"}},
        {
            "game_info": {"country_player2": "RU"},
            "options": {"dig_in": True, "command_cards": True},
        },
    ],
)
def test_random_play_mixed_units_nations_mines(kw):
    from engine.core.textboard import board_from_text

    opts = kw.pop("options", None)
    mines = {
        (3, 5 + 2 * i): {"name": "tag3", "behavior": "MINE_FIELD", "side": "AXIS"} for i in range(4)
    }
    scn = board_from_text(MIXED, tags=mines, victory=(6, 6), **kw)
    for seed in (1, 2):
        st = FP.new_game(seed, opts, scn, "1v1")
        rng = random.Random(seed)
        actions = []
        while not FP.is_over(st) and len(actions) < 1500:
            a = (
                FP.sample_chance(st)
                if FP.is_chance(st)
                else rng.choice(FP.legal_actions(st, FP.to_act(st)[0]))
            )
            st, _ = FP.apply(st, a)
            actions.append(a)
        again = FP.new_game(seed, opts, scn, "1v1")
        for a in actions:
            again, _ = FP.apply(again, a)
        assert again == st


def test_random_play_with_a_train():
    """A train (locomotive + wagons) moves whole along its rail (procedure ``trains``) and
    takes flags as hits; random play never breaks it."""
    from engine.core.textboard import board_from_text

    board = "0@0: .:i\n2@6: .:i .:a .:g\n3@5: .:i .:i\n6@4: Z Z Z Z Z Z Z Z Z\n7@5: .:I .:A .:G"
    scn = board_from_text(
        board,
        legend={"Z": "rail"},
        victory=(5, 5),
        units={(6, 10): "loco", (6, 12): "wagon", (6, 14): "wagon"},
    )
    for seed in range(4):
        st = FP.new_game(seed, None, scn, "1v1")
        rng = random.Random(seed)
        for _ in range(1500):
            if FP.is_over(st):
                break
            a = (
                FP.sample_chance(st)
                if FP.is_chance(st)
                else rng.choice(FP.legal_actions(st, FP.to_act(st)[0]))
            )
            st, _ = FP.apply(st, a)
            assert all(u.hex in scn.rail_links for u in st.units.values() if u.spec.train)
