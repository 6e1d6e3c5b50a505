"""The application of the test servers (tests/app/conftest.py ``Server``): ``app.main``'s,
once the module constants named in ``TEST_CONSTANTS`` are set (``module.NAME=integer``,
comma separated, e.g. ``app.games.play.SNAPSHOT_EVERY=10``).  A limit fixed in the code
(a protocol limit, not a setting) is lowered this way for a test, in the server process
and in each of its workers (uvicorn imports this module in every one).  Every test server
runs tests/app/pool_guard.py's guard."""

from __future__ import annotations

import importlib
import os

for item in filter(None, os.environ.get("TEST_CONSTANTS", "").split(",")):
    target, _, value = item.partition("=")
    module, _, name = target.strip().rpartition(".")
    mod = importlib.import_module(module)
    if not isinstance(getattr(mod, name, None), int):
        raise SystemExit(f"TEST_CONSTANTS: {target} is not an integer constant")
    setattr(mod, name, int(value))

from app.main import app  # noqa: E402

from tests.app import pool_guard  # noqa: E402

pool_guard.install()  # logs nested pool check-outs

__all__ = ["app"]
