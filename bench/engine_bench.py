"""Engine benchmark: apply() and legal_actions() median/p99, random games/s (Pegasus Bridge).

    .venv/bin/python bench/engine_bench.py [--games 30] [--seed 0] [--scenario FILE]

Prints figures; asserts nothing (targets: apply <= 0.5 ms median, legal_actions <= 2 ms
median, >= 20 random games/s on one core).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import apply, is_chance, legal_actions, load_scenario, new_game, sample_chance, to_act  # noqa: E402
from engine.bot import RandomBot  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument("--scenario", default="/work/shared/scenarios/m44/2-PegasusBridge.m44")
    a = ap.parse_args()
    scn = load_scenario(a.scenario)
    t_apply: list[float] = []
    t_legal: list[float] = []
    actions = finished = 0
    t0 = time.perf_counter()
    for g in range(a.games):
        st = new_game(scn, a.seed + g)
        bot = RandomBot(a.seed + g)
        while not st.game_over and st.turn <= a.max_turns:
            if is_chance(st):
                act = sample_chance(st)
            else:
                t = time.perf_counter()
                acts = legal_actions(st, to_act(st)[0])
                t_legal.append(time.perf_counter() - t)
                act = bot.rng.choice(acts)
            t = time.perf_counter()
            st, _ = apply(st, act)
            t_apply.append(time.perf_counter() - t)
            actions += 1
        finished += st.game_over
    secs = time.perf_counter() - t0
    ms = 1000.0
    print(json.dumps({
        "scenario": scn.name, "games": a.games, "finished": finished, "actions": actions,
        "apply_ms_median": round(statistics.median(t_apply) * ms, 4),
        "apply_ms_p99": round(pct(t_apply, 0.99) * ms, 4),
        "legal_actions_ms_median": round(statistics.median(t_legal) * ms, 4),
        "legal_actions_ms_p99": round(pct(t_legal, 0.99) * ms, 4),
        "games_per_s": round(a.games / secs, 2),
        "actions_per_game": round(actions / a.games, 1),
    }, indent=1))


if __name__ == "__main__":
    main()
