"""Command line: ``python -m engine check FILE.m44`` and ``python -m engine simulate ...``.

* ``check FILE...``: exit 0 when every code of every file is supported; otherwise print
  each unsupported code with its hexes (vocabulary: slot, code, (row, col)) and exit 1.
  A file that cannot be read at all also exits 1 with the error code and message.
* ``simulate FILE --games N --seed S --json [--max-turns 200]``: delegates to
  :func:`engine.simulate.main` (imported lazily).
"""
from __future__ import annotations

import sys

from .core.errors import ScenarioError
from .scenario import check_codes

USAGE = ("usage: python -m engine check FILE.m44 [FILE...]\n"
         "       python -m engine simulate [FILE.m44] [--ruleset NAME] [--mode M] --games N --seed S"
         " --json [--max-turns 200]")


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


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and args[0] == "check":
        return check(args[1:])
    if args and args[0] == "simulate":
        from . import simulate
        return int(simulate.main(args[1:]) or 0)
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
