"""Every module that app/, engine/ and migrations/ import is importable here.

    python scripts/check_imports.py [DIR ...]

Reads every ``import`` / ``from ... import`` of the source (module level or inside a
function: ``asyncpg`` and ``redis`` are only imported when PostgreSQL or Redis are
configured) and fails on a top-level module that this interpreter cannot find.  CI runs
it with the runtime-only virtualenv (.ci/run): a dependency declared only by a test extra,
or not at all, fails there.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST_PARTY = {"app", "engine", "migrations"}


def imports(dirs: list[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for d in dirs:
        for path in sorted((ROOT / d).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return found


def main() -> int:
    dirs = sys.argv[1:] or ["app", "engine", "migrations"]
    missing = {
        top: where
        for top, where in imports(dirs).items()
        if top not in FIRST_PARTY
        and top not in sys.stdlib_module_names
        and importlib.util.find_spec(top) is None
    }
    for top, where in sorted(missing.items()):
        print(
            f"check_imports: {top} (imported by {', '.join(sorted(where)[:3])}) is not "
            f"installed: declare it in pyproject.toml's dependencies, then `make lock`",
            file=sys.stderr,
        )
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
