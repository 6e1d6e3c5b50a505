"""Engine benchmark on one core: apply() and legal_actions() latency, full random games/s.

    .venv/bin/python bench/engine_bench.py [--games 40] [--seed 0] [--max-turns 200]
                                           [--scenario FILE] [--repeat 3]
                                           [--overlord-games 10] [--overlord FILE]

Single process, no threads.  Two passes over the same seeded games:

1. **latency pass**: every ``legal_actions`` and ``apply`` call is timed with
   ``perf_counter`` -> median / p99 / mean in ms;
2. **throughput pass** (``--repeat`` times, best and median reported): the same games
   played start to finish by the uniform random bot (``legal_actions`` + uniform choice,
   ``sample_chance`` at chance nodes) without per-call timing -> full games per second,
   by wall clock and by process CPU time; ``games_per_s_cpu_min_per_game`` takes each
   game's fastest CPU time over the repeats (robust when other processes share the
   cores; the movement cache is cleared before every pass, not between games).

3. **Overlord line**: ``--overlord-games`` random-bot games of the Overlord scenario
   (default Omaha Beach, 8 role seats, seeds from ``--seed``), ``--repeat`` passes ->
   ``overlord_games_per_s_cpu_min_per_game`` (each game's fastest CPU time), actions per
   game and finished games (0 games: skipped).

A game ends at game over or after ``--max-turns`` turns (random play rarely wins fast).
Prints one JSON object; asserts nothing (targets: apply <= 0.5 ms median,
legal_actions <= 2 ms median, >= 20 random games/s on one core).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import (  # noqa: E402
    apply,
    is_chance,
    legal_actions,
    load_scenario,
    new_game,
    sample_chance,
    to_act,
)
from engine.procedures import movement as _movement  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def play(scn, seed: int, max_turns: int, t_apply: list | None, t_legal: list | None):
    st = new_game(scn, seed)
    rng = random.Random(seed)
    n = 0
    pc = time.perf_counter
    while not st.game_over and st.turn <= max_turns:
        if is_chance(st):
            act = sample_chance(st)
        elif t_legal is None:
            act = rng.choice(legal_actions(st, to_act(st)[0]))
        else:
            t = pc()
            acts = legal_actions(st, to_act(st)[0])
            t_legal.append(pc() - t)
            act = rng.choice(acts)
        if t_apply is None:
            st, _ = apply(st, act)
        else:
            t = pc()
            st, _ = apply(st, act)
            t_apply.append(pc() - t)
        n += 1
    return st, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scenario", default=str(ROOT / "scenarios" / "2-PegasusBridge.m44"))
    ap.add_argument("--overlord-games", type=int, default=10)
    ap.add_argument("--overlord", default=str(ROOT / "scenarios" / "13-OmahaBeachOverlord.m44"))
    a = ap.parse_args()
    scn = load_scenario(a.scenario)
    seeds = range(a.seed, a.seed + a.games)

    _movement._CACHE.clear()
    t_apply: list[float] = []
    t_legal: list[float] = []
    actions = finished = 0
    for s in seeds:
        st, n = play(scn, s, a.max_turns, t_apply, t_legal)
        actions += n
        finished += st.game_over

    wall_rates, cpu_rates = [], []
    per_game: dict[int, float] = {}
    for _ in range(a.repeat):
        _movement._CACHE.clear()  # no help from the previous pass
        w0, c0 = time.perf_counter(), time.process_time()
        for s in seeds:
            g0 = time.process_time()
            play(scn, s, a.max_turns, None, None)
            dt = time.process_time() - g0
            per_game[s] = min(per_game.get(s, dt), dt)
        wall_rates.append(a.games / (time.perf_counter() - w0))
        cpu_rates.append(a.games / (time.process_time() - c0))

    ol: dict = {}
    if a.overlord_games > 0:
        oscn = load_scenario(a.overlord)
        oseeds = range(a.seed, a.seed + a.overlord_games)
        best: dict[int, float] = {}
        o_actions = o_finished = 0
        for r in range(a.repeat):
            _movement._CACHE.clear()
            for s in oseeds:
                g0 = time.process_time()
                st, n = play(oscn, s, a.max_turns, None, None)
                dt = time.process_time() - g0
                best[s] = min(best.get(s, dt), dt)
                if r == 0:
                    o_actions += n
                    o_finished += st.game_over
        ol = {
            "overlord_scenario": oscn.name,
            "overlord_games": a.overlord_games,
            "overlord_finished": o_finished,
            "overlord_actions_per_game": round(o_actions / a.overlord_games, 1),
            "overlord_games_per_s_cpu_min_per_game": round(
                a.overlord_games / sum(best.values()), 2
            ),
        }

    ms = 1000.0
    print(
        json.dumps(
            {
                "scenario": scn.name,
                "games": a.games,
                "finished": finished,
                "max_turns": a.max_turns,
                "actions": actions,
                "actions_per_game": round(actions / a.games, 1),
                "apply_ms_median": round(statistics.median(t_apply) * ms, 4),
                "apply_ms_p99": round(pct(t_apply, 0.99) * ms, 4),
                "apply_ms_mean": round(statistics.fmean(t_apply) * ms, 4),
                "legal_actions_ms_median": round(statistics.median(t_legal) * ms, 4),
                "legal_actions_ms_p99": round(pct(t_legal, 0.99) * ms, 4),
                "legal_actions_ms_mean": round(statistics.fmean(t_legal) * ms, 4),
                "games_per_s_wall_best": round(max(wall_rates), 2),
                "games_per_s_wall_median": round(statistics.median(wall_rates), 2),
                "games_per_s_cpu_best": round(max(cpu_rates), 2),
                "games_per_s_cpu_median": round(statistics.median(cpu_rates), 2),
                "games_per_s_cpu_min_per_game": round(a.games / sum(per_game.values()), 2),
                **ol,
                "python": platform.python_version(),
                "load_avg": [round(x, 2) for x in os.getloadavg()],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
