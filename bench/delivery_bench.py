"""Delivery benchmark: the worker's own Python per action, without the network.

The Overlord scale benchmark (``bench/overlord_scale.py``) measures the whole worker
beside a bare relay; its CPU per action moves +-15 % from run to run on a shared machine,
which hides changes of a few per cent.  This one measures the part we write ourselves:

1. a server (``overlord-server serve``, a temporary SQLite database) is started only to
   create G Omaha Beach Overlord games the way players do (8 identities claim the 8
   role seats), then stopped;
2. in THIS process, the project's ``Database`` and ``Hub`` open that database; every
   game is loaded and gets 9 connections (the 8 seats and a spectator), bound and
   greeted by the hub's own code (``bind``, ``attach``: hello and all); their texts go
   to a counting socket through each connection's queue and writer;
3. N actions go through ``Hub.act`` (a random legal action of a seat the engine
   waits for, the games in turn): engine, log commit, views, patches and messages,
   everything but uvicorn's framing, the sockets' system calls and the event loop's
   reading.  CPU per action is ``time.process_time`` over the N actions.

    python bench/delivery_bench.py                          # 20 games, 2,000 actions
    python bench/delivery_bench.py --games 50 --actions 5000 --repeat 3
    python bench/delivery_bench.py --profile out.prof      # cProfile of the actions
    PYTHONHASHSEED=0 valgrind --tool=callgrind python bench/delivery_bench.py \
        --keep-db /tmp/games --actions N --repeat 1         # instructions, same games

Prints one JSON object (CPU ms per action: each repeat, best and median; frames and
bytes per action).  Asserts nothing.  Needs only ``make install``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from overlord_scale import SEATS, create_games, start_server, tree  # noqa: E402


class Socket:
    """The framework's websocket: counts what it would send."""

    def __init__(self, meter: dict[str, int]) -> None:
        self.meter = meter

    async def send_text(self, text: str) -> None:
        self.meter["frames"] += 1
        self.meter["bytes"] += len(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        return None


def create(games: int) -> tuple[str, list[str]]:
    """A SQLite database holding ``games`` Overlord games with their 8 seats claimed."""
    proc, base, _ = start_server(False, 1, None)
    try:
        with open(f"/proc/{proc.pid}/environ", "rb") as f:  # the server's database
            env = dict(kv.split(b"=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
        ids, _toks = create_games(base, games)
        return env[b"DATABASE_URL"].decode(), ids
    finally:
        for pid in tree(proc.pid)[::-1]:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        proc.wait(30)


def kept(folder: str, games: int) -> tuple[str, list[str]]:
    """A copy of the database kept in ``folder`` and its game ids (made by :func:`create`
    the first time): every run starts from the same games in the same state."""
    import shutil
    import tempfile

    db, meta = os.path.join(folder, "games.db"), os.path.join(folder, "games.json")
    if not os.path.exists(meta):
        url, ids = create(games)
        os.makedirs(folder, exist_ok=True)
        src = url.split("///", 1)[1]
        shutil.copy(src, db)
        if os.path.exists(src + "-wal"):  # not checkpointed at the server's exit
            shutil.copy(src + "-wal", db + "-wal")
        with open(meta, "w") as f:
            json.dump(ids, f)
    with open(meta) as f:
        ids = json.load(f)
    copy = os.path.join(tempfile.mkdtemp(), "games.db")
    shutil.copy(db, copy)
    if os.path.exists(db + "-wal"):
        shutil.copy(db + "-wal", copy + "-wal")
    return f"sqlite+aiosqlite:///{copy}", ids


async def measure(
    url: str, ids: list[str], actions: int, repeat: int, seed: int, profile: str | None
) -> dict[str, Any]:
    import gc

    from app.db import Database
    from app.games.presence import Presence
    from app.games.sessions import GameSessions
    from app.models import Identity
    from app.pubsub import make_pubsub
    from app.realtime.connection import SEND_QUEUE, SEND_QUEUE_BYTES, Connection
    from app.realtime.hub import Hub
    from app.settings import Settings

    settings = Settings(database_url=url, redis_url=None, idle_evict_seconds=0)
    db = Database(url)
    sessions = GameSessions(settings, db, make_pubsub(None))
    hub = Hub(settings, sessions, Presence(sessions))
    sessions.committed.append(hub.deliver)
    meter = {"frames": 0, "bytes": 0}
    games = []
    for gid in ids:
        rt = await hub.registry.get(gid)
        conns: dict[str | None, Connection] = {}
        for seat in [*SEATS, None]:
            conn = Connection(Socket(meter), SEND_QUEUE, SEND_QUEUE_BYTES)
            conn.writer_task = asyncio.create_task(conn.writer())
            await asyncio.sleep(0)  # the writer idles: direct sends
            identity = None
            if seat is not None:
                async with db.sessions() as session:
                    identity = await session.get(Identity, rt.seats[seat].identity_id)
            assert not hub.bind(rt, conn, identity, seat)
            await hub.attach(rt, conn, None)
            conns[seat] = conn
        games.append((rt, conns))
    gc.collect()  # as the server after start-up (app/main.py)
    gc.freeze()
    gc_ns = [0, 0, 0]  # CPU time of the collector's passes, per generation
    gc_n = [0, 0, 0]
    gc_t = [0]

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            gc_t[0] = time.process_time_ns()
        else:
            gc_ns[info["generation"]] += time.process_time_ns() - gc_t[0]
            gc_n[info["generation"]] += 1

    gc.callbacks.append(on_gc)
    rng = random.Random(seed)
    rounds: list[float] = []
    per_action: dict[str, float] = {}
    prof = cProfile.Profile() if profile else None
    for _ in range(repeat):
        meter.update(frames=0, bytes=0)
        done = 0
        t0 = time.process_time()
        if prof is not None:
            prof.enable()
        while done < actions:
            for rt, conns in games:
                seats = [s for s in rt.rs.to_act(rt.state) if s in conns]
                if not seats or rt.rs.is_over(rt.state):
                    continue
                seat = rng.choice(seats)
                legal = rt.rs.legal_actions(rt.state, seat)
                if not legal:
                    continue
                conn = conns[seat]
                await hub.act(rt, conn, seat, rt.seq, dict(rng.choice(legal)), done)
                await asyncio.sleep(0)  # the writers send
                done += 1
                if done >= actions:
                    break
            else:
                if not any(not rt.rs.is_over(rt.state) for rt, _ in games):
                    break  # every game over: fewer actions than asked
        if prof is not None:
            prof.disable()
        rounds.append((time.process_time() - t0) * 1000 / max(done, 1))
        per_action = {k: round(v / max(done, 1), 1) for k, v in meter.items()}
    gc.callbacks.remove(on_gc)
    cyclic = gc.collect()  # what only a full collection frees: cycles left by the actions
    if prof is not None and profile:
        prof.dump_stats(profile)
    for _rt, conns in games:
        for conn in conns.values():
            conn.close()
    await db.dispose()
    return {
        "games": len(ids),
        "sockets_per_game": 9,
        "actions": actions,
        "cpu_ms_per_action": [round(x, 3) for x in rounds],
        "cpu_ms_per_action_best": round(min(rounds), 3),
        "cpu_ms_per_action_median": round(statistics.median(rounds), 3),
        **{f"{k}_per_action": v for k, v in per_action.items()},
        # all repeats: the collector's CPU per action by generation, its passes, and the
        # unreachable objects a full collection found at the end (cycles left behind)
        "gc_ms_per_action": [round(ns / 1e6 / max(actions * repeat, 1), 3) for ns in gc_ns],
        "gc_collections": gc_n,
        "cyclic_garbage_at_end": cyclic,
        "gc_thresholds": list(gc.get_threshold()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--actions", type=int, default=2000, help="actions per repeat")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", help="cProfile of the measured actions, to this file")
    ap.add_argument(
        "--keep-db",
        metavar="DIR",
        help="play the games kept in DIR (made there by the first run with this "
        "option; --games is then ignored): two trees, or two runs under "
        "callgrind, play the very same actions (with PYTHONHASHSEED fixed, "
        "the same instructions but for the change)",
    )
    a = ap.parse_args()
    url, ids = kept(a.keep_db, a.games) if a.keep_db else create(a.games)
    out = asyncio.run(measure(url, ids, a.actions, a.repeat, a.seed, a.profile))
    out["machine"] = {"cpus": os.cpu_count(), "load": os.getloadavg()}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
