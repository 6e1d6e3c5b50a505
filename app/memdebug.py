"""Memory diagnostics for benchmarks (off unless ``OVERLORD_MEMDEBUG`` or
``OVERLORD_TRACEMALLOC`` is set; never in production).

On SIGUSR1 the server runs a full garbage collection and glibc's ``malloc_trim`` (so that
its RSS tells what is alive, not what the allocator keeps), and prints its RSS.  With
``OVERLORD_TRACEMALLOC=N`` (N frames per allocation, traced from start-up) it also prints
the top allocation sites, grouped by traceback, the allocating line first, with their
growth since the previous dump (``bench/resume_bench.py --memory``)."""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import signal
import tracemalloc
from typing import Any

TOP = 25


def rss_kb() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def trim() -> None:
    gc.collect()
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def install() -> None:
    frames = int(os.environ.get("OVERLORD_TRACEMALLOC") or 0)
    if not (frames or os.environ.get("OVERLORD_MEMDEBUG")) or not hasattr(signal, "SIGUSR1"):
        return
    if frames:
        tracemalloc.start(frames)
    last: list[Any] = [None]

    def dump(*_: Any) -> None:
        trim()
        lines = [f"memdebug: RSS {rss_kb()} kB after gc + malloc_trim"]
        if tracemalloc.is_tracing():
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)])
            stats = (snap.compare_to(last[0], "traceback") if last[0] is not None
                     else snap.statistics("traceback"))
            last[0] = snap
            total = sum(s.size for s in snap.statistics("filename"))
            lines.append(f"tracemalloc: {total / 2**20:.1f} MiB traced; top {TOP} sites "
                         "(size, growth, blocks):")
            for s in stats[:TOP]:
                where = " <- ".join(f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}"
                                    for f in reversed(list(s.traceback)))
                lines.append(f"  {s.size / 1024:10.1f} KiB {getattr(s, 'size_diff', 0) / 1024:+10.1f}"
                             f" KiB {s.count:7d}  {where}")
        print("\n".join(lines), flush=True)

    signal.signal(signal.SIGUSR1, dump)
