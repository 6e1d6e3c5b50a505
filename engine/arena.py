"""``python -m engine arena --ruleset R [--scenario F] --a LEVEL --b LEVEL --games N --seed S``.

Plays N games between two computer players (:mod:`engine.ai`), player A taking the first
side in even games and the second in odd ones (every seat of a side: an Overlord side is
four bots of the same level), and prints wins, draws, A's win rate with its 95 % Wilson
interval (draws count half), and per player the decisions per second and the decision
time p50/p95.  Times are measured here, around each call, never inside the engine: the
CPU time of this (single-threaded) process, i.e. what the decision takes on one core of
its own, whatever else the machine runs.
``--json`` prints one JSON object instead.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from typing import Any

from . import rulesets  # noqa: F401  (fills the registry)
from .ai import NAMES, Player
from .ai.evaluate import side_of
from .core.ruleset import Action, Ruleset, get, natural_for, turn_of
from .core.scenario import load_scenario

#: a player factory: (ruleset, seed) -> object with ``choose(state, seat) -> action``
Factory = Callable[[Ruleset[Any], int], Any]


def level(name: str) -> Factory:
    """The factory of a level of :mod:`engine.ai`."""
    if name not in NAMES:
        raise ValueError(f"unknown level {name!r} (one of {list(NAMES)})")
    return lambda rs, seed: Player(rs, name, seed)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def play_one(
    rs: Ruleset[Any],
    scenario: Any,
    seed: int,
    players: dict[str, Any],
    times: dict[str, list[float]],
    label: dict[str, str],
    max_turns: int,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> Any:
    """One game; ``players``: side -> player; decision times appended per label."""
    st = rs.new_game(seed, options, scenario, mode)
    while not rs.is_over(st) and (turn_of(rs, st) or 0) <= max_turns:
        if rs.is_chance(st):
            action: Action = rs.sample_chance(st)
        else:
            seat = rs.to_act(st)[0]
            side = side_of(seat)
            t0 = time.process_time()
            action = players[side].choose(st, seat)
            times[label[side]].append(time.process_time() - t0)
        st, _ = rs.apply(st, action)
    return st


def run(
    rs: Ruleset[Any],
    scenario: Any,
    a: Factory,
    b: Factory,
    games: int,
    seed: int,
    max_turns: int = 200,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games of ``a`` against ``b``, sides alternated; the figures."""
    sides = sorted(
        {side_of(s) for s in rs.seats(rs.new_game(seed, options, scenario, mode))},
        key=lambda s: [
            side_of(x) for x in rs.seats(rs.new_game(seed, options, scenario, mode))
        ].index(s),
    )
    out: dict[str, Any] = {
        "ruleset": rs.name,
        "games": games,
        "a": 0,
        "b": 0,
        "draws": 0,
        "unfinished": 0,
        "a_sides": {s: [0, 0] for s in sides},
    }
    times: dict[str, list[float]] = {"a": [], "b": []}
    for g in range(games):
        sa, sb = (sides[0], sides[1]) if g % 2 == 0 else (sides[1], sides[0])
        players = {sa: a(rs, seed * 1000 + 2 * g), sb: b(rs, seed * 1000 + 2 * g + 1)}
        st = play_one(
            rs,
            scenario,
            seed + g,
            players,
            times,
            {sa: "a", sb: "b"},
            max_turns,
            options,
            mode,
        )
        out["a_sides"][sa][1] += 1
        if not rs.is_over(st):
            out["unfinished"] += 1
        else:
            w = rs.result(st).get("winner")
            if w == sa:
                out["a"] += 1
                out["a_sides"][sa][0] += 1
            elif w == sb:
                out["b"] += 1
            else:
                out["draws"] += 1
        if progress:
            print(
                f"game {g + 1}/{games}: a {out['a']} b {out['b']} draws {out['draws']}",
                file=sys.stderr,
                flush=True,
            )
    score = out["a"] + 0.5 * (out["draws"] + out["unfinished"])
    lo, hi = wilson(score, games)
    out["a_rate"] = round(score / games, 3) if games else None
    out["a_rate_95"] = [round(lo, 3), round(hi, 3)]
    for k, ts in times.items():
        total = sum(ts)
        out[f"{k}_decisions"] = len(ts)
        out[f"{k}_per_s"] = round(len(ts) / total, 1) if total else None
        out[f"{k}_p50_ms"] = round(1000 * pct(ts, 0.50), 1)
        out[f"{k}_p95_ms"] = round(1000 * pct(ts, 0.95), 1)
        out[f"{k}_max_ms"] = round(1000 * max(ts), 1) if ts else 0.0
    return out


def _option(text: str) -> tuple[str, Any]:
    """``NAME`` (true) or ``NAME=JSON`` as an option's name and value."""
    name, eq, value = text.partition("=")
    if not eq:
        return name, True
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        raise ValueError(f"--option {name}: not a JSON value: {value!r}") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine arena")
    ap.add_argument("--ruleset", default=None, help="registered ruleset name")
    ap.add_argument("--scenario", default=None, help=".m44 file (rulesets set up from one)")
    ap.add_argument("--mode", default=None)
    ap.add_argument("--a", default="hard", help=f"player A: one of {list(NAMES)}")
    ap.add_argument("--b", default="random", help=f"player B: one of {list(NAMES)}")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME[=JSON]",
        help="an optional rule of the game (repeatable): kriegspiel, turn_limit=8",
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--progress", action="store_true", help="one line per game on stderr")
    x = ap.parse_args(argv)
    scn = load_scenario(x.scenario) if x.scenario else None
    rs = get(x.ruleset) if x.ruleset else natural_for(scn)
    if rs.setup == "scenario" and scn is None:
        ap.error(f"ruleset {rs.name} needs --scenario FILE.m44")
    try:
        fa, fb = level(x.a), level(x.b)
        options = dict(_option(o) for o in x.option) or None
    except ValueError as exc:
        ap.error(str(exc))
    res = run(rs, scn, fa, fb, x.games, x.seed, x.max_turns, options, x.mode, x.progress)
    res["scenario"] = scn.name if scn is not None else None
    res["a_level"], res["b_level"] = x.a, x.b
    if x.json:
        print(json.dumps(res))
        return 0
    print(
        f"{rs.name} {res['scenario'] or ''}: {x.a} (A) vs {x.b} (B), {x.games} games, seed {x.seed}"
    )
    print(
        f"A wins {res['a']}, B wins {res['b']}, draws {res['draws']}, "
        f"unfinished {res['unfinished']}"
    )
    lo, hi = res["a_rate_95"]
    print(f"A win rate {100 * res['a_rate']:.1f}% (95% Wilson {100 * lo:.1f}-{100 * hi:.1f}%)")
    for k in ("a", "b"):
        print(
            f"{k.upper()}: {res[k + '_decisions']} decisions, {res[k + '_per_s']}/s, "
            f"p50 {res[k + '_p50_ms']} ms, p95 {res[k + '_p95_ms']} ms, "
            f"max {res[k + '_max_ms']} ms"
        )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
