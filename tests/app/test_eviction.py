"""Games leave a worker's memory and come back from their snapshot: idle eviction
(``IDLE_EVICT_SECONDS``), the registry's capacity (``REGISTRY_CAPACITY``: never a game
with connections or bot work), and the bounded structures of a connection."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketState
from engine.bot import RandomBot

from app.games.runtime import RECENT_BATCHES, RECENT_EVENTS, GameRuntime, Registry, shared_board
from app.realtime.connection import Connection
from tests.app.conftest import Server, backend
from tests.app.helpers import WS, two_player_game
from tests.app.test_game_ws import logged_events, play, url


# -- units ---------------------------------------------------------------------------------
def fake_rt(gid: str, seq: int = 5, used: float | None = None, **kw: Any) -> Any:
    rt = SimpleNamespace(
        game_id=gid,
        seq=seq,
        connections=set(),
        lock=asyncio.Lock(),
        inbox=deque(),
        bot_task=None,
        inbox_task=None,
        clock=None,
        status="live",
        seats={},
        state=None,
        rs=SimpleNamespace(to_act=lambda state: []),
        used=time.monotonic() - 1000 if used is None else used,
    )
    for k, v in kw.items():
        setattr(rt, k, v)
    return rt


def registry(capacity: int, *rts: Any) -> tuple[Registry, list[str]]:
    reg = Registry(None, capacity)  # type: ignore[arg-type]
    dropped: list[str] = []
    reg.on_drop = dropped.append
    for rt in rts:
        reg.runtimes[rt.game_id] = rt
    return reg, dropped


def test_capacity_drops_only_idle_games() -> None:
    """Over capacity the LRU drops idle games, oldest first; a game with a connection, a
    bot task, a queued bus message, its lock taken or a lookup within ``GRACE`` stays,
    however far over capacity that leaves the registry."""
    busy = [
        fake_rt("conn", connections={object()}),
        fake_rt("recent", used=time.monotonic()),
        fake_rt("inbox", inbox=deque([{"kind": "batch"}])),
        fake_rt("clock", clock=object()),
    ]
    reg, dropped = registry(1, fake_rt("idle1"), *busy, fake_rt("idle2"))
    reg._evict()
    assert dropped == ["idle1", "idle2"]
    assert list(reg.runtimes) == ["conn", "recent", "inbox", "clock"]
    assert reg.evicted == {"idle1": 5, "idle2": 5}


async def test_bot_task_and_lock_keep_a_game() -> None:
    task = asyncio.create_task(asyncio.sleep(10))
    locked = fake_rt("locked")
    await locked.lock.acquire()
    reg, dropped = registry(0, fake_rt("bot", bot_task=task), locked)
    assert reg.evict_idle(1.0) == [] and dropped == []
    task.cancel()
    locked.lock.release()
    await asyncio.sleep(0)
    assert sorted(reg.evict_idle(1.0)) == ["bot", "locked"]


def test_evict_idle_after_quiet_seconds() -> None:
    now = time.monotonic()
    waiting = fake_rt(
        "bots",
        seats={"AXIS": SimpleNamespace(seat="AXIS", is_bot=True)},
        rs=SimpleNamespace(to_act=lambda state: ["AXIS"]),
        used=now - 60,
    )
    reg, dropped = registry(
        256, fake_rt("old", used=now - 60), fake_rt("new", used=now - 5), waiting
    )
    assert sorted(reg.evict_idle(30.0)) == ["bots", "old"] == sorted(dropped)
    assert list(reg.runtimes) == ["new"]
    # a game whose bot is waited for is not marked: the bot sweep reloads it
    assert reg.evicted == {"old": 5}


def test_shared_board() -> None:
    calls = []
    rs = SimpleNamespace(name="m44", board=lambda st: calls.append(st) or {"hexes": []})
    scn = object()
    a, b = SimpleNamespace(scn=scn), SimpleNamespace(scn=scn)
    assert shared_board(rs, a) is shared_board(rs, b)  # type: ignore[arg-type]
    assert len(calls) == 1
    assert shared_board(rs, SimpleNamespace(scn=object())) is not shared_board(rs, a)  # type: ignore[arg-type]


def bare_runtime() -> GameRuntime:
    rt = GameRuntime.__new__(GameRuntime)
    rt.recent, rt.recent_events, rt.delivered_seq = deque(), 0, 0
    rt.fold, rt.seq, rt.clock = SimpleNamespace(state=None, seq=0), 0, None
    return rt


def test_recent_batches_bounded_by_count_and_events() -> None:
    """``GameRuntime.recent`` keeps at most RECENT_BATCHES delivered batches and
    RECENT_EVENTS of their events (the older ones are rebuilt from a snapshot on a
    reconnect); a batch not yet delivered is never dropped; only the last batch keeps
    its state once delivered."""
    rt = bare_runtime()
    for seq in range(1, 201):
        rt.push(seq, "AXIS", [{"type": "e"}], object(), seq)
        rt.delivered_seq = seq
    assert len(rt.recent) == RECENT_BATCHES and rt.recent[-1].seq == 200
    assert rt.recent_events == RECENT_BATCHES
    assert [b.state is None for b in rt.recent].count(False) == 1
    assert rt.batches_since(200 - RECENT_BATCHES) is not None
    assert rt.batches_since(199 - RECENT_BATCHES) is None  # rebuilt from the log
    for seq in range(201, 401):  # not delivered: kept
        rt.push(seq, "AXIS", [{"type": "e"}], object(), seq)
    assert rt.recent[0].first_seq <= 201 and rt.recent[-1].seq == 400
    rt = bare_runtime()
    big = [{"type": "e"}] * 100
    for seq in range(1, 51):
        rt.push(seq, "AXIS", big, object(), seq)
        rt.delivered_seq = seq
    assert rt.recent_events <= RECENT_EVENTS and len(rt.recent) == RECENT_EVENTS // 100


class FakeWS:
    client_state = application_state = WebSocketState.CONNECTED  # Starlette's

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.gate = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_send_queue_bounded_by_count_and_bytes() -> None:
    ws = FakeWS()
    conn = Connection(ws, queue_size=3, max_bytes=100)  # type: ignore[arg-type]
    conn.writer_task = asyncio.create_task(conn.writer())
    await asyncio.sleep(0)
    assert not conn._out  # idle: nothing held
    for i in range(4):
        conn.send(f"m{i}")  # m0 taken by the writer, m1..m3 queued
        await asyncio.sleep(0)
    assert not conn.closed and conn.queued == 6
    conn.send("m4")  # a 4th waiting message: over the count
    assert conn.closed and conn.close_code == 4008 and not conn._out
    await asyncio.wait_for(asyncio.gather(conn.writer_task, return_exceptions=True), 3)
    assert ws.sent == [] and ws.closed is not None and ws.closed[0] == 4008  # writer cut

    ws2 = FakeWS()
    ws2.gate.set()
    conn2 = Connection(ws2, queue_size=100, max_bytes=100)  # type: ignore[arg-type]
    conn2.writer_task = asyncio.create_task(conn2.writer())
    conn2.send("x" * 60)
    conn2.send("y" * 30)
    await asyncio.sleep(0.01)
    assert ws2.sent == ["x" * 60, "y" * 30] and conn2.queued == 0 and not conn2._out
    ws2.gate.clear()
    conn2.send("a" * 10)  # taken by the writer (blocked sending it)
    await asyncio.sleep(0)
    conn2.send("b" * 60)
    assert not conn2.closed
    conn2.send("c" * 50)  # 110 characters waiting: over the bytes
    assert conn2.close_code == 4008

    ws3 = FakeWS()
    ws3.gate.set()
    conn3 = Connection(ws3, queue_size=10)  # type: ignore[arg-type]
    conn3.writer_task = asyncio.create_task(conn3.writer())
    conn3.send("last")
    conn3.close(1000, "bye")  # pending messages are flushed, then closed
    await asyncio.wait_for(conn3.writer_task, 2)
    assert ws3.sent == ["last"] and ws3.closed == (1000, "bye")


# -- a real server ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def evicting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with backend("sqlite", tmp_path_factory.mktemp("evict"), {"IDLE_EVICT_SECONDS": "1"}) as srv:
        yield srv


def mark(srv: Server, gid: str, name: str) -> None:
    """Change the game's row behind the server's back: a game loaded again shows it in
    its ``hello`` (``scenario_name``), a game still in memory does not."""
    path = srv.env["DATABASE_URL"].split("///", 1)[1]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET scenario_name = ? WHERE id = ?", (name, gid))


async def test_evicted_game_resumes_from_its_snapshot(evicting: Server) -> None:
    """A game nobody is connected to is dropped after IDLE_EVICT_SECONDS; the next
    connection loads it again (its latest snapshot + log tail) and the game continues
    with the same state and seq: reconnects with ``since`` get exactly the missed events,
    every acknowledged action is there."""
    with httpx.Client(base_url=evicting.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=31)
        bot = RandomBot(31)
        async with (
            WS(url(evicting, gid), toks["AXIS"]) as ax,
            WS(url(evicting, gid), toks["ALLIES"]) as al,
            WS(url(evicting, gid)) as spec,
        ):
            await play({"AXIS": ax, "ALLIES": al}, bot, 30, (spec,))  # past a snapshot (25)
            seq = spec.seq
            before = {w.seat: (w.view, w.legal) for w in (ax, al, spec)}
            events = [
                e
                for m in spec.messages
                if m["type"] == "update" and m["first_seq"] > seq - 4
                for e in m["events"]
            ]
        mark(evicting, gid, "reloaded")
        await asyncio.sleep(3.5)  # idle 1 s, a pass every second
        async with (
            WS(url(evicting, gid, since=seq - 4), toks["AXIS"]) as ax,
            WS(url(evicting, gid, since=seq), toks["ALLIES"]) as al,
            WS(url(evicting, gid, since=seq - 4)) as spec,
        ):
            hello = spec.messages[0]
            assert hello["scenario_name"] == "reloaded"  # it was loaded again
            assert hello["seq"] == seq
            upd = await spec.expect("update", "sync")
            assert upd["type"] == "update" and (upd["first_seq"], upd["seq"]) == (seq - 3, seq)
            assert upd["events"] == events == logged_events(api, gid, seq - 4, None)
            for w in (ax, al, spec):
                assert w.seq == seq and (w.view, w.legal) == before[w.seat]
            await play({"AXIS": ax, "ALLIES": al}, bot, 10, (spec,))
            assert api.get(f"/api/games/{gid}").json()["seq"] == spec.seq > seq


async def test_game_with_a_connection_stays(evicting: Server) -> None:
    with httpx.Client(base_url=evicting.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=32)
        async with WS(url(evicting, gid)) as spec:
            mark(evicting, gid, "changed behind")
            await asyncio.sleep(3.0)
            async with WS(url(evicting, gid), toks["AXIS"]) as ax:
                assert ax.messages[0]["scenario_name"] != "changed behind"  # never dropped
            assert spec.seq == 0


def test_clock_fold_from_a_saved_fold() -> None:
    """``Clock.of`` from a saved fold + the rows after it is the fold of all the rows."""
    from datetime import datetime, timedelta, timezone

    from app.clocks.service import Clock

    t0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
    rows = [
        (("AXIS", "chance", "ALLIES")[i % 3], t0 + timedelta(seconds=i * 1.5 + (i % 7)))
        for i in range(1, 120)
    ]
    for cfg in (
        {"kind": "bank", "initial_seconds": 600, "increment_seconds": 5},
        {"kind": "move", "move_seconds": 60},
    ):
        full = Clock.of(cfg, t0, rows)
        assert full is not None
        for k in (0, 1, 50, 119):
            head = Clock.of(cfg, t0, rows[:k])
            assert head is not None
            part = Clock.of(cfg, t0, rows[k:], saved=head.dump())
            assert part is not None and part.dump() == full.dump()


async def test_timed_game_snapshots_carry_the_clock(evicting: Server) -> None:
    """Each snapshot of a timed game keeps its clock's fold (``snapshots.clock``), equal
    to the fold of the log rows up to it: a cold start reads only the rows after it."""
    from app.clocks.service import Clock
    from tests.app.test_remote_play import timed_game

    with httpx.Client(base_url=evicting.base, timeout=20) as api:
        gid, toks = timed_game(
            api,
            {"kind": "bank", "initial_seconds": 3600, "increment_seconds": 2, "on_timeout": "bot"},
            seed=33,
        )
        async with (
            WS(url(evicting, gid), toks["AXIS"]) as ax,
            WS(url(evicting, gid), toks["ALLIES"]) as al,
        ):
            await play({"AXIS": ax, "ALLIES": al}, RandomBot(33), 60)
        await asyncio.sleep(0.5)  # snapshots are written after the broadcast
    path = evicting.env["DATABASE_URL"].split("///", 1)[1]
    with sqlite3.connect(path) as db:
        snaps = db.execute(
            "SELECT seq, clock FROM snapshots WHERE game_id = ? ORDER BY seq", (gid,)
        ).fetchall()
        started = db.execute("SELECT started_at FROM games WHERE id = ?", (gid,)).fetchone()[0]
        rows = db.execute(
            "SELECT seq, seat, created_at FROM actions WHERE game_id = ? ORDER BY seq", (gid,)
        ).fetchall()
    assert len(snaps) >= 2 and all(c is not None for _, c in snaps)
    from datetime import datetime

    def dt(s: str) -> datetime:
        return datetime.fromisoformat(s)

    cfg = {"kind": "bank", "initial_seconds": 3600, "increment_seconds": 2, "on_timeout": "bot"}
    for seq, saved in snaps:
        full = Clock.of(
            cfg,
            dt(started),
            [(seat, dt(at)) for s, seat, at in rows if s <= seq],
            ("AXIS", "ALLIES"),
        )
        assert full is not None
        got = json.loads(saved)
        assert got["last_side"] == full.last_side
        assert got["last"] == pytest.approx(full.last)
        assert got["remaining"] == pytest.approx(full.remaining)


async def test_spectators_joining_cost_no_message_each(evicting: Server) -> None:
    """N spectators joining send no ``presence`` message per join to everyone (N squared
    messages): the count goes out once per presence period, serialized once; a seat's
    state change still goes out at once."""
    with httpx.Client(base_url=evicting.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=34)
        async with WS(url(evicting, gid)) as first:
            others = [WS(url(evicting, gid)) for _ in range(12)]
            for w in others:
                await w.__aenter__()
            await asyncio.sleep(2.5)  # one presence period (2 s) at least
            counts = [m["spectators"] for m in first.messages if m["type"] == "presence"]
            assert 1 <= len(counts) <= 3 and counts[-1] == 13, counts
            seen = len(first.messages)
            async with WS(url(evicting, gid), toks["AXIS"]):
                await asyncio.sleep(0.5)  # well before the next period
                states = [
                    {s["seat"]: s["state"] for s in m["seats"]}["AXIS"]
                    for m in first.messages[seen:]
                    if m["type"] == "presence"
                ]
                assert states == ["online"], states
            for w in others:
                await w.close()


def test_a_cold_start_from_an_early_snapshot_is_the_live_game(tmp_path: Path) -> None:
    """Snapshots every 2 entries (each game at an offset of its own): a snapshot due while
    every step since seq 1 can still be undone is the state before seq 1, which the seed
    replays: none is written (it was once stored under the current seq, and a restart
    then replayed the tail on the wrong state).  After a kill -9, each game reloads from
    its snapshots and shows exactly the view it had."""
    with (
        backend("sqlite", tmp_path, {"TEST_CONSTANTS": "app.games.play.SNAPSHOT_EVERY=2"}) as srv,
        httpx.Client(base_url=srv.base, timeout=20) as api,
    ):
        games = [two_player_game(api, seed=40 + n) for n in range(6)]

        async def before() -> list[dict[str, Any]]:
            views = []
            for n, (gid, toks) in enumerate(games):
                async with (
                    WS(url(srv, gid), toks["AXIS"]) as ax,
                    WS(url(srv, gid), toks["ALLIES"]) as al,
                    WS(url(srv, gid)) as spec,
                ):
                    await play({"AXIS": ax, "ALLIES": al}, RandomBot(n), 2 + n % 3, (spec,))
                    views.append(spec.view)
            await asyncio.sleep(0.5)  # snapshots are written after the broadcast
            return views

        live = asyncio.run(before())
        srv.restart()

        async def after() -> list[dict[str, Any]]:
            views = []
            for gid, _toks in games:
                async with WS(url(srv, gid)) as spec:
                    views.append(spec.view)
            return views

        assert asyncio.run(after()) == live
        path = srv.env["DATABASE_URL"].split("///", 1)[1]
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT count(*) FROM snapshots WHERE seq = 0").fetchone() == (0,)
