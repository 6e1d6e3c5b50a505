"""Golden playthrough (OpenSpiel style): a recorded 3x3 Portable Wargame battle - every
action from the attacker throw to the result, and the events each produced - is replayed
and must give the same events and end view.  Regenerate after an intended rules change
with ``REGEN_GOLDEN=1 pytest tests/engine/portable/test_golden.py`` and review the diff."""

import json
import os
import random
from pathlib import Path

from .helpers import R

GOLDEN = Path(__file__).parent.parent / "golden" / "portable_seed2024.jsonl"
SEED = 2024


def _record() -> list[dict]:
    st = R.new_game(SEED)
    rnd = random.Random(SEED)
    rows = [{"ruleset": "portable", "version": R.version, "seed": SEED, "options": {}}]
    while not R.is_over(st):
        if R.is_chance(st):
            a = R.sample_chance(st)
        else:
            a = rnd.choice(R.legal_actions(st, R.to_act(st)[0]))
        st, ev = R.apply(st, a)
        rows.append({"action": a, "events": ev})
    rows.append({"final": R.view_for(st, None)})
    return rows


def test_golden_portable_playthrough():
    if os.environ.get("REGEN_GOLDEN") or not GOLDEN.exists():
        GOLDEN.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in _record()))
    rows = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    head, steps, final = rows[0], rows[1:-1], rows[-1]["final"]
    st = R.new_game(head["seed"], head["options"])
    for i, row in enumerate(steps):
        st, ev = R.apply(st, row["action"])
        assert json.loads(json.dumps(ev)) == row["events"], f"step {i}: {row['action']}"
    assert json.loads(json.dumps(R.view_for(st, None))) == final
    assert final["game_over"]
    types = {r["action"]["type"] for r in steps}
    assert {
        "roll",
        "place_terrain",
        "deploy",
        "redeploy",
        "choose_first",
        "move",
        "attack",
        "fire",
        "retreat",
        "lose_sp",
        "advance",
    } <= types
