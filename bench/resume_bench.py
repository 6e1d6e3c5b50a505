"""Resume and memory benchmark: is resuming a game flat in its length, and what does an
idle socket and a live game cost the server?

**Resume** (default).  Builds Omaha Beach Overlord games (8 role seats held by 8
identities over websockets, random legal actions biased away from battles so that the
game lasts) of ``--lengths`` log entries, then for each length measures

* ``cold``: the server is killed (SIGKILL) and started again on the same database; a
  spectator socket reconnecting with ``since = seq - 5`` -> its ``hello`` (``hello``
  column) and the ``update`` with the 5 missed entries (``catch-up`` column): the game is
  loaded from its latest snapshot and the missed events rebuilt from the nearest one;
* ``warm``: the same reconnect on the worker that holds the game now (``since`` varied
  so that no answer comes from the catch-up cache);
* ``events``: ``GET /api/games/{id}/events?since=seq-5`` (``since`` varied likewise).

Median of ``--repeat`` rounds (a round = one restart), ms.  Flat means the same figures
at 500 and at 6,000 entries.

**Memory** (``--memory``).  RSS of the server (all its processes) before and after
opening ``--sockets`` idle spectator sockets on one game (KB per socket), then before
and after loading ``--games`` live games with 9 sockets each and ``--actions`` actions
played in each (MB per game, sockets included).  Each RSS is read after the server ran a
full collection and ``malloc_trim`` (SIGUSR1, this script's ``SERVE`` wrapper), so
it tells what is alive; with ``OVERLORD_TRACEMALLOC=N`` in the environment the server
also writes its top allocation sites to its log at each reading (the path is printed).

The server is started here (``python -m app.main serve``) on a SQLite file, or with
``--pg`` on PostgreSQL + Redis (a temporary schema of database ``test`` on 127.0.0.1).
``--db DIR`` keeps the SQLite file (and the built games' ids) in DIR, so a second run
measures the same games without building them again.  Runtime install only (stdlib,
websockets, orjson).

    python bench/resume_bench.py                          # 500,1000,3000,6000 entries
    python bench/resume_bench.py --lengths 500,3000 --db /tmp/resume --repeat 5
    python bench/resume_bench.py --pg
    python bench/resume_bench.py --memory --sockets 1000 --games 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from overlord_scale import SCENARIO, SEATS, free_port, http, rss_mb  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CALM = 0.99  # the share of picks that avoid a battle (random play ends a game fast)


# -- the server --------------------------------------------------------------------------------
# the server, with this benchmark's memory probe: on SIGUSR1 a full collection and glibc's
# malloc_trim, so that its RSS tells what is alive, not what the allocator keeps
SERVE = """
import ctypes, ctypes.util, gc, signal, sys
def _trim(*_):
    gc.collect()
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
signal.signal(signal.SIGUSR1, _trim)
from app.main import cli
cli(sys.argv[1:])
"""


class Server:
    """``overlord-server serve`` on a fixed database, restartable (kill -9 + start)."""

    def __init__(self, pg: bool, db_dir: Path, extra: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "RATE_LIMITS": "socket=1000/second,identity=100000/minute,game=100000/minute,"
            "game_address=100000/minute,upload_address=100000/minute,replay=100000/minute,"
            "catchup=100000/second",
            "OVERLORD_TEST_SEEDS": "1",
            "BOT_GRACE_SECONDS": "3600",
            **(extra or {}),
        }
        self.schema: str | None = None
        if pg:
            self.schema = "resume_" + secrets.token_hex(4)
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
                    f"CREATE SCHEMA {self.schema}",
                ],
                check=True,
            )
            self.env.update(
                DATABASE_URL="postgresql+asyncpg://root@127.0.0.1:5432/test",
                DATABASE_SCHEMA=self.schema,
                REDIS_URL="redis://127.0.0.1:6379/0",
            )
        else:
            self.env["DATABASE_URL"] = f"sqlite+aiosqlite:///{db_dir}/resume.db"
            self.env.pop("REDIS_URL", None)
        self.log = os.path.join(tempfile.gettempdir(), f"resume_bench_{self.port}.log")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-c",
            SERVE,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            "1",
        ]
        with open(self.log, "ab") as logf:
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                env=self.env,
                start_new_session=True,
                stdout=logf,
                stderr=subprocess.STDOUT,
            )
        for _ in range(600):
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=0.5) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not start (log: {self.log})")

    def kill(self) -> None:
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)
            self.proc = None

    def drop(self) -> None:
        self.kill()
        if self.schema:
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
                    f"DROP SCHEMA {self.schema} CASCADE",
                ],
                check=False,
                capture_output=True,
            )

    @property
    def ws(self) -> str:
        return self.base.replace("http", "ws", 1)


# -- building games ----------------------------------------------------------------------------
class Seat:
    """One seat's socket: the last seq and legal list it was sent."""

    def __init__(self, ws: Any) -> None:
        self.ws, self.seq, self.legal = ws, -1, []
        self.acks: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ready = asyncio.Event()
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                msg = orjson.loads(raw)
                t = msg["type"]
                if t in ("hello", "update", "sync") and msg["seq"] >= self.seq:
                    self.seq, self.legal = msg["seq"], msg.get("legal") or []
                    self.ready.set()
                elif t in ("ack", "reject"):
                    await self.acks.put(msg)
        except websockets.ConnectionClosed:
            pass


