"""Fail unless every distribution the installed project needs is pinned by the lock file.

    python scripts/check_installed.py LOCK [EXTRAS]

Walks the requirements of the installed ``overlord-server`` (with EXTRAS, comma
separated) through the installed distributions' metadata, evaluating markers for this
interpreter, and checks each one against LOCK (``name==version`` lines, as written by
``uv pip compile``): a distribution missing from the lock (pyproject.toml gained a
dependency, `make lock` was not run) or installed at another version fails.  Stdlib and
pip's vendored ``packaging`` only: it runs in a runtime-only virtualenv.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata

try:
    from packaging.requirements import Requirement
except ImportError:  # a runtime-only venv: pip's copy
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]

PROJECT = "overlord-server"


def canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(path: str) -> dict[str, set[str]]:
    pins: dict[str, set[str]] = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", line)
        if m:
            pins.setdefault(canon(m.group(1)), set()).add(m.group(2))
    return pins


def needed(extras: set[str]) -> dict[str, str]:
    """name -> installed version of everything the project needs (transitively)."""
    out: dict[str, str] = {}
    todo: list[tuple[str, set[str]]] = [(PROJECT, extras)]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, want = todo.pop()
        key = (canon(name), frozenset(want))
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise SystemExit(f"check_installed: {name} is required but not installed") from None
        if canon(name) != PROJECT:
            out[canon(name)] = dist.version
        for text in dist.requires or []:
            req = Requirement(text)
            envs = [{"extra": e} for e in sorted(want)] or [{"extra": ""}]
            if req.marker is None or any(req.marker.evaluate(env) for env in envs):
                todo.append((req.name, set(req.extras)))
    return out


def main() -> int:
    lock = sys.argv[1]
    extras = {e.strip() for e in (sys.argv[2] if len(sys.argv) > 2 else "").split(",") if e.strip()}
    pins = read_lock(lock)
    bad = []
    for name, version in sorted(needed(extras).items()):
        if name not in pins:
            bad.append(f"{name}=={version} is needed but not pinned by {lock}")
        elif version not in pins[name]:
            bad.append(f"{name}=={version} is installed, {lock} pins {sorted(pins[name])}")
    for line in bad:
        print("check_installed:", line, file=sys.stderr)
    if bad:
        print("check_installed: run `make lock` and commit the lock files", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
