"""The event loop thread's scheduler slice (Linux ``sched_setattr``; ``SCHED_SLICE_MS``).

Each socket write wakes its reader; a TCP wake-up is a *sync* wake-up, which Linux places
on the writer's CPU, and under EEVDF (Linux 6.6+) the woken task preempts the writer when
its virtual deadline is earlier.  A deadline is the task's virtual runtime plus its slice,
so the loop thread asks for a short slice (Linux 6.12+ honours ``sched_runtime`` for the
normal class, 0.1-100 ms, no privilege needed): a reader it wakes (a client, Redis,
PostgreSQL on the same machine) then waits for the loop to sleep instead of taking its
CPU in the middle of a delivery.  Measured at 100 games (docs/performance.md, session 8):
preemptions 4.9-5.5 -> 3.3-3.8 per action, run-queue wait 0.64-0.76 -> 0.38-0.56 ms.

Best effort: another OS, another architecture, an older kernel (which ignores the field)
or a refusal leaves the kernel's default and says why.
"""
from __future__ import annotations

import ctypes
import os
import platform
import struct
import sys

# (sched_setattr, sched_getattr) system call numbers
_CALLS = {"x86_64": (314, 315), "aarch64": (274, 275)}
# struct sched_attr (SCHED_ATTR_SIZE_VER1): size, policy, flags, nice, priority,
# runtime, deadline, period (ns), util_min, util_max
_ATTR = struct.Struct("=IIQiIQQQII")
SCHED_OTHER = 0


def _calls() -> tuple[int, int] | None:
    if not sys.platform.startswith("linux"):
        return None
    return _CALLS.get(platform.machine())


def set_slice(ms: float) -> str | None:
    """Give the calling thread a scheduler slice of ``ms`` milliseconds (normal policy, its
    nice value kept); None when done, else why not."""
    calls = _calls()
    if calls is None:
        return f"no sched_setattr here ({sys.platform} {platform.machine()})"
    ns = int(ms * 1_000_000)
    libc = ctypes.CDLL(None, use_errno=True)
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    buf = ctypes.create_string_buffer(_ATTR.pack(_ATTR.size, SCHED_OTHER, 0, nice, 0, ns,
                                                 0, 0, 0, 0), _ATTR.size)
    if libc.syscall(calls[0], 0, buf, 0) != 0:
        err = ctypes.get_errno()
        return f"sched_setattr refused: {os.strerror(err)}"
    return None


def current_slice_ns() -> int | None:
    """The calling thread's slice in nanoseconds as the kernel reports it (None: unknown;
    0: the kernel keeps no slice of its own for the thread)."""
    calls = _calls()
    if calls is None:
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(_ATTR.size)
    if libc.syscall(calls[1], 0, buf, _ATTR.size, 0) != 0:
        return None
    return int(_ATTR.unpack(buf.raw)[5])
