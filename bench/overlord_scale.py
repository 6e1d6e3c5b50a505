"""Overlord scale benchmark: G live Omaha Beach Overlord games x 9 sockets, the server
beside a bare websocket relay carrying the same bytes, in the same run.

Per game: 8 identities hold the 8 role seats (layout 4 per side; the 8 identities are
shared by all games) + 1 anonymous spectator = 9 sockets; every game acts at --rate
actions/s (a random pick from the legal list of a seat that has one).  Latency = from an
action's send to its ``update`` reaching the LAST of the game's 9 sockets; the first
--warmup seconds (counted from when every game's 9 sockets have their hello) are
dropped.  The server is started here (``app.main.cli`` ``serve``:
the project's own flags) on a temporary SQLite database, or with --pg on PostgreSQL +
Redis (a temporary schema of db ``test`` on 127.0.0.1) with --workers workers.

Right after each server run, the same G x 9 sockets talk to a bare ``websockets`` relay
(another process) that sends every socket the very update texts its counterpart got from
the server (recorded), at the same rate: the physical floor of Python websockets on this
machine under the same load.  Each row prints p50/p99, the server's CPU per action (all
its processes, user + system, during the measured window), its RSS (sum of its
processes) and the load average.  The load generator (this process) freezes what is
alive and stops its own garbage collector for each measured window (a collection of its
~10^6 objects at 400 games froze every measurement for 0.1-0.45 s); a row says so if it
collected anyway.  Only the runtime install is needed (``make install``: websockets and
orjson come with the server).

    python bench/overlord_scale.py --games 100                  # SQLite, 1 worker
    python bench/overlord_scale.py --games 50,100,200 --pg --workers 1,2,3
    python bench/overlord_scale.py --games 100 --pg-only --workers 1 --machines 2,3
    python bench/overlord_scale.py --games 100 --profile out.prof   # cProfile, 1 worker
    python bench/overlord_scale.py --games 100 --phases   # thread CPU per part, 1 worker
    python bench/overlord_scale.py --games 100 --repeat 3   # 3 runs: medians and ranges
    python bench/overlord_scale.py --games 100 --bot-games 20   # while 20 bot games think
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = "13-OmahaBeachOverlord"
SEATS = [f"{s}:{r}" for s in ("AXIS", "ALLIES") for r in ("cinc", "left", "centre", "right")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def loadavg() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


# -- process accounting --------------------------------------------------------------------
def worker_pids(pid: int) -> list[int]:
    """The processes serving requests: uvicorn's workers (``spawn_main``), or the server
    itself when it runs one worker in-process (not multiprocessing's resource tracker)."""
    procs = tree(pid)
    spawned = [p for p in procs if b"spawn_main" in _cmdline(p)]
    return spawned or [procs[0]]


def worker_pid(pid: int) -> int:
    """The (first) process serving requests."""
    return worker_pids(pid)[0]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            kids = []
        todo.extend(int(k) for k in kids)
    return out


def cpu_seconds(pid: int, part: slice = slice(11, 13)) -> float:
    """User + system CPU seconds of the process tree (``part``: slice(11, 12) user only,
    slice(12, 13) system only)."""
    tot = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for p in tree(pid):
        try:
            f = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            tot += sum(int(x) for x in f[part]) / tick
        except (OSError, IndexError):
            pass
    return tot


def sched_counts(pid: int) -> tuple[int, int, float]:
    """The process tree's threads so far: context switches (voluntary: waited for
    something; involuntary: preempted) and seconds spent runnable on a run queue while
    another process had the CPU (/proc/*/task/*/status, schedstat)."""
    vol = inv = 0
    runq = 0
    for p in tree(pid):
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                for line in Path(f"/proc/{p}/task/{t}/status").read_text().splitlines():
                    if line.startswith("voluntary_ctxt_switches:"):
                        vol += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        inv += int(line.split()[1])
                runq += int(Path(f"/proc/{p}/task/{t}/schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            pass
    return vol, inv, runq / 1e9


def sample(procs: list[subprocess.Popen[bytes]]) -> dict[str, Any]:
    """The servers' counters at one instant (a window's figures are two samples' difference)."""
    per_worker = {w: cpu_seconds(w) for p in procs for w in tree(p.pid)[1:] or [p.pid]}
    counts = [sched_counts(p.pid) for p in procs]
    return {
        "t": time.perf_counter(),
        "cpu": sum(cpu_seconds(p.pid) for p in procs),
        "sys": sum(cpu_seconds(p.pid, slice(12, 13)) for p in procs),
        "waits": sum(c[0] for c in counts),
        "preempted": sum(c[1] for c in counts),
        "runq": sum(c[2] for c in counts),
        "per_worker": per_worker,
    }


def rss_mb(pid: int) -> float:
    tot = 0
    for p in tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    tot += int(line.split()[1])
        except OSError:
            pass
    return tot / 1024


# -- the game server ---------------------------------------------------------------------------
def start_server(
    pg: bool,
    workers: int,
    profile: str | None,
    shared: str | None = None,
    phases: str | None = None,
    bot_delay: float | None = None,
) -> tuple[subprocess.Popen[bytes], str, str | None]:
    """``shared``: the schema of a server already started (another "machine" of the same
    database and Redis: no migration)."""
    port = free_port()
    env = {
        **os.environ,
        "RATE_LIMITS": "socket=1000/second,identity=100000/minute,game=100000/minute,"
        "game_address=100000/minute,upload_address=100000/minute,replay=100000/minute",
        "OVERLORD_TEST_SEEDS": "1",
        "BOT_GRACE_SECONDS": "3600",
    }
    if bot_delay is not None:  # --bot-games: the pause before each bot move
        env["BOT_DELAY"] = str(bot_delay)
    schema = shared
    if pg:
        if schema is None:
            schema = "scale_" + secrets.token_hex(4)
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
        env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/scale.db"
        env.pop("REDIS_URL", None)
    # the console script's way (``python -m app.main`` loses its worker processes: they
    # re-import ``__main__`` under multiprocessing's spawn)
    serve = ["-c", "import sys; from app.main import cli; cli(sys.argv[1:])"]
    if profile:  # cProfile of the measured window only: SIGUSR1 starts, SIGUSR2 dumps
        serve = ["-c", PROFILED % json.dumps(profile)]
    elif phases:  # bench/phases.py: thread CPU per part of the action path
        serve = ["-c", PHASED]
        env["PHASES_OUT"] = phases
    cmd = [
        sys.executable,
        *serve,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    if shared is not None:
        cmd.append("--no-migrate")
    logf = open(os.path.join(tempfile.gettempdir(), f"overlord_scale_{port}.log"), "wb")
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, start_new_session=True, stdout=logf, stderr=subprocess.STDOUT
    )  # the server's log
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=0.5) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.1)
    time.sleep(2.0 if workers > 1 else 0.3)
    return proc, base, schema


PROFILED = """
import cProfile, signal, sys
import app.main
pr = cProfile.Profile()
signal.signal(signal.SIGUSR1, lambda *_: pr.enable())
def _dump(*_):
    pr.disable()
    pr.dump_stats(%s)
signal.signal(signal.SIGUSR2, _dump)
sys.argv = ["overlord-server", *sys.argv[1:]]
app.main.cli()
"""


PHASED = """
import sys
sys.path.insert(0, "bench")
import phases
import app.main
missing = phases.install()
if missing:
    print("phases not wrapped:", missing, file=sys.stderr)
sys.argv = ["overlord-server", *sys.argv[1:]]
app.main.cli()
"""


def http(
    base: str, method: str, path: str, body: dict[str, Any] | None, token: str | None = None
) -> Any:
    req = urllib.request.Request(
        base + path,
        method=method,
        data=json.dumps(body or {}).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
        },
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def create_bot_games(base: str, n: int, level: str) -> list[str]:
    """n Pegasus Bridge games (Memoir '44, 1v1) whose both sides the server's bot plays at
    ``level``: they think all through the measured window (BOT_DELAY=0)."""
    tok = http(base, "POST", "/api/identity", {"name": "Host"})["token"]
    ids = []
    for i in range(n):
        g = http(
            base,
            "POST",
            "/api/games",
            {
                "ruleset": "m44",
                "scenario_id": "2-PegasusBridge",
                "mode": "1v1",
                "seat": "AXIS",
                "bots": ["ALLIES"],
                "seed": 9000 + i,
            },
            tok,
        )
        http(base, "POST", f"/api/games/{g['id']}/seats/AXIS/bot", {"level": level}, tok)
        http(base, "POST", f"/api/games/{g['id']}/seats/ALLIES/bot", {"level": level}, tok)
        ids.append(str(g["id"]))
    return ids


def create_games(base: str, n: int) -> tuple[list[str], list[str]]:
    """n games, 8 seats claimed by the 8 shared identities (9 HTTP calls per game)."""
    toks = [http(base, "POST", "/api/identity", {"name": f"P{i}"})["token"] for i in range(8)]

    def one(i: int) -> str:
        g = http(
            base,
            "POST",
            "/api/games",
            {"scenario_id": SCENARIO, "mode": "overlord", "seat": SEATS[0], "seed": 5000 + i},
            toks[0],
        )
        for k, seat in enumerate(SEATS[1:], 1):
            http(base, "POST", f"/api/games/{g['id']}/seats/{seat}/claim", {}, toks[k])
        return str(g["id"])

    with ThreadPoolExecutor(8) as ex:
        return list(ex.map(one, range(n))), toks


# -- the load generator ------------------------------------------------------------------------
def apply_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch (what the client does with ``view_patch``)."""
    if not isinstance(patch, dict):
        return patch
    if not isinstance(target, dict):
        target = {}
    for k, v in patch.items():
        if v is None:
            target.pop(k, None)
        else:
            target[k] = apply_patch(target.get(k), v)
    return target


GEN_GC: list[float] = []  # the load generator's collections in this run (ms)


def gen_gc_on() -> None:
    """After a run: the load generator's collector back on (``Clock.open`` stopped it)."""
    gc.enable()
    gc.unfreeze()


def _gen_gc(phase: str, info: dict[str, Any], _t: list[float] = [0.0]) -> None:  # noqa: B006 (the collection start, kept between calls on purpose)
    if phase == "start":
        _t[0] = time.perf_counter()
    else:
        GEN_GC.append((time.perf_counter() - _t[0]) * 1000)


class Clock:
    """The run's window: play starts once EVERY game's sockets have their hello (or at
    the planned time, if later), so a slow connect phase never eats into the warm-up or
    the measured window; ``until`` follows ``start``."""

    def __init__(self, games: int, start: float, warmup: float, duration: float) -> None:
        self.games, self.ready = games, 0
        self.start, self.warmup, self.duration = start, warmup, duration
        self.until = start + warmup + duration
        self.go = asyncio.Event()

    def connected(self) -> None:
        self.ready += 1
        if self.ready == self.games:
            self.open()

    def open(self) -> None:
        if not self.go.is_set():
            # the load generator's own garbage collector out of the measured latency: its
            # 3,600 sockets at 400 games are ~10^6 tracked objects, and a full collection
            # froze every game's measurement for 300-450 ms (the server's loop was not
            # stalled; frozen, young collections still took up to 105 ms at 500 games):
            # everything alive now is frozen and the collector is off until the run ends
            # (``gen_gc_on``); any collection meanwhile is recorded
            gc.collect()
            gc.freeze()
            gc.disable()
            GEN_GC.clear()
            self.start = max(self.start, time.perf_counter() + 0.5)
            self.until = self.start + self.warmup + self.duration
            self.go.set()

    async def wait(self, timeout: float) -> None:
        """The caller's wait for every game (at most ``timeout``: then open anyway)."""
        try:
            await asyncio.wait_for(self.go.wait(), timeout)
        except asyncio.TimeoutError:
            self.open()


class Sock:
    def __init__(
        self,
        ws: Any,
        record: dict[int, list[str]] | None,
        idx: int,
        hello: dict[str, Any],
        size: int,
    ) -> None:
        """``hello``: the socket's first message (read by :meth:`open`), ``size`` bytes."""
        self.ws, self.record, self.idx = ws, record, idx
        self.seq, self.legal = hello["seq"], hello.get("legal") or []
        self.arrivals: dict[int, float] = {}
        self.acks: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.changed = asyncio.Event()
        self.bytes = size
        self.task = asyncio.create_task(self.read())

    @classmethod
    async def open(
        cls,
        url: str,
        record: dict[int, list[str]] | None,
        idx: int,
        stats: dict[str, int],
        tries: int = 8,
    ) -> Sock:
        """A socket and its hello.  A refusal before the hello (``server_busy``, close
        1013: in a connect storm of hundreds of games every database connection was busy
        for the pool's timeout) is retried after a pause, as the browser client does."""
        for attempt in range(tries):
            ws = await websockets.connect(url, max_size=None, open_timeout=120, ping_interval=None)
            try:
                while True:
                    raw = await ws.recv()
                    msg = orjson.loads(raw)
                    if msg.get("type") == "hello":
                        return cls(ws, record, idx, msg, len(raw))
            except websockets.ConnectionClosed:
                pass
            stats["refused"] = stats.get("refused", 0) + 1
            await asyncio.sleep(1.0 + random.random() * min(2**attempt, 16))
        raise RuntimeError(f"{url}: refused {tries} times")

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                self.bytes += len(raw)
                msg = orjson.loads(raw)
                t = msg["type"]
                if t == "update":
                    self.arrivals[msg["first_seq"]] = now
                    if self.record is not None:
                        self.record.setdefault(msg["first_seq"], [""] * 9)[self.idx] = (
                            raw if isinstance(raw, str) else raw.decode()
                        )
                if t in ("hello", "update", "sync") and msg["seq"] >= self.seq:
                    self.seq, self.legal = msg["seq"], msg.get("legal") or []
                    self.changed.set()
                elif t in ("ack", "reject"):
                    await self.acks.put(msg)
        except websockets.ConnectionClosed:
            pass


async def server_game(
    ws_bases: list[str],
    gid: str,
    toks: list[str],
    rate: float,
    clock: Clock,
    lat: list[tuple[float, float]],
    seed: int,
    record: dict[int, list[str]] | None,
    stats: dict[str, int],
) -> None:
    """``ws_bases``: several "machines": each socket picks one at random (a load
    balancer's spread)."""
    pick = random.Random(-seed)
    socks: list[Sock] = []
    for i in range(9):
        q = f"?token={toks[i]}&seat={SEATS[i]}" if i < 8 else ""
        url = f"{pick.choice(ws_bases)}/ws/games/{gid}"
        socks.append(await Sock.open(url + q, record, i, stats))  # with its hello
    clock.connected()
    await clock.go.wait()
    until = clock.until
    rng = random.Random(seed)
    interval = 1.0 / rate
    nxt = max(clock.start, time.perf_counter()) + rng.random() * interval
    sent: dict[int, float] = {}
    try:
        while time.perf_counter() < until:
            top = max(s.seq for s in socks[:8])
            actors = [s for s in socks[:8] if s.seq == top and s.legal]
            if not actors:
                if any(s.seq < top for s in socks[:8]):
                    await asyncio.sleep(0.002)
                    continue
                stats["stuck"] += 1  # game over, or nobody may act: stop this game
                break
            await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
            nxt += interval
            me = rng.choice(actors)
            seq = me.seq
            t0 = time.perf_counter()
            await me.ws.send(
                orjson.dumps(
                    {"type": "action", "seq": seq, "action": rng.choice(me.legal)}
                ).decode()
            )
            ack = await me.acks.get()
            if ack["type"] != "ack":
                stats["rejects"] += 1
                await asyncio.sleep(0.01)
                continue
            sent[seq + 1] = t0
            while any(s.seq < ack["seq"] for s in socks):
                await asyncio.sleep(0.002)
            now = time.perf_counter()
            if nxt < now:  # the update came after the next beat: a new beat within the
                nxt = now + rng.random() * interval  # second, as a player would act; at
                # once, the late games would all act together, one burst a second for good
    except (websockets.ConnectionClosed, asyncio.TimeoutError):
        stats["closed"] += 1
    # every game stops at ``until``; sockets close only after the last updates are in,
    # so that no game's last actions are measured through the others' departures
    await asyncio.sleep(max(0.5, until + 1.0 - time.perf_counter()))
    for first, t0 in sent.items():
        got = [s.arrivals.get(first) for s in socks]
        if all(g is not None for g in got):
            lat.append((t0, max(got) - t0))  # type: ignore[type-var]
    stats["bytes"] += sum(s.bytes for s in socks)
    for s in socks:
        await s.ws.close()
        s.task.cancel()


# -- the bare relay ----------------------------------------------------------------------------
def relay_server(port: int, payload_file: str) -> None:
    """One room per game; a message ``{"k", "i"}`` makes the relay send socket j of the room
    the j-th text of recorded update i (every socket its own bytes, as the server did)."""
    rooms: dict[str, list[Any]] = {}
    payloads: list[list[str]] = json.loads(Path(payload_file).read_text())

    async def handler(ws: Any) -> None:
        room = rooms.setdefault(ws.request.path, [])
        room.append(ws)
        try:
            async for raw in ws:
                msg = json.loads(raw)
                texts = payloads[msg["i"] % len(payloads)]
                for j, peer in enumerate(list(room)):
                    websockets.broadcast(
                        [peer], '{"k":%d,"u":%s}' % (msg["k"], texts[j % len(texts)])
                    )
        finally:
            room.remove(ws)

    async def main() -> None:
        async with websockets.serve(handler, "127.0.0.1", port, max_size=None, ping_interval=None):
            await asyncio.Future()

    asyncio.run(main())


async def relay_game(
    ws_base: str, room: str, rate: float, clock: Clock, lat: list[tuple[float, float]], seed: int
) -> None:
    arrivals: list[dict[int, float]] = [{} for _ in range(9)]

    async def reader(ws: Any, arr: dict[int, float]) -> None:
        try:
            async for raw in ws:
                now = time.perf_counter()
                orjson.loads(raw)
                arr[int(raw[5 : raw.index(",")])] = now
        except websockets.ConnectionClosed:
            pass

    socks = [
        await websockets.connect(
            f"{ws_base}/{room}", max_size=None, open_timeout=120, ping_interval=None
        )
        for _ in range(9)
    ]
    tasks = [asyncio.create_task(reader(w, a)) for w, a in zip(socks, arrivals)]
    clock.connected()
    await clock.go.wait()
    until = clock.until
    rng = random.Random(seed)
    interval = 1.0 / rate
    nxt = max(clock.start, time.perf_counter()) + rng.random() * interval
    sent: dict[int, float] = {}
    k = 0
    while time.perf_counter() < until:
        await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
        nxt = max(nxt + interval, time.perf_counter())
        k += 1
        sent[k] = time.perf_counter()
        await socks[k % 8].send(json.dumps({"k": k, "i": rng.randrange(1 << 30)}))
        while any(k not in a for a in arrivals):
            await asyncio.sleep(0.002)
    await asyncio.sleep(max(0.0, until + 1.0 - time.perf_counter()))  # as server_game
    for key, t0 in sent.items():
        lat.append((t0, max(a[key] for a in arrivals) - t0))
    for w in socks:
        await w.close()
    for t in tasks:
        t.cancel()


def worker_split(
    bases: list[str], per0: dict[int, float], per1: dict[int, float], span: float
) -> str:
    """Each worker process's share of a core over the window, and what the workers'
    ``/healthz`` say (games owned and loaded, sockets relayed / handed over): polled
    until every worker answered (the workers of one port share its connections)."""
    cores = sorted(((per1[w] - per0[w]) / span * 100 for w in per0), reverse=True)
    seen: dict[str, dict[str, Any]] = {}
    want = len(per0)
    for _ in range(60):
        for b in bases:
            try:
                with urllib.request.urlopen(b + "/healthz", timeout=2) as r:
                    w = json.loads(r.read()).get("worker") or {}
                    if w.get("address"):
                        seen[w["address"]] = w
            except OSError:
                pass
        if len(seen) >= want:
            break
    parts = [
        f"{w.get('owned')} owned/{w.get('loaded')} loaded, relayed {w.get('relayed_total')}, "
        f"handed {w.get('handed_total')}"
        for w in seen.values()
    ]
    return "core % " + "/".join(f"{c:.0f}" for c in cores) + "; " + "; ".join(parts)


# -- runs --------------------------------------------------------------------------------------
def stats_of(xs: list[float]) -> dict[str, float]:
    ms = [x * 1000 for x in xs]
    return {
        "n": len(ms),
        "p50": pct(ms, 50),
        "p99": pct(ms, 99),
        "max": max(ms) if ms else float("nan"),
    }


async def run_server(
    args: argparse.Namespace,
    g: int,
    pg: bool,
    workers: int,
    record: dict[int, list[str]],
    machines: int = 1,
) -> dict[str, Any]:
    phased = tempfile.mktemp(prefix="phases_") if args.phases and workers == 1 else None
    proc, base, schema = start_server(
        pg,
        workers,
        args.profile,
        phases=phased,
        bot_delay=args.bot_delay if args.bot_games > 0 else None,
    )
    procs, bases = [proc], [base]
    try:
        for _ in range(machines - 1):  # other "machines": same database and Redis
            p, b, _s = start_server(pg, workers, None, schema)
            procs.append(p)
            bases.append(b)
    except BaseException:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
        raise
    ws_bases = [b.replace("http", "ws", 1) for b in bases]
    lat: list[tuple[float, float]] = []
    stats: dict[str, Any] = {"stuck": 0, "rejects": 0, "closed": 0, "bytes": 0}
    try:
        t = time.perf_counter()
        gids, toks = await asyncio.get_running_loop().run_in_executor(None, create_games, base, g)
        made = time.perf_counter() - t
        if args.bot_games:
            await asyncio.get_running_loop().run_in_executor(
                None, create_bot_games, base, args.bot_games, args.bot_level
            )
        ramp = max(3.0, g * 9 / 400)  # connect the sockets over the ramp
        clock = Clock(g, time.perf_counter() + ramp, args.warmup, args.duration)
        tasks = []
        for i, gid in enumerate(gids):
            tasks.append(
                asyncio.create_task(
                    server_game(
                        ws_bases,
                        gid,
                        toks,
                        args.rate,
                        clock,
                        lat,
                        1000 + i,
                        record if i < 3 else None,
                        stats,
                    )
                )
            )
            await asyncio.sleep(ramp * 0.8 / g)
        await clock.wait(300)
        start, until = clock.start, clock.until
        await asyncio.sleep(max(0.0, start + args.warmup - time.perf_counter()))
        if args.profile:
            os.kill(proc.pid, signal.SIGUSR1)
        if phased:
            phase_edge(proc, phased, "a")
        s0 = sample(procs)
        gen0 = time.process_time()  # this process: the load generator
        spies = []
        if args.spy:  # a sampling profile of the window (py-spy on PATH; not a dependency)
            pids = worker_pids(proc.pid)
            for i, wpid in enumerate(pids):  # several workers: FILE.1, FILE.2, ...
                out = args.spy if len(pids) == 1 else f"{args.spy}.{i + 1}"
                spies.append(
                    subprocess.Popen(
                        [
                            "py-spy",
                            "record",
                            "-p",
                            str(wpid),
                            "-r",
                            "250",
                            "-d",
                            str(int(args.duration)),
                            "-f",
                            "raw",
                            "-o",
                            out,
                            *(["--native"] if args.spy_native else ["--nonblocking"]),
                        ],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
        perf = None
        if args.perf:  # perf's cpu-clock samples of the window, kernel included (linux-perf)
            perf = subprocess.Popen(
                [
                    "perf",
                    "record",
                    "-e",
                    "cpu-clock",
                    "-F",
                    "499",
                    "-g",
                    "-p",
                    str(worker_pid(proc.pid)),
                    "-o",
                    args.perf,
                    "--",
                    "sleep",
                    str(int(args.duration)),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        await asyncio.sleep(max(0.0, until - time.perf_counter()))
        s1 = sample(procs)
        gen1 = time.process_time()
        if phased:
            phase_edge(proc, phased, "b")
        if workers > 1 or machines > 1:  # how the work split between the processes
            stats["split"] = worker_split(
                bases, s0["per_worker"], s1["per_worker"], s1["t"] - s0["t"]
            )
        if args.profile:
            os.kill(proc.pid, signal.SIGUSR2)
        rss = sum(rss_mb(p.pid) for p in procs)
        await asyncio.gather(*tasks)
        gen_gc_on()
        for tool in (*spies, perf):
            if tool is not None:
                tool.wait(60)
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:  # never leave a server behind: it would
                os.killpg(p.pid, signal.SIGKILL)  # take the CPU of every later run
                p.wait(10)
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
    xs = [x for t0_, x in lat if t0_ >= start + args.warmup]
    if args.lat_dump:  # every action: seconds into the window, latency in ms,
        wall = time.time() - time.perf_counter()  # and the wall clock
        with open(args.lat_dump, "w") as f:
            for t0_, x in sorted(lat):
                if t0_ >= start + args.warmup:
                    f.write(f"{t0_ - start - args.warmup:.4f} {x * 1000:.2f} {t0_ + wall:.4f}\n")
    actions = len(xs) or 1
    stats["crowd"] = crowd(lat, start + args.warmup)
    if phased:
        stats["phases"] = phase_table(phased)
    d = {k: s1[k] - s0[k] for k in ("t", "cpu", "sys", "waits", "preempted", "runq")}
    return {
        **stats_of(xs),
        "cpu_ms_per_action": d["cpu"] * 1000 / actions,
        "cpu_pct": d["cpu"] / d["t"] * 100,
        "gen_pct": (gen1 - gen0) / d["t"] * 100,
        "rss_mb": rss,
        "games_made_s": made,
        "sys_share": d["sys"] / max(d["cpu"], 1e-9),
        "switches": d["waits"] / actions,
        "preempted": d["preempted"] / actions,
        "runq_ms": d["runq"] * 1000 / actions,
        **stats,
    }


def crowd(lat: list[tuple[float, float]], since: float, before: float = 0.006) -> float:
    """How crowded the slowest 1 % of the window's actions were: the mean number of
    actions (of any game) sent in the ``before`` seconds before each of them.  Every game
    keeps its random phase, so the same few games act within a few ms of each other every
    second: such a crowd is served one action after another, and its last action is the
    tail (session 10, docs/performance.md)."""
    import bisect

    window = sorted((t, x) for t, x in lat if t >= since)
    if not window:
        return 0.0
    ts = [t for t, _ in window]
    slow = sorted(window, key=lambda tx: tx[1])[-max(1, len(window) // 100) :]
    return statistics.mean(
        bisect.bisect_left(ts, t) - bisect.bisect_left(ts, t - before) for t, _ in slow
    )


def phase_edge(proc: subprocess.Popen[bytes], out: str, tag: str) -> None:
    """Have the server (bench/phases.py) write its counters at one edge of the window."""
    import phases

    pid = worker_pid(proc.pid)
    os.kill(pid, phases.SIGNAL)
    path = f"{out}.{pid}"
    for _ in range(100):
        time.sleep(0.02)
        if os.path.exists(path) and os.path.getsize(path):
            break
    os.replace(path, f"{out}.{tag}")


def phase_table(out: str) -> list[tuple[str, float, float, float]]:
    """(part, thread CPU us per action, calls per action, wall us per action) in the
    window (wall minus CPU: the time the part was preempted or waited in the kernel)."""
    import phases

    a, b = phases.read(f"{out}.a"), phases.read(f"{out}.b")
    n = b["hub.submit (whole action)"][1] - a.get("hub.submit (whole action)", (0, 0, 0))[1]
    n = n or 1
    rows = [
        (
            "thread (all of the loop's work)",
            (b["thread"][0] - a["thread"][0]) / n / 1e3,
            0.0,
            (b["thread"][2] - a["thread"][2]) / n / 1e3,
        )
    ]
    for label, (ns, calls, w) in b.items():
        if label != "thread":
            ns0, c0, w0 = a.get(label, (0, 0, 0))
            rows.append((label, (ns - ns0) / n / 1e3, (calls - c0) / n, (w - w0) / n / 1e3))
    return rows


async def run_relay(
    args: argparse.Namespace, g: int, record: dict[int, list[str]]
) -> dict[str, Any]:
    port = free_port()
    fd, payload_file = tempfile.mkstemp(suffix=".json")
    texts = [v for v in record.values() if all(v)] or [['{"pad":"%s"}' % ("x" * 4000)] * 9]
    with os.fdopen(fd, "w") as f:
        json.dump(texts[:400], f)
    proc = subprocess.Popen(
        [sys.executable, __file__, "--relay-server", str(port), "--payloads", payload_file],
        start_new_session=True,
    )
    lat: list[tuple[float, float]] = []
    try:
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), 0.2):
                    break
            except OSError:
                time.sleep(0.05)
        ramp = max(3.0, g * 9 / 400)
        clock = Clock(g, time.perf_counter() + ramp, args.warmup, args.duration)
        tasks = []
        for i in range(g):
            tasks.append(
                asyncio.create_task(
                    relay_game(f"ws://127.0.0.1:{port}", f"g{i}", args.rate, clock, lat, 2000 + i)
                )
            )
            await asyncio.sleep(ramp * 0.8 / g)
        await clock.wait(300)
        start, until = clock.start, clock.until
        await asyncio.sleep(max(0.0, start + args.warmup - time.perf_counter()))
        cpu0 = cpu_seconds(proc.pid)
        await asyncio.sleep(max(0.0, until - time.perf_counter()))
        cpu1, rss = cpu_seconds(proc.pid), rss_mb(proc.pid)
        await asyncio.gather(*tasks)
        gen_gc_on()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
        os.unlink(payload_file)
    xs = [x for t0, x in lat if t0 >= start + args.warmup]
    return {
        **stats_of(xs),
        "cpu_ms_per_action": (cpu1 - cpu0) * 1000 / (len(xs) or 1),
        "rss_mb": rss,
        "mean_update_b": int(statistics.fmean(len(t) for v in texts for t in v)),
        "crowd": crowd(lat, start + args.warmup),
    }


async def run(args: argparse.Namespace) -> None:
    backends: list[tuple[str, bool, int, int]] = []
    if not args.pg_only:
        backends.append(("SQLite 1w", False, 1, 1))
    if args.pg or args.pg_only:
        backends += [(f"PG+Redis {w}w", True, w, 1) for w in args.workers]
        backends += [(f"PG+Redis {m}x1w", True, 1, m) for m in args.machines]
    print(
        f"# Overlord scale: {SCENARIO}, 9 sockets/game, {args.rate:g} action/s/game, "
        f"{args.duration:g} s measured after {args.warmup:g} s; {os.cpu_count()} CPUs, "
        f"load average {loadavg()}"
    )
    print(
        f"{'run':22} {'G':>5} {'n':>6} {'p50':>7} {'p99':>7} {'max':>7} {'cpu/act':>8} "
        f"{'cpu%':>5} {'RSS MB':>7} {'B/upd':>6}  relay p50/p99 cpu/act  p99 ratio  load"
    )
    runs: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
    for g in args.games:
        for _rep in range(args.repeat):  # each repetition runs every backend once
            for name, pg, workers, machines in backends:
                load = loadavg()
                record: dict[int, list[str]] = {}
                s = await run_server(args, g, pg, workers, record, machines)
                gen_gc = max(GEN_GC, default=0.0)
                r = await run_relay(args, g, record)
                ratio = s["p99"] / r["p99"]
                runs.setdefault((name, g), []).append((s["p99"], ratio, s["cpu_ms_per_action"]))
                print(
                    f"{name:22} {g:>5} {s['n']:>6} {s['p50']:>7.1f} {s['p99']:>7.1f} {s['max']:>7.1f} "
                    f"{s['cpu_ms_per_action']:>8.2f} {s['cpu_pct']:>5.0f} {s['rss_mb']:>7.0f} "
                    f"{r['mean_update_b']:>6}  {r['p50']:>5.1f}/{r['p99']:<6.1f} "
                    f"{r['cpu_ms_per_action']:>5.2f}   {ratio:>6.2f}   {load}"
                    + (
                        f"  (stuck {s['stuck']}, rejects {s['rejects']}, closed {s['closed']})"
                        if s["stuck"] or s["closed"]
                        else ""
                    )
                    + (
                        f"  ({s['refused']} sockets refused while connecting, retried)"
                        if s.get("refused")
                        else ""
                    )
                    + f"  (p99 actions: {s['crowd']:.1f} server / {r['crowd']:.1f} relay "
                    "others sent in the 6 ms before)"
                    + f"  (system {s['sys_share'] * 100:.0f} %, {s['switches']:.1f} waits, "
                    f"{s['preempted']:.1f} preemptions and {s['runq_ms']:.2f} ms "
                    "runnable-waiting per action)"
                    + f"  (load generator {s['gen_pct']:.0f} % of a core)"
                    + (f"  [{s['split']}]" if s.get("split") else "")
                    + (
                        f"  (load generator GC pause up to {gen_gc:.0f} ms)" if gen_gc >= 20 else ""
                    ),
                    flush=True,
                )
                for label, us, calls, wall in s.get("phases", []):
                    print(
                        f"#   {label:36} {us:8.1f} us/action, wall {wall:8.1f}"
                        + (f"  ({calls:.2f} calls/action)" if calls else ""),
                        flush=True,
                    )
    if args.repeat > 1:  # the spread between runs is as large as most changes
        for (name, g), xs in runs.items():
            p99s, ratios, cpus = zip(*xs)
            print(
                f"# {name} G={g}, {len(xs)} runs: p99 median {statistics.median(p99s):.1f} "
                f"({min(p99s):.1f}-{max(p99s):.1f}) ms, p99 ratio median "
                f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}, "
                f"{sum(x <= 2.0 for x in ratios)} of {len(xs)} within 2x), CPU per action "
                f"median {statistics.median(cpus):.2f} ms"
            )
    print(f"# load average at the end {loadavg()}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", default="20", help="G, or a list: 50,100,200")
    ap.add_argument("--rate", type=float, default=1.0, help="actions per second per game")
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--pg", action="store_true", help="also PostgreSQL + Redis")
    ap.add_argument("--pg-only", action="store_true")
    ap.add_argument("--workers", default="1,2", help="PostgreSQL worker counts: 1,2,3")
    ap.add_argument(
        "--machines",
        default="",
        help="also M separate one-worker servers on "
        "the same database and Redis, each socket on one at random (as M "
        "machines behind a load balancer): 2,3",
    )
    ap.add_argument(
        "--profile",
        help="profile mode: cProfile of the server (1 worker) during "
        "the measured window, written to this file (python -m pstats FILE)",
    )
    ap.add_argument(
        "--spy",
        help="py-spy raw samples of the worker during the measured "
        "window, to this file (several workers: FILE.1, FILE.2, ...; py-spy "
        "must be on PATH)",
    )
    ap.add_argument(
        "--spy-native",
        action="store_true",
        help="with --spy: native (C) frames "
        "too (py-spy --native; pauses the worker at each sample, so slower)",
    )
    ap.add_argument(
        "--perf",
        help="perf record (cpu-clock, call graphs, kernel included) of "
        "the (first) worker during the measured window, to this file",
    )
    ap.add_argument(
        "--phases",
        action="store_true",
        help="thread CPU per part of the action path inside the (1-worker) server "
        "during the window, per action (bench/phases.py; the wrappers add "
        "~1 us per call)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run every backend this many "
        "times, alternated, and print each one's medians and ranges",
    )
    ap.add_argument(
        "--lat-dump",
        help="the server run's latencies (seconds into the "
        "window, ms), one action per line, to this file: where the tail is",
    )
    ap.add_argument(
        "--bot-games",
        type=int,
        default=0,
        help="also this many Memoir '44 games played bot against bot, thinking all "
        "through the window (the other games' p99 while bots think: compare with 0)",
    )
    ap.add_argument("--bot-level", default="hard", help="the level of --bot-games' bots")
    ap.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        help="seconds a --bot-games bot waits before each move (the server's BOT_DELAY, "
        "0.8 by default; 0: the bots play as fast as they think)",
    )
    ap.add_argument("--relay-server", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--payloads", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.relay_server:
        relay_server(args.relay_server, args.payloads)
        return
    args.games = [int(x) for x in str(args.games).split(",")]
    args.workers = [int(x) for x in str(args.workers).split(",")]
    args.machines = [int(x) for x in str(args.machines).split(",") if x]
    gc.callbacks.append(_gen_gc)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
