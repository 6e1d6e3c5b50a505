"""The computer players against the reference greedy player (bench/greedy_player.py).

    python bench/ai_arena.py --scenario scenarios/4-SwordBeach.m44 --a hard --games 20 --seed 1

Same figures as ``python -m engine arena`` (A's win rate with its 95 % Wilson interval,
decision times), player B being :class:`GreedyPlayer`.  Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from greedy_player import GreedyPlayer

from engine.arena import level, run
from engine.core.ruleset import get
from engine.core.scenario import load_scenario


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--ruleset", default="m44")
    ap.add_argument("--a", default="hard")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--b", default="greedy", help="greedy (the reference) or a level")
    x = ap.parse_args()
    rs = get(x.ruleset)
    scn = load_scenario(x.scenario)
    fb = (lambda r, s: GreedyPlayer(r, s)) if x.b == "greedy" else level(x.b)
    res = run(rs, scn, level(x.a), fb, x.games, x.seed, progress=True)
    res.update(scenario=scn.name, a_level=x.a, b_level=x.b)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
