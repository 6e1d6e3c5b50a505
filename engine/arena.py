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
import os
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


def play_game(
    rs: Ruleset[Any],
    scenario: Any,
    a: Factory,
    b: Factory,
    g: int,
    seed: int,
    sides: list[str],
    max_turns: int = 200,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
) -> dict[str, Any]:
    """Game ``g`` of a run: A's side, who won (``a``, ``b``, ``draw`` or ``unfinished``)
    and each player's decision times in ms.  It depends only on ``seed`` and ``g``."""
    sa, sb = (sides[0], sides[1]) if g % 2 == 0 else (sides[1], sides[0])
    players = {sa: a(rs, seed * 1000 + 2 * g), sb: b(rs, seed * 1000 + 2 * g + 1)}
    times: dict[str, list[float]] = {"a": [], "b": []}
    st = play_one(
        rs, scenario, seed + g, players, times, {sa: "a", sb: "b"}, max_turns, options, mode
    )
    if not rs.is_over(st):
        outcome = "unfinished"
    else:
        w = rs.result(st).get("winner")
        outcome = "a" if w == sa else "b" if w == sb else "draw"
    return {
        "game": g,
        "a_side": sa,
        "outcome": outcome,
        "a_ms": [round(1000 * t, 2) for t in times["a"]],
        "b_ms": [round(1000 * t, 2) for t in times["b"]],
    }


def summarize(records: list[dict[str, Any]], sides: list[str]) -> dict[str, Any]:
    """Wins, draws, A's win rate with its 95 % interval and the decision times of games."""
    n = len(records)
    out: dict[str, Any] = {
        "games": n,
        "a": sum(r["outcome"] == "a" for r in records),
        "b": sum(r["outcome"] == "b" for r in records),
        "draws": sum(r["outcome"] == "draw" for r in records),
        "unfinished": sum(r["outcome"] == "unfinished" for r in records),
        "a_sides": {
            s: [
                sum(r["a_side"] == s and r["outcome"] == "a" for r in records),
                sum(r["a_side"] == s for r in records),
            ]
            for s in sides
        },
    }
    score = out["a"] + 0.5 * (out["draws"] + out["unfinished"])
    lo, hi = wilson(score, n)
    out["a_rate"] = round(score / n, 3) if n else None
    out["a_rate_95"] = [round(lo, 3), round(hi, 3)]
    for k in ("a", "b"):
        ts = [t for r in records for t in r[f"{k}_ms"]]
        total = sum(ts) / 1000
        out[f"{k}_decisions"] = len(ts)
        out[f"{k}_per_s"] = round(len(ts) / total, 1) if total else None
        out[f"{k}_p50_ms"] = round(pct(ts, 0.50), 1)
        out[f"{k}_p95_ms"] = round(pct(ts, 0.95), 1)
        out[f"{k}_max_ms"] = round(max(ts), 1) if ts else 0.0
    return out


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
    record: str | None = None,
    key: dict[str, Any] | None = None,
    first: int = 0,
) -> dict[str, Any]:
    """Play games ``first`` to ``games - 1`` of ``a`` against ``b``, sides alternated; the
    figures of those games.

    ``record``: a file of one JSON line per finished game, each carrying ``key`` (what
    defines the run: ruleset, scenario, levels, seed...); the games it already holds are
    not played again, so a stopped run resumes where it stopped.  A line of another run
    is an error."""
    start = rs.new_game(seed, options, scenario, mode)
    sides = list(dict.fromkeys(side_of(s) for s in rs.seats(start)))
    done: dict[int, dict[str, Any]] = {}
    if record is not None and os.path.exists(record):
        with open(record, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    if r.get("key") != key:
                        raise ValueError(f"{record}: game {r.get('game')} is of another run")
                    done[r["game"]] = r
    for g in range(first, games):
        if g not in done:
            done[g] = play_game(rs, scenario, a, b, g, seed, sides, max_turns, options, mode)
            done[g]["key"] = key
            if record is not None:
                with open(record, "a", encoding="utf-8") as f:
                    f.write(json.dumps(done[g]) + "\n")
        if progress:
            so_far = summarize([done[i] for i in range(first, g + 1)], sides)
            print(
                f"game {g + 1}/{games}: a {so_far['a']} b {so_far['b']} draws {so_far['draws']}",
                file=sys.stderr,
                flush=True,
            )
    return {"ruleset": rs.name, **summarize([done[g] for g in range(first, games)], sides)}


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
    ap.add_argument(
        "--first", type=int, default=0, help="play only games FIRST to N-1 (the rest of a run)"
    )
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
    ap.add_argument(
        "--record",
        default=None,
        metavar="FILE",
        help="append each game to FILE (JSON lines); games already in it are not replayed",
    )
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
    key = {
        "ruleset": rs.name,
        "scenario": scn.name if scn is not None else None,
        "mode": x.mode,
        "a": x.a,
        "b": x.b,
        "seed": x.seed,
        "max_turns": x.max_turns,
        "options": options,
    }
    try:
        res = run(
            rs,
            scn,
            fa,
            fb,
            x.games,
            x.seed,
            x.max_turns,
            options,
            x.mode,
            x.progress,
            x.record,
            key,
            x.first,
        )
    except ValueError as exc:
        ap.error(str(exc))
    res["scenario"] = scn.name if scn is not None else None
    res["a_level"], res["b_level"] = x.a, x.b
    if x.json:
        print(json.dumps(res))
        return 0
    print(
        f"{rs.name} {res['scenario'] or ''}: {x.a} (A) vs {x.b} (B), {res['games']} games "
        f"({x.first + 1} to {x.games}), seed {x.seed}"
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
