"""Server benchmark: action-to-broadcast latency versus a bare websockets broadcast.

Runs N games with 2 players and S spectators each against a real uvicorn (started here on
a temp SQLite DB; with --pg ALSO PostgreSQL+Redis with --workers workers), players acting
at --rate actions/s per game (choices: a seeded random pick from the server's legal
lists).  Latency = from an action's send to its receipt by the LAST connection of the game
(players + spectators).  Samples of the first --warmup seconds are dropped.

Right after each server run, the same N x (2+S) connections talk to a bare `websockets`
broadcast server (another process) that fans out the same payloads (updates recorded
from the server run: same sizes, same compressibility for permessage-deflate) at the same
rate: the physical baseline, measured under the same machine load.  The load average
is printed with every row: run it on an otherwise idle machine.

    python bench/server_bench.py                       # SQLite, 10 games x (2+5), 2/s, 30 s
    python bench/server_bench.py --pg --repeat 3       # SQLite and PostgreSQL+Redis, 3 rounds
    python bench/server_bench.py --quick               # a smoke run (~20 s)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


PAYLOADS: list[str] = []  # update texts seen in the server run, replayed by the baseline


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def summary(name: str, xs: list[float]) -> dict[str, Any]:
    ms = [x * 1000 for x in xs]
    return {
        "name": name,
        "n": len(ms),
        "p50": pct(ms, 50),
        "p90": pct(ms, 90),
        "p99": pct(ms, 99),
        "mean": statistics.fmean(ms) if ms else float("nan"),
    }


# -- the game server -------------------------------------------------------------------------
def start_server(pg: bool, workers: int) -> tuple[subprocess.Popen[bytes], str, str | None]:
    port = free_port()
    env = {
        **os.environ,
        "RATE_LIMITS": "socket=1000/second,identity=100000/minute,game=100000/minute,"
        "game_address=100000/minute,upload_address=100000/minute,replay=100000/minute",
        "OVERLORD_TEST_SEEDS": "1",
    }  # fixed seeds: comparable runs
    schema = None
    if pg:
        schema = "bench_" + secrets.token_hex(4)
        subprocess.run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-U",
                "root",
                "-d",
                "test",
                "-qc",
                f"CREATE SCHEMA {schema}",
            ],
            check=True,
        )
        env.update(
            DATABASE_URL="postgresql+asyncpg://root@127.0.0.1:5432/test",
            DATABASE_SCHEMA=schema,
            REDIS_URL="redis://127.0.0.1:6379/0",
        )
    else:
        env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/bench.db"
        env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    prof = (
        ["-m", "cProfile", "-o", os.environ["BENCH_PROFILE"]]
        if os.environ.get("BENCH_PROFILE")
        else []
    )
    cmd = [
        sys.executable,
        *prof,
        "-m",
        "uvicorn",
        "app.main:app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--workers",
        str(workers),
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(base + "/healthz", timeout=0.5).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    time.sleep(2.0 if workers > 1 else 0.2)  # let every worker finish its start-up
    return proc, base, schema


class Conn:
    def __init__(self, ws: Any, arrivals: dict[int, float], sizes: list[int]) -> None:
        self.ws, self.arrivals, self.sizes = ws, arrivals, sizes
        self.seq, self.legal, self.view = 0, [], {}
        self.acks: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for raw in self.ws:
            now = time.perf_counter()
            msg = json.loads(raw)
            t = msg["type"]
            if t == "update":
                self.arrivals[msg["first_seq"]] = now
                self.sizes.append(len(raw))
                if len(PAYLOADS) < 500:
                    PAYLOADS.append(raw if isinstance(raw, str) else raw.decode())
            if t in ("hello", "update", "sync") and msg["seq"] >= self.seq:
                self.seq, self.legal, self.view = msg["seq"], msg["legal"], msg["view"]
                self.ready.set()
            elif t in ("ack", "reject"):
                await self.acks.put(msg)


async def server_game(
    base: str,
    ws_base: str,
    spectators: int,
    rate: float,
    start: float,
    until: float,
    lat: list[tuple[float, float]],
    sizes: list[int],
    seed: int,
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        toks = []
        for name in ("Axis", "Allies"):
            toks.append((await api.post("/api/identity", json={"name": name})).json()["token"])
        g = (
            await api.post(
                "/api/games",
                json={"scenario_id": "2-PegasusBridge", "seat": "AXIS", "seed": seed},
                headers={"Authorization": f"Bearer {toks[0]}"},
            )
        ).json()
        await api.post(
            f"/api/games/{g['id']}/seats/ALLIES/claim",
            headers={"Authorization": f"Bearer {toks[1]}"},
        )
    url = f"{ws_base}/ws/games/{g['id']}"
    arrivals: list[dict[int, float]] = [{} for _ in range(2 + spectators)]
    conns: list[Conn] = []
    for i in range(2 + spectators):
        q = f"?token={toks[i]}" if i < 2 else ""
        ws = await websockets.connect(url + q, max_size=None)
        conns.append(Conn(ws, arrivals[i], sizes))
    await asyncio.wait_for(asyncio.gather(*(c.ready.wait() for c in conns)), 30)
    players = {"AXIS": conns[0], "ALLIES": conns[1]}
    rng = random.Random(seed)
    interval = 1.0 / rate
    nxt = max(start, time.perf_counter()) + rng.random() * interval
    sent: dict[int, float] = {}
    while time.perf_counter() < until:
        lead = max(players.values(), key=lambda c: c.seq)
        if lead.view.get("game_over"):
            break
        me = players[lead.view["to_act"][0]]
        while me.seq < lead.seq:
            await asyncio.sleep(0.001)
        await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
        nxt = max(nxt + interval, time.perf_counter())
        seq = me.seq
        sent[seq + 1] = time.perf_counter()
        await me.ws.send(json.dumps({"type": "action", "seq": seq, "action": rng.choice(me.legal)}))
        ack = await me.acks.get()
        if ack["type"] != "ack":
            sent.pop(seq + 1)
            continue
        while any(c.seq < ack["seq"] for c in conns):
            await asyncio.sleep(0.001)
    await asyncio.sleep(0.5)
    for first, t0 in sent.items():
        got = [a.get(first) for a in arrivals]
        if all(g is not None for g in got):
            lat.append((t0, max(got) - t0))  # type: ignore[type-var]
    for c in conns:
        await c.ws.close()
        c.task.cancel()


# -- the bare baseline -------------------------------------------------------------------------
def baseline_server(port: int, payload_file: str) -> None:
    rooms: dict[str, set[Any]] = {}
    payloads = json.loads(Path(payload_file).read_text())

    async def handler(ws: Any) -> None:
        room = rooms.setdefault(ws.request.path, set())
        room.add(ws)
        try:
            async for raw in ws:
                msg = json.loads(raw)
                payload = '{"k":%d,"update":%s}' % (msg["k"], payloads[msg["i"] % len(payloads)])
                websockets.broadcast(room, payload)
        finally:
            room.discard(ws)

    async def main() -> None:
        async with websockets.serve(handler, "127.0.0.1", port, max_size=None):
            await asyncio.Future()

    asyncio.run(main())


async def baseline_game(
    ws_base: str,
    room: str,
    spectators: int,
    rate: float,
    start: float,
    until: float,
    lat: list[tuple[float, float]],
    seed: int,
) -> None:
    arrivals: list[dict[int, float]] = [{} for _ in range(2 + spectators)]

    async def reader(ws: Any, arr: dict[int, float]) -> None:
        async for raw in ws:
            now = time.perf_counter()
            arr[json.loads(raw)["k"]] = now

    socks = [
        await websockets.connect(f"{ws_base}/{room}", max_size=None) for _ in range(2 + spectators)
    ]
    tasks = [asyncio.create_task(reader(w, a)) for w, a in zip(socks, arrivals)]
    rng = random.Random(seed)
    interval = 1.0 / rate
    nxt = max(start, time.perf_counter()) + rng.random() * interval
    sent: dict[int, float] = {}
    k = 0
    while time.perf_counter() < until:
        await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
        nxt = max(nxt + interval, time.perf_counter())
        k += 1
        sent[k] = time.perf_counter()
        await socks[k % 2].send(json.dumps({"k": k, "i": rng.randrange(1 << 30)}))
        while any(k not in a for a in arrivals):
            await asyncio.sleep(0.001)
    for key, t0 in sent.items():
        lat.append((t0, max(a[key] for a in arrivals) - t0))
    for w in socks:
        await w.close()
    for t in tasks:
        t.cancel()


def loadavg() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def measured(lat: list[tuple[float, float]], start: float, args: argparse.Namespace) -> list[float]:
    """The latencies of the actions sent after the warm-up."""
    return [x for t0, x in lat if t0 >= start + args.warmup]


async def run_server(
    args: argparse.Namespace, pg: bool, workers: int
) -> tuple[list[float], list[int]]:
    proc, base, schema = start_server(pg, workers)
    ws_base = base.replace("http", "ws", 1)
    lat: list[tuple[float, float]] = []
    sizes: list[int] = []
    try:
        start = time.perf_counter() + 2  # games set up their connections meanwhile
        until = start + args.warmup + args.duration
        await asyncio.gather(
            *(
                server_game(
                    base, ws_base, args.spectators, args.rate, start, until, lat, sizes, 1000 + i
                )
                for i in range(args.games)
            )
        )
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
        if schema:
            subprocess.run(
                [
                    "psql",
                    "-h",
                    "127.0.0.1",
                    "-U",
                    "root",
                    "-d",
                    "test",
                    "-qc",
                    f"DROP SCHEMA {schema} CASCADE",
                ],
                check=False,
                capture_output=True,
            )
    return measured(lat, start, args), sizes


async def run_baseline(args: argparse.Namespace) -> list[float]:
    bport = free_port()
    fd, payload_file = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(PAYLOADS or ['{"pad":"%s"}' % ("x" * 4000)], f)
    bproc = subprocess.Popen(
        [sys.executable, __file__, "--baseline-server", str(bport), "--payloads", payload_file]
    )
    lat: list[tuple[float, float]] = []
    try:
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", bport), 0.2):
                    break
            except OSError:
                time.sleep(0.05)
        start = time.perf_counter() + 2
        until = start + args.warmup + args.duration
        await asyncio.gather(
            *(
                baseline_game(
                    f"ws://127.0.0.1:{bport}",
                    f"g{i}",
                    args.spectators,
                    args.rate,
                    start,
                    until,
                    lat,
                    2000 + i,
                )
                for i in range(args.games)
            )
        )
    finally:
        bproc.terminate()
        bproc.wait(10)
        os.unlink(payload_file)
    return measured(lat, start, args)


def row(name: str, xs: list[float], load: str) -> str:
    r = summary(name, xs)
    return (
        f"{r['name']:44} {r['n']:>6} {r['p50']:>8.2f} {r['p90']:>8.2f} {r['p99']:>8.2f} "
        f"{r['mean']:>8.2f}  {load}"
    )


async def run(args: argparse.Namespace) -> None:
    backends = [] if args.pg_only else [("SQLite, 1 worker", False, 1)]
    if args.pg or args.pg_only:
        sync = os.environ.get("PG_SYNCHRONOUS_COMMIT")
        backends.append(
            (
                f"PostgreSQL+Redis, {args.workers} workers"
                + (f", sync_commit={sync}" if sync else ""),
                True,
                args.workers,
            )
        )
    print(
        f"# {args.games} games x (2 players + {args.spectators} spectators), {args.rate:g} "
        f"actions/s per game, {args.duration:g} s measured after {args.warmup:g} s warm-up, "
        f"{args.repeat} round(s); {os.cpu_count()} CPUs, load average at start {loadavg()}"
    )
    if os.getloadavg()[0] > 0.5 * (os.cpu_count() or 1):
        print("# WARNING: the machine is busy; tails (p99) are not reliable")
    print(f"{'':44} {'n':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'mean ms':>8}  load 1/5/15")
    pooled: dict[str, tuple[list[float], list[float]]] = {}
    for rnd in range(args.repeat):
        for name, pg, workers in backends:
            load = loadavg()
            PAYLOADS.clear()
            s_, sizes = await run_server(args, pg, workers)
            size = int(statistics.fmean(sizes)) if sizes else 0
            bload = loadavg()
            b_ = await run_baseline(args)
            p = pooled.setdefault(name, ([], []))
            p[0].extend(s_)
            p[1].extend(b_)
            sr, br = summary("", s_), summary("", b_)
            print(row(f"{name} (round {rnd + 1})", s_, load))
            print(row(f"  baseline ({size} B updates)", b_, bload))
            print(
                f"{'':44} p99 ratio {sr['p99'] / br['p99']:.2f}, p50 ratio "
                f"{sr['p50'] / br['p50']:.2f}"
            )
    if args.repeat > 1:
        print("# all rounds pooled")
        for name, (s_, b_) in pooled.items():
            sr, br = summary("", s_), summary("", b_)
            print(row(name, s_, ""))
            print(row("  baseline", b_, ""))
            print(f"{'':44} p99 ratio {sr['p99'] / br['p99']:.2f} (target <= 3)")
    print(f"# load average at the end {loadavg()}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--spectators", type=int, default=5)
    ap.add_argument("--rate", type=float, default=2.0, help="actions per second per game")
    ap.add_argument("--duration", type=float, default=30.0, help="measured seconds per run")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds of samples dropped")
    ap.add_argument("--repeat", type=int, default=1, help="rounds (server then baseline each)")
    ap.add_argument("--pg", action="store_true", help="also PostgreSQL + Redis")
    ap.add_argument("--pg-only", action="store_true", help="only PostgreSQL + Redis")
    ap.add_argument("--workers", type=int, default=2, help="uvicorn workers with --pg")
    ap.add_argument("--quick", action="store_true", help="4 games x (2+3), 8 s, 1 s warm-up")
    ap.add_argument("--baseline-server", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--payloads", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.baseline_server:
        baseline_server(args.baseline_server, args.payloads)
        return
    if args.quick:
        args.games, args.spectators, args.duration, args.warmup = 4, 3, 8.0, 1.0
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
