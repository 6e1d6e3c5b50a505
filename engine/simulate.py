"""``python -m engine simulate FILE.m44 --games N --seed S --json [--max-turns T]``.

Plays N random-bot games and prints ONE JSON object: scenario, games, finished,
turn_limit, errors, winners, actions, seconds, games_per_s.  A game hitting an engine
exception counts in ``errors`` and its traceback goes to stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import traceback

from .bot import RandomBot, next_action
from .rules import apply, new_game
from .scenario import load_scenario


def run(path: str, games: int, seed: int, max_turns: int, options: dict | None = None) -> dict:
    scn = load_scenario(path)
    out = {"scenario": scn.name, "games": games, "finished": 0, "turn_limit": 0, "errors": 0,
           "winners": {"AXIS": 0, "ALLIES": 0, "draw": 0}, "actions": 0}
    t0 = time.perf_counter()
    for g in range(games):
        try:
            st = new_game(scn, seed + g, options)
            bot = RandomBot(seed + g)
            while not st.game_over and st.turn <= max_turns:
                st, _ = apply(st, next_action(st, bot))
                out["actions"] += 1
            if st.game_over:
                out["finished"] += 1
                out["winners"][st.winner or "draw"] += 1
            else:
                out["turn_limit"] += 1
        except Exception:  # noqa: BLE001 - counted and reported
            out["errors"] += 1
            print(f"game {g} (seed {seed + g}) failed:", file=sys.stderr)
            traceback.print_exc()
    secs = time.perf_counter() - t0
    out["seconds"] = round(secs, 3)
    out["games_per_s"] = round(games / secs, 2) if secs else None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine simulate")
    ap.add_argument("file")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--option", action="append", default=[], help="optional rule to switch on")
    a = ap.parse_args(argv)
    res = run(a.file, a.games, a.seed, a.max_turns, {o: True for o in a.option})
    if a.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k}: {v}")
    return 1 if res["errors"] else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
