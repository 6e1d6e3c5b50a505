"""Command line: ``python -m engine check FILE.m44``, ``simulate ...`` and ``verify LOG.json``.

* ``check FILE...``: exit 0 when every code of every file is supported; otherwise print
  each unsupported code with its hexes (vocabulary: slot, code, (row, col)) and exit 1.
  A file that cannot be read at all also exits 1 with the error code and message.
* ``simulate [FILE] [--ruleset NAME] --games N --seed S --json [--max-turns 200]``:
  delegates to :func:`engine.simulate.main`.
* ``arena --ruleset R --scenario F --a hard --b normal --games N --seed S``: two
  computer players against each other (:mod:`engine.arena`).
* ``verify LOG.json``: check a finished game's exported log (``GET /api/games/{id}/log``):
  the seed matches the commitment published at creation and replaying the log with it
  gives exactly the dice and draws that were played (:mod:`engine.fairdice`).  Prints
  ``OK`` or ``MISMATCH`` with the first differing log entry; exit 0 / 1 (2: unreadable).
"""

from __future__ import annotations

import json
import sys

from . import arena, simulate
from .fairdice import verify as verify_log
from .core.errors import ScenarioError
from .core.scenario import check_codes

USAGE = (
    "usage: python -m engine check FILE.m44 [FILE...]\n"
    "       python -m engine simulate [FILE.m44] [--ruleset NAME] [--mode M] --games N --seed S"
    " --json [--max-turns 200]\n"
    "       python -m engine verify LOG.json\n"
    "       python -m engine arena --ruleset R [--scenario F] --a LEVEL --b LEVEL"
    " --games N --seed S [--json]"
)


def check(paths: list[str]) -> int:
    """Report unsupported codes; 0 when all files are fully supported."""
    status = 0
    for path in paths:
        try:
            unknown = check_codes(path)
        except ScenarioError as exc:
            print(f"{path}: {exc.code}: {exc.message}")
            status = 1
            continue
        for u in unknown:
            print(f"{path}: unsupported {u.describe()}")
        status |= bool(unknown)
        if not unknown:
            print(f"{path}: ok")
    return status


def verify(path: str) -> int:
    """Verify a finished game's exported log; 0 when fair, 1 on a mismatch, 2 unreadable."""
    try:
        with open(path, "rb") as f:
            log = json.load(f)
    except (OSError, ValueError, RecursionError) as exc:
        print(f"{path}: cannot read the log: {exc}")
        return 2
    verdict = verify_log(log)
    for line in verdict.checks:
        print(f"  {line}")
    if verdict.ok:
        print(f"{path}: {verdict.message}")
        return 0
    where = f" (first differing log entry: seq {verdict.seq})" if verdict.seq else ""
    print(f"{path}: MISMATCH{where}: {verdict.message}")
    return 1


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and args[0] == "check":
        return check(args[1:])
    if len(args) == 2 and args[0] == "verify":
        return verify(args[1])
    if args and args[0] == "arena":
        return int(arena.main(args[1:]) or 0)
    if args and args[0] == "simulate":
        return int(simulate.main(args[1:]) or 0)
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
