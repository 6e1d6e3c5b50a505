"""Phase timing inside a running server: the thread CPU time (``time.thread_time_ns``) each
named part of the action path takes, for ``bench/overlord_scale.py --phases``.

The delivery benchmark (bench/delivery_bench.py) runs the same code back to back with
warm caches; in the server, between two actions of a game, 99 other games and the load
generator run, and the same Python code took twice as long per action (session 9,
docs/performance.md).  This measures the parts where it matters: in the server, under
the benchmark's load.  ``install()`` wraps the functions below (each wrapper costs ~1 us
per call, ~50 calls per action: compare runs with each other, not with unwrapped runs);
a signal writes the counters to ``PHASES_OUT.<pid>`` (the benchmark sends it at both ends
of the measured window and prints the difference per action).

Not imported by the server: the benchmark starts the server through ``PHASED`` in
overlord_scale.py.
"""

from __future__ import annotations

import inspect
import os
import signal
import time
from typing import Any

_ACC: dict[str, list[int]] = {}
_ORDER: list[str] = []
_DEPTH: dict[str, int] = {}
SIGNAL = signal.SIGRTMIN + 1  # SIGUSR1/2 belong to the profile mode


def _add(label: str, ns: int, wall: int) -> None:
    d = _ACC.get(label)
    if d is None:
        d = _ACC[label] = [0, 0, 0]
    d[0] += ns
    d[1] += 1
    d[2] += wall


def _wrap(owner: Any, name: str, label: str) -> None:
    raw = inspect.getattr_static(owner, name)
    f = getattr(owner, name)
    clock, wall = time.thread_time_ns, time.perf_counter_ns
    if label not in _ORDER:
        _ORDER.append(label)
    if inspect.iscoroutinefunction(f):

        async def w(*a: Any, **k: Any) -> Any:  # CPU of this thread while it ran
            t, w0 = clock(), wall()  # (an await that suspends counts what
            try:  # the loop ran meanwhile: only for
                return await f(*a, **k)  # calls that rarely suspend)
            finally:
                _add(label, clock() - t, wall() - w0)
    else:

        def w(*a: Any, **k: Any) -> Any:  # type: ignore[misc]
            depth = _DEPTH.get(label, 0)  # a subclass calling its base: once
            _DEPTH[label] = depth + 1
            t, w0 = clock(), wall()
            try:
                return f(*a, **k)
            finally:
                _DEPTH[label] = depth
                if not depth:
                    _add(label, clock() - t, wall() - w0)

    setattr(owner, name, staticmethod(w) if isinstance(raw, staticmethod) else w)


def install() -> list[str]:
    """Wrap the action path's parts; returns the labels that could not be wrapped."""
    from app.games import play, repository, sessions
    from app.realtime import connection, hub
    from engine.core import ruleset as core

    from uvicorn.protocols.websockets import websockets_sansio_impl as sansio
    from app.realtime import endpoints

    targets = [
        (sansio.WebSocketsSansIOProtocol, "data_received", "read: frames parsed (uvicorn)"),
        (endpoints, "parse_json", "read: JSON checked and parsed"),
        (endpoints, "_dispatch", "read: dispatched (incl. the submit)"),
        (sessions.GameSessions, "submit", "hub.submit (whole action)"),
        (play, "submit", "  play.submit (engine + log)"),
        (repository, "append", "    log append (commit)"),
        (hub.Hub, "deliver", "  deliver"),
        (hub, "view_parts_of", "    views (view_parts_of)"),
        (hub.Hub, "update_msg", "    update messages"),
        (hub.Hub, "_legal", "      legal"),
        (hub.Hub, "_seat_chat", "      chat channels"),
        (hub.Hub, "_redact", "      events redaction"),
        (hub._Built, "patched", "    patches + texts"),
        (connection.Connection, "send", "    send (queue)"),
        (connection.Connection, "writer", "writer tasks"),
    ]
    import engine.rulesets  # noqa: F401  (fills the registry)

    at = next(i for i, t in enumerate(targets) if t[1] == "append")
    for cls in dict.fromkeys(type(rs) for rs in core.all_rulesets()):
        targets[at:at] = [
            (cls, "canonical_action", "    engine canonical_action"),
            (cls, "apply", "    engine apply"),
        ]
    missing = []
    for owner, name, label in targets:
        try:
            _wrap(owner, name, label)
        except AttributeError:
            missing.append(label)
    import gc

    gc_t = [0, 0]

    def _gc(phase: str, info: dict[str, Any]) -> None:  # the collections' own time
        if phase == "start":
            gc_t[0], gc_t[1] = time.thread_time_ns(), time.perf_counter_ns()
        else:
            _add(
                f"gc (generation {info.get('generation')})",
                time.thread_time_ns() - gc_t[0],
                time.perf_counter_ns() - gc_t[1],
            )

    for g in range(3):
        _ORDER.append(f"gc (generation {g})")
    gc.callbacks.append(_gc)
    signal.signal(SIGNAL, _dump)
    return missing


def _dump(*_: Any) -> None:
    out = os.environ.get("PHASES_OUT", "/tmp/phases")
    with open(f"{out}.{os.getpid()}", "w") as f:
        f.write(f"thread\t{time.thread_time_ns()}\t0\t{time.perf_counter_ns()}\n")
        for label in _ORDER:
            ns, n, w = _ACC.get(label, (0, 0, 0))
            f.write(f"{label}\t{ns}\t{n}\t{w}\n")


def read(path: str) -> dict[str, tuple[int, int, int]]:
    """label -> (thread CPU ns, calls, wall ns)."""
    out = {}
    with open(path) as f:
        for line in f:
            label, ns, n, w = line.rstrip("\n").split("\t")
            out[label] = (int(ns), int(n), int(w))
    return out
