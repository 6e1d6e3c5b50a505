"""Event-loop stall watchdog (bench and diagnosis only: ``STALL_WATCH_MS``).

The loop stamps a heartbeat every few milliseconds; a thread checks it, and when the loop
has not stamped for ``STALL_WATCH_MS`` it logs where the main thread is (once per stall),
so a latency tail can be traced to the code that held the loop.
"""
from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback

log = logging.getLogger("app.stall")


async def watch(threshold_ms: float) -> None:
    main = threading.main_thread().ident
    beat = [time.monotonic()]
    stop = threading.Event()

    def checker() -> None:
        reported = 0.0
        while not stop.wait(threshold_ms / 4000):
            late = time.monotonic() - beat[0]
            if late * 1000 >= threshold_ms and beat[0] != reported:
                reported = beat[0]
                frame = sys._current_frames().get(main)       # noqa: SLF001
                stack = "".join(traceback.format_stack(frame)[-12:]) if frame else "?"
                log.warning("event loop stalled %.0f ms so far (since %.3f) at:\n%s", late * 1000,
                            time.time() - late, stack)

    threading.Thread(target=checker, name="stall-watch", daemon=True).start()
    try:
        while True:
            beat[0] = time.monotonic()
            await asyncio.sleep(threshold_ms / 8000)
    finally:
        stop.set()
