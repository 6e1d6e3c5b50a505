"""``python -m engine simulate [FILE.m44] [--ruleset NAME] [--mode M] --games N --seed S
--json [--max-turns T] [--option NAME]``.

Plays N random-bot games through the :class:`~engine.core.ruleset.Ruleset` protocol only
and prints ONE JSON object: scenario, games, finished, turn_limit, errors, winners,
actions, seconds, games_per_s.  Without ``--ruleset`` the scenario's natural ruleset
plays (``natural_for``: m44 on standard boards, overlord on Overlord boards); a ruleset
whose ``setup`` is ``"none"`` needs no scenario file.  A game hitting an engine exception
counts in ``errors`` and its traceback goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from typing import Any

from . import rulesets  # noqa: F401  (fills the registry)
from .core.ruleset import Ruleset, get, natural_for, turn_of
from .core.scenario import load_scenario


def play(
    rs: Ruleset[Any],
    scenario: Any,
    seed: int,
    max_turns: int,
    options: dict[str, Any] | None,
    mode: str | None,
) -> tuple[Any, int]:
    """One random-bot game (uniform choice among ``legal_actions`` of the first seat to
    act, ``sample_chance`` at chance nodes); returns (final state, actions applied)."""
    st = rs.new_game(seed, options, scenario, mode)
    rng = random.Random(seed)
    n = 0
    while not rs.is_over(st) and (turn_of(rs, st) or 0) <= max_turns:
        if rs.is_chance(st):
            action = rs.sample_chance(st)
        else:
            action = rng.choice(rs.legal_actions(st, rs.to_act(st)[0]))
        st, _ = rs.apply(st, action)
        n += 1
    return st, n


def run(
    path: str | None,
    games: int,
    seed: int,
    max_turns: int,
    options: dict[str, Any] | None = None,
    ruleset: str | None = None,
    mode: str | None = None,
) -> dict[str, Any]:
    scn = load_scenario(path) if path else None
    rs = get(ruleset) if ruleset else natural_for(scn)
    name = scn.name if scn is not None else rs.title
    out: dict[str, Any] = {
        "scenario": name,
        "games": games,
        "finished": 0,
        "turn_limit": 0,
        "errors": 0,
        "winners": {},
        "actions": 0,
    }
    t0 = time.perf_counter()
    for g in range(games):
        try:
            st, n = play(rs, scn, seed + g, max_turns, options, mode)
            out["actions"] += n
            res = rs.result(st)
            if not out["winners"]:
                out["winners"] = {**{s: 0 for s in res.get("score") or {}}, "draw": 0}
            if rs.is_over(st):
                out["finished"] += 1
                key = res["winner"] or "draw"
                out["winners"][key] = out["winners"].get(key, 0) + 1
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
    ap.add_argument("file", nargs="?", help="scenario (rulesets whose setup is 'scenario')")
    ap.add_argument("--ruleset", default=None, help="registered ruleset name")
    ap.add_argument("--mode", default=None, help="one of the ruleset's modes")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        help="optional rule to switch on: NAME, or NAME=VALUE (VALUE: JSON, "
        "else a string), e.g. --option variant=ZOMBIE",
    )
    a = ap.parse_args(argv)
    if a.file is None and (a.ruleset is None or get(a.ruleset).setup == "scenario"):
        ap.error("a scenario file is needed (or --ruleset NAME of a ruleset with setup 'none')")
    res = run(a.file, a.games, a.seed, a.max_turns, parse_options(a.option), a.ruleset, a.mode)
    if a.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k}: {v}")
    return 1 if res["errors"] else 0


def parse_options(items: list[str]) -> dict[str, Any]:
    """``--option`` values: ``NAME`` -> true, ``NAME=VALUE`` -> the JSON value, or the
    string when it is not JSON."""
    out: dict[str, Any] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            out[name] = True
            continue
        try:
            out[name] = json.loads(value)
        except ValueError:
            out[name] = value
    return out


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