def new_game(base: str, toks: list[str], seed: int) -> str:
    g = http(
        base,
        "POST",
        "/api/games",
        {"scenario_id": SCENARIO, "mode": "overlord", "seat": SEATS[0], "seed": seed},
        toks[0],
    )
    for k, seat in enumerate(SEATS[1:], 1):
        http(base, "POST", f"/api/games/{g['id']}/seats/{seat}/claim", {}, toks[k])
    return str(g["id"])


async def seat_sockets(ws_base: str, gid: str, toks: list[str]) -> list[Seat]:
    socks = []
    for i, seat in enumerate(SEATS):
        ws = await websockets.connect(
            f"{ws_base}/ws/games/{gid}?token={toks[i]}&seat={seat}",
            max_size=None,
            open_timeout=120,
            ping_interval=None,
        )
        socks.append(Seat(ws))
    await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in socks)), 120)
    return socks


async def play(socks: list[Seat], target: int, seed: int) -> int:
    """Random legal actions until the log has ``target`` entries (or the game ends)."""
    rng = random.Random(seed)
    while True:
        top = max(s.seq for s in socks)
        if top >= target:
            return top
        actors = [s for s in socks if s.seq == top and s.legal]
        if not actors:
            if any(s.seq < top for s in socks):
                await asyncio.sleep(0.002)
                continue
            return top  # game over
        me = rng.choice(actors)
        calm = [a for a in me.legal if a.get("type") != "battle"]
        pick = rng.choice(calm if calm and rng.random() < CALM else me.legal)
        await me.ws.send(orjson.dumps({"type": "action", "seq": top, "action": pick}).decode())
        ack = await me.acks.get()
        if ack["type"] == "ack":
            while any(s.seq < ack["seq"] for s in socks):
                await asyncio.sleep(0.001)


async def close_all(socks: list[Seat]) -> None:
    for s in socks:
        await s.ws.close()
        s.task.cancel()


async def build(srv: Server, lengths: list[int]) -> dict[str, Any]:
    toks = [http(srv.base, "POST", "/api/identity", {"name": f"P{i}"})["token"] for i in range(8)]
    games: dict[int, tuple[str, int]] = {}

    async def one(length: int, seed: int) -> None:
        gid = await asyncio.to_thread(new_game, srv.base, toks, seed)
        socks = await seat_sockets(srv.ws, gid, toks)
        t = time.perf_counter()
        seq = await play(socks, length, seed)
        await close_all(socks)
        games[length] = (gid, seq)
        print(f"# built {gid}: {seq} entries in {time.perf_counter() - t:.0f} s", flush=True)

    await asyncio.gather(*(one(n, 7000 + i) for i, n in enumerate(lengths)))
    warm = await asyncio.to_thread(new_game, srv.base, toks, 6999)
    socks = await seat_sockets(srv.ws, warm, toks)
    await play(socks, 20, 6999)
    await close_all(socks)
    return {"toks": toks, "games": {str(k): v for k, v in games.items()}, "warm": warm}


