"""Golden playthrough (OpenSpiel style): a recorded Pegasus Bridge game — every action and
the events it produced — is replayed and must give the same events and end state.
Regenerate after an intended rules change with ``REGEN_GOLDEN=1 pytest tests/engine/test_golden.py``
and review the diff."""

import json
import os
from pathlib import Path

from engine import apply, load_scenario, new_game, view_for
from engine.bot import RandomBot, next_action
from tests.engine.paths import SCN_DIR

GOLDEN = Path(__file__).parent / "golden" / "pegasus_seed2026.jsonl"
SCN = f"{SCN_DIR}/2-PegasusBridge.m44"
SEED = 2026


def _record() -> list[dict]:
    scn = load_scenario(SCN)
    st = new_game(scn, SEED)
    bot = RandomBot(SEED)
    rows = [{"scenario": "2-PegasusBridge.m44", "seed": SEED, "options": {}}]
    while not st.game_over and st.turn <= 300:
        a = next_action(st, bot)
        st, ev = apply(st, a)
        rows.append({"action": a, "events": ev})
    rows.append({"final": view_for(st, None)})
    return rows


def test_golden_pegasus_playthrough():
    if os.environ.get("REGEN_GOLDEN") or not GOLDEN.exists():
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in _record()))
    rows = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    head, steps, final = rows[0], rows[1:-1], rows[-1]["final"]
    st = new_game(load_scenario(SCN), head["seed"], head["options"])
    for i, row in enumerate(steps):
        st, ev = apply(st, row["action"])
        assert json.loads(json.dumps(ev)) == row["events"], f"step {i}: {row['action']}"
    assert json.loads(json.dumps(view_for(st, None))) == final
    assert final["game_over"]
