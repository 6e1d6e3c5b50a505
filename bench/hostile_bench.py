"""Hostile-load benchmark (issue 9): what uploads and log replays cost the lobby.

Starts a uvicorn (temp SQLite DB) from ``--root`` (default: this checkout; point it at
another worktree to compare) and measures:

1. **uploads**: ``--uploads`` distinct scenario uploads (bearer tokens of
   ``--uploads / 10`` identities, within the upload quota; the server's upload rates are
   raised for the run so that listing cost alone is measured), then ``GET /api/scenarios`` latency
   (median of 5) and ``/healthz`` latency while listings run;
2. **catch-up**: a bot-vs-bot Pegasus game played to ``--entries`` log entries, then
   ``--concurrent`` simultaneous anonymous ``GET /events?since=0`` and the same number of
   websocket reconnects with ``since=0``: wall time, server CPU seconds
   (``/proc/<pid>/stat``), answers by status / message type, and ``/healthz`` latency
   meanwhile.

    python bench/hostile_bench.py [--root DIR] [--uploads 300] [--entries 2400] [--concurrent 50]

Prints one JSON object; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(root: Path, db: Path, extra: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "SECRET_KEY": "bench",
        "BOT_DELAY": "0",
        "RATE_LIMITS": "upload=100000/minute,identity=100000/minute,game=100000/minute,"
        "game_address=100000/minute,upload_address=100000/minute,replay=100000/minute",
        "OVERLORD_TEST_SEEDS": "1",
        "PYTHONPATH": str(root),
        **extra,
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=root,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/healthz", timeout=0.5).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("server did not start")


async def healthz_during(base: str, work: Any) -> tuple[Any, float]:
    """Run ``work`` while polling /healthz; returns (work's result, worst /healthz s)."""
    worst = 0.0
    done = False

    async def poll() -> None:
        nonlocal worst
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            while not done:
                t = time.perf_counter()
                await c.get("/healthz")
                worst = max(worst, time.perf_counter() - t)
                await asyncio.sleep(0.05)

    poller = asyncio.create_task(poll())
    try:
        result = await work
    finally:
        done = True
        await poller
    return result, worst


async def uploads(base: str, n: int, pid: int) -> dict[str, Any]:
    scn = json.loads((HERE / "scenarios" / "2-PegasusBridge.m44").read_text("utf-8"))
    statuses: dict[int, int] = {}
    t0 = time.perf_counter()
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        toks = []
        for i in range(max(1, n // 10)):
            r = await c.post("/api/identity", json={"name": f"up{i}"})
            toks.append(r.json()["token"])
            c.cookies.clear()
        for i in range(n):
            scn["text"] = {"en": {"name": f"variant {i}"}}
            r = await c.post(
                "/api/scenarios",
                files={"file": ("v.m44", json.dumps(scn).encode())},
                headers={"Authorization": f"Bearer {toks[i % len(toks)]}"},
            )
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        upload_s = time.perf_counter() - t0
        times = []
        cpu0 = cpu_seconds(pid)

        async def listings() -> int:
            count = 0
            for _ in range(5):
                t = time.perf_counter()
                r = await c.get("/api/scenarios")
                times.append(time.perf_counter() - t)
                count = len(r.json())
            return count

        listed, worst = await healthz_during(base, listings())
        return {
            "uploads": n,
            "upload_statuses": statuses,
            "upload_wall_s": round(upload_s, 2),
            "listing_median_s": round(statistics.median(times), 4),
            "listing_max_s": round(max(times), 4),
            "listed_first_page": listed,
            "listing_cpu_s_5_calls": round(cpu_seconds(pid) - cpu0, 3),
            "healthz_worst_s_during_listing": round(worst, 4),
        }


async def catchup(base: str, entries: int, concurrent: int, pid: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as c:
        tok = (await c.post("/api/identity", json={"name": "host"})).json()["token"]
        c.cookies.clear()
        r = await c.post(
            "/api/games",
            json={
                "scenario_id": "2-PegasusBridge",
                "mode": "1v1",
                "seed": 5,
                "bots": ["AXIS", "ALLIES"],
            },
            headers={"Authorization": f"Bearer {tok}"},
        )
        gid = r.json()["id"]
        t0 = time.perf_counter()
        while True:
            g = (await c.get(f"/api/games/{gid}")).json()
            if g["seq"] >= entries or g["status"] == "finished" or time.perf_counter() - t0 > 600:
                break
            await asyncio.sleep(0.5)
        seq = g["seq"]
        # restart-free but cold: the worker holds only the last 256 batches in memory
        statuses: dict[int, int] = {}

        async def events() -> None:
            async with httpx.AsyncClient(base_url=base, timeout=120) as cc:
                rs = await asyncio.gather(
                    *(cc.get(f"/api/games/{gid}/events?since=0") for _ in range(concurrent))
                )
            for x in rs:
                statuses[x.status_code] = statuses.get(x.status_code, 0) + 1

        cpu0, t = cpu_seconds(pid), time.perf_counter()
        _, worst_ev = await healthz_during(base, events())
        ev = {
            "wall_s": round(time.perf_counter() - t, 3),
            "cpu_s": round(cpu_seconds(pid) - cpu0, 3),
            "statuses": statuses,
            "healthz_worst_s": round(worst_ev, 4),
        }

        kinds: dict[str, int] = {}
        sizes: list[int] = []
        ws_base = base.replace("http", "ws", 1)

        async def one() -> None:
            async with websockets.connect(f"{ws_base}/ws/games/{gid}?since=0", max_size=None) as w:
                await w.recv()  # hello
                try:
                    m = await asyncio.wait_for(w.recv(), 60)
                except asyncio.TimeoutError:
                    kinds["none"] = kinds.get("none", 0) + 1
                    return
                sizes.append(len(m))
                k = json.loads(m)["type"]
                kinds[k] = kinds.get(k, 0) + 1

        async def sockets() -> None:
            await asyncio.gather(*(one() for _ in range(concurrent)))

        cpu0, t = cpu_seconds(pid), time.perf_counter()
        _, worst_ws = await healthz_during(base, sockets())
        ws = {
            "wall_s": round(time.perf_counter() - t, 3),
            "cpu_s": round(cpu_seconds(pid) - cpu0, 3),
            "after_hello": kinds,
            "bytes_median": int(statistics.median(sizes)) if sizes else 0,
            "healthz_worst_s": round(worst_ws, 4),
        }
        return {
            "game_seq": seq,
            "concurrent": concurrent,
            "events_since_0": ev,
            "sockets_since_0": ws,
        }


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=HERE)
    ap.add_argument("--uploads", type=int, default=300)
    ap.add_argument("--entries", type=int, default=2400)
    ap.add_argument("--concurrent", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        proc, base = start(
            args.root.resolve(), Path(d) / "bench.db", {"BOT_MAX_SEQ": str(args.entries)}
        )
        try:
            out = {
                "root": str(args.root),
                **await uploads(base, args.uploads, proc.pid),
                **await catchup(base, args.entries, args.concurrent, proc.pid),
            }
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