# -- measuring ----------------------------------------------------------------------------------
async def reconnect(ws_base: str, gid: str, since: int) -> tuple[float, float]:
    """ms to the ``hello`` and to the ``update`` that brings the socket to the game's seq."""
    t0 = time.perf_counter()
    async with websockets.connect(
        f"{ws_base}/ws/games/{gid}?since={since}",
        max_size=None,
        open_timeout=120,
        ping_interval=None,
    ) as ws:
        hello_ms = None
        async for raw in ws:
            msg = orjson.loads(raw)
            if msg["type"] == "hello":
                hello_ms = (time.perf_counter() - t0) * 1000
                if msg["seq"] <= since:
                    return hello_ms, hello_ms
            elif msg["type"] in ("update", "sync") and hello_ms is not None:
                if msg["type"] == "sync":
                    print(f"# {gid}: a sync, not the missed events", flush=True)
                return hello_ms, (time.perf_counter() - t0) * 1000
    raise RuntimeError("closed before the catch-up")


def events_ms(base: str, gid: str, since: int) -> float:
    t0 = time.perf_counter()
    with urllib.request.urlopen(f"{base}/api/games/{gid}/events?since={since}", timeout=60) as r:
        body = json.loads(r.read())
    assert body["entries"] and body["entries"][0]["seq"] == since + 1, body.get("entries")
    return (time.perf_counter() - t0) * 1000


async def measure(srv: Server, built: dict[str, Any], repeat: int, warm_n: int) -> None:
    games = {int(k): v for k, v in built["games"].items()}
    res: dict[int, dict[str, list[float]]] = {
        n: {"hello": [], "catch": [], "warm": [], "events": []} for n in games
    }
    for r in range(repeat):
        srv.kill()
        srv.start()
        await reconnect(srv.ws, built["warm"], 15)  # imports, first queries
        for n, (gid, seq) in sorted(games.items()):
            h, c = await reconnect(srv.ws, gid, seq - 5)
            res[n]["hello"].append(h)
            res[n]["catch"].append(c)
        for n, (gid, seq) in sorted(games.items()):
            for i in range(warm_n):
                res[n]["warm"].append((await reconnect(srv.ws, gid, seq - 6 - i - r * warm_n))[1])
                res[n]["events"].append(
                    await asyncio.to_thread(events_ms, srv.base, gid, seq - 6 - i - r * warm_n)
                )
    print(
        f"{'entries':>8} {'cold hello':>11} {'cold catch-up':>14} {'warm reconnect':>15} "
        f"{'GET events':>11}   (ms, median of {repeat} restarts / {repeat * warm_n} requests)"
    )
    for n, (_gid, seq) in sorted(games.items()):
        m = {k: statistics.median(v) for k, v in res[n].items()}
        print(
            f"{seq:>8} {m['hello']:>11.1f} {m['catch']:>14.1f} {m['warm']:>15.1f} "
            f"{m['events']:>11.1f}",
            flush=True,
        )


# -- memory ---------------------------------------------------------------------------------------
async def memory(srv: Server, n_sockets: int, n_games: int, actions: int) -> None:
    def rss() -> float:
        """The server's RSS once it ran a full collection and malloc_trim (SIGUSR1,
        ``SERVE``): what is alive, not what the allocator keeps."""
        time.sleep(1.0)
        if srv.proc:
            os.kill(srv.proc.pid, signal.SIGUSR1)
            time.sleep(1.0)
        return rss_mb(srv.proc.pid) if srv.proc else 0.0

    toks = [http(srv.base, "POST", "/api/identity", {"name": f"P{i}"})["token"] for i in range(8)]
    gid = await asyncio.to_thread(new_game, srv.base, toks, 8000)
    socks = await seat_sockets(srv.ws, gid, toks)
    await play(socks, 30, 8000)
    await close_all(socks)
    for _ in range(20):  # first sockets: imports, caches
        async with websockets.connect(
            f"{srv.ws}/ws/games/{gid}", max_size=None, ping_interval=None
        ) as w:
            await w.recv()
    r2 = rss()
    live: list[list[Seat]] = []
    gids = []
    for i in range(n_games):
        g = await asyncio.to_thread(new_game, srv.base, toks, 8100 + i)
        gids.append(g)
    for i, g in enumerate(gids):
        socks = await seat_sockets(srv.ws, g, toks)
        spectator = await websockets.connect(
            f"{srv.ws}/ws/games/{g}", max_size=None, ping_interval=None, open_timeout=120
        )
        socks.append(Seat(spectator))
        await play(socks[:8], actions, 8100 + i)
        live.append(socks)
    r3 = rss()
    print(
        f"live games: {n_games} x 9 sockets, {actions} entries each, RSS {r2:.0f} -> "
        f"{r3:.0f} MB: {(r3 - r2) / n_games:.2f} MB per live game",
        flush=True,
    )
    r0 = r3
    idle: list[Seat] = []
    for _ in range(n_sockets):
        idle.append(
            Seat(
                await websockets.connect(
                    f"{srv.ws}/ws/games/{gid}", max_size=None, ping_interval=None, open_timeout=120
                )
            )
        )
        await idle[-1].ready.wait()  # its hello: attached
    r1 = rss()
    print(
        f"idle sockets: {n_sockets}, RSS {r0:.0f} -> {r1:.0f} MB: "
        f"{(r1 - r0) * 1024 / n_sockets:.1f} KB per idle socket",
        flush=True,
    )
    await close_all(idle)
    for socks in live:
        await close_all(socks)
    print(f"# server log: {srv.log}")


async def run(args: argparse.Namespace) -> None:
    db_dir = Path(args.db) if args.db else Path(tempfile.mkdtemp())
    db_dir.mkdir(parents=True, exist_ok=True)
    extra = {"OVERLORD_TRACEMALLOC": os.environ.get("OVERLORD_TRACEMALLOC", "")}
    srv = Server(args.pg, db_dir, {k: v for k, v in extra.items() if v})
    try:
        srv.start()
        if args.memory:
            await memory(srv, args.sockets, args.games, args.actions)
            return
        lengths = [int(x) for x in args.lengths.split(",")]
        saved = db_dir / "games.json"
        built = json.loads(saved.read_text()) if saved.exists() and not args.pg else None
        if built is None or sorted(int(k) for k in built["games"]) != sorted(lengths):
            built = await build(srv, lengths)
            if not args.pg:
                saved.write_text(json.dumps(built))
        print(
            f"# resume: {SCENARIO}, {'PostgreSQL + Redis' if args.pg else 'SQLite'}, "
            f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        await measure(srv, built, args.repeat, args.warm)
    finally:
        if args.pg:
            srv.drop()
        else:
            srv.kill()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--lengths", default="500,1000,3000,6000", help="log entries per game")
    ap.add_argument("--repeat", type=int, default=3, help="restarts (rounds)")
    ap.add_argument("--warm", type=int, default=3, help="warm requests per round and game")
    ap.add_argument("--pg", action="store_true", help="PostgreSQL + Redis")
    ap.add_argument("--db", help="SQLite: keep the database and the built games here")
    ap.add_argument("--memory", action="store_true", help="memory mode")
    ap.add_argument("--sockets", type=int, default=1000, help="memory: idle sockets")
    ap.add_argument("--games", type=int, default=50, help="memory: live games")
    ap.add_argument("--actions", type=int, default=40, help="memory: entries per live game")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
