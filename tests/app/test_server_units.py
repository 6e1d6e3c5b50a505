"""Unit tests of the server's pure pieces: chat policy, rate limiter, bounded send queue,
pub/sub implementations."""
from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from app.chat.policy import Actor, channels, may_read, may_write
from app.pubsub import InProcessPubSub, RedisPubSub, channel_for
from app.realtime.connection import Connection, TokenBucket

from .conftest import PG_HOST, REDIS_PORT, reachable

AXIS = Actor("AXIS", "AXIS", "commander", True)
ALLIES = Actor("ALLIES", "ALLIES", "commander", True)
WATCHER = Actor(None, None, None, True)
ANON = Actor(None, None, None, False)
CINC = Actor("ALLIES:cinc", "ALLIES", "cinc", True)
LEFT = Actor("ALLIES:left", "ALLIES", "left", True)
RIGHT = Actor("ALLIES:right", "ALLIES", "right", True)
AX_LEFT = Actor("AXIS:left", "AXIS", "left", True)


def test_policy_1v1() -> None:
    assert may_write(AXIS, "all") and may_write(AXIS, "side:AXIS")
    assert not may_read(AXIS, "side:ALLIES") and not may_write(AXIS, "side:ALLIES")
    assert not may_read(AXIS, "spectators")            # spectator chat never reaches players
    assert may_read(WATCHER, "all") and not may_write(WATCHER, "all")
    assert may_write(WATCHER, "spectators") and not may_write(ANON, "spectators")
    assert may_read(ANON, "spectators")
    assert not may_read(WATCHER, "side:AXIS")
    assert not may_read(AXIS, "somewhere").allowed
    assert may_write(ANON, "spectators").reason
    seats = [("AXIS", "AXIS", "commander"), ("ALLIES", "ALLIES", "commander")]
    assert channels(AXIS, seats) == {"read": ["all", "side:AXIS"], "write": ["all", "side:AXIS"]}
    assert channels(WATCHER, seats) == {"read": ["all", "spectators"], "write": ["spectators"]}


def test_policy_overlord_chain_of_command() -> None:
    visiting_left = {"overlord": {"chain_of_command": {"side": "ALLIES", "visited": "left"}}}
    # a tentative visit (while dispatching) opens nothing: only the confirmed one counts
    assert not may_write(CINC, "pair:ALLIES:left", {"overlord": {"visit": "left"}})
    assert may_write(LEFT, "side:ALLIES") and may_write(RIGHT, "side:ALLIES")   # FGs any time
    assert not may_write(CINC, "side:ALLIES")
    assert may_write(CINC, "pair:ALLIES:left", visiting_left)
    assert not may_write(CINC, "pair:ALLIES:right", visiting_left)
    assert not may_write(CINC, "pair:ALLIES:left", {})
    assert may_write(LEFT, "pair:ALLIES:left", visiting_left)
    assert not may_read(RIGHT, "pair:ALLIES:left")
    assert not may_read(AX_LEFT, "pair:ALLIES:left")                             # nothing crosses sides
    assert not may_read(AX_LEFT, "side:ALLIES")
    seats = [(f"ALLIES:{r}", "ALLIES", r) for r in ("cinc", "left", "centre", "right")]
    ch = channels(CINC, seats, visiting_left)
    assert "pair:ALLIES:left" in ch["write"] and "pair:ALLIES:right" in ch["read"]
    assert "pair:ALLIES:right" not in ch["write"]


def test_token_bucket() -> None:
    b = TokenBucket(rate=0.001, burst=5)
    assert [b.allow() for _ in range(7)] == [True] * 5 + [False] * 2


class FakeWS:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.block = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.block.wait()               # a client that never reads
        self.sent.append(text)

    async def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


async def test_send_queue_overflow_drops_only_that_connection() -> None:
    slow, fast = FakeWS(), FakeWS()
    fast.block.set()
    cs = Connection(slow, 4), Connection(fast, 4)   # type: ignore[arg-type]
    for c in cs:
        c.writer_task = asyncio.create_task(c.writer())
    for i in range(50):
        for c in cs:
            c.send_json({"i": i})                   # never blocks
        await asyncio.sleep(0)
    assert cs[0].closed and cs[0].close_code == 4008
    assert not cs[1].closed and len(fast.sent) == 50
    await asyncio.wait({cs[0].writer_task}, timeout=5)  # type: ignore[arg-type]
    assert cs[0].writer_task.done()                     # type: ignore[union-attr]
    assert slow.closed and slow.closed[0] == 4008
    cs[1].close()
    await asyncio.wait_for(cs[1].writer_task, 5)    # type: ignore[arg-type]
    assert fast.closed == (1000, "")


async def test_send_queue_is_bounded_in_bytes() -> None:
    """A slow reader is dropped once its backlog passes ``max_bytes`` (not only a count of
    messages); one message larger than the bound still goes to an idle connection."""
    slow = FakeWS()
    c = Connection(slow, 1000, max_bytes=1000)      # type: ignore[arg-type]
    c.writer_task = asyncio.create_task(c.writer())
    c.send("x" * 1500)                              # alone in the queue: accepted
    await asyncio.sleep(0)                          # the writer takes it (and blocks)
    for _ in range(3):
        c.send("y" * 300)
    assert not c.closed and c.queued == 900
    c.send("z" * 300)
    assert c.closed and c.close_code == 4008
    await asyncio.wait({c.writer_task}, timeout=5)  # type: ignore[arg-type]


async def _roundtrip(ps: Any) -> None:
    got: list[tuple[str, bytes]] = []
    done = asyncio.Event()

    gid = "g_" + secrets.token_hex(4)

    async def handler(channel: str, data: bytes) -> None:
        if channel != channel_for(gid):      # other servers may share this Redis
            return
        got.append((channel, data))
        if len(got) == 3:
            done.set()

    await ps.start(handler)
    await asyncio.sleep(0.1)
    for i in range(3):
        await ps.publish(channel_for(gid), f"m{i}".encode())
    await asyncio.wait_for(done.wait(), 5)
    assert got == [(channel_for(gid), f"m{i}".encode()) for i in range(3)]
    await ps.close()


async def test_in_process_pubsub() -> None:
    await _roundtrip(InProcessPubSub())


@pytest.mark.postgres
async def test_redis_pubsub() -> None:
    if not reachable(PG_HOST, REDIS_PORT):
        pytest.skip("Redis unreachable")
    await _roundtrip(RedisPubSub(f"redis://{PG_HOST}:{REDIS_PORT}/0"))


def test_stand_in_bot_decides_then_confirms() -> None:
    """The server's bot move (``choose_bot_action``, a fresh engine bot salted with the log
    seq for every move) as a stand-in C-in-C: it hands out cards, visits once, confirms;
    never a ``undo_dispatch`` (one used to give and take back cards 24 times in 40 s)."""
    from pathlib import Path

    from app.engine_api import ruleset
    from app.games.bots import choose_bot_action
    from engine import apply, load_scenario, new_game, sample_chance, to_act

    omaha = Path(__file__).resolve().parents[2] / "scenarios" / "13-OmahaBeachOverlord.m44"
    st = new_game(load_scenario(omaha), 3)
    seq, made = 0, []
    while st.turn <= 6:
        seat = to_act(st)[0]
        a = sample_chance(st) if seat == "chance" else choose_bot_action(ruleset("overlord"), st, seat, seq)
        assert a is not None
        if seat.endswith(":cinc") and a["type"] in ("dispatch", "undo_dispatch", "visit",
                                                    "gung_ho", "confirm_dispatch"):
            made.append((st.turn, a["type"]))
        st, _ = apply(st, a)
        seq += 1
    per_turn: dict[int, list[str]] = {}
    for turn, kind in made:
        per_turn.setdefault(turn, []).append(kind)
    assert len(per_turn) >= 5
    for kinds in per_turn.values():
        assert "undo_dispatch" not in kinds and kinds.count("visit") <= 1 and len(kinds) <= 6
        assert kinds[-1] == "confirm_dispatch"


def test_gc_tuning_from_settings() -> None:
    """GC_THRESHOLDS sets the collector's thresholds; empty keeps them (GC_FREEZE off here:
    a test process must not freeze the suite's objects)."""
    import gc

    from app.main import tune_gc
    from app.settings import Settings

    before = gc.get_threshold()
    try:
        tune_gc(Settings(gc_thresholds="800,11,12", gc_freeze=False))
        assert gc.get_threshold() == (800, 11, 12)
        tune_gc(Settings(gc_thresholds="", gc_freeze=False))
        assert gc.get_threshold() == (800, 11, 12)
    finally:
        gc.set_threshold(*before)


def test_games_started_together_snapshot_at_different_actions() -> None:
    """A snapshot every SNAPSHOT_EVERY log entries, at an offset of the game's own: each
    game crosses exactly one snapshot point per SNAPSHOT_EVERY entries, and 300 games
    played in step do not all snapshot on the same action (they held the loop ~300 ms)."""
    from app.games.play import snapshot_due

    every = 50
    firsts = []
    for n in range(300):
        gid = f"g{n:05d}"
        due = [seq for seq in range(1, 501) if snapshot_due(gid, seq - 1, seq, every)]
        assert len(due) == 10 and all(b - a == every for a, b in zip(due, due[1:]))
        assert snapshot_due(gid, 0, 500, every)         # a batch of many entries too
        firsts.append(due[0])
    assert max(firsts.count(s) for s in set(firsts)) < 30     # spread over the 50 actions


@pytest.mark.postgres
async def test_redis_subscriber_resubscribes_after_a_lost_connection() -> None:
    """The raw subscriber (hiredis over an asyncio protocol) reopens its connection when
    it drops and hears what is published after that, in order; closing stops it."""
    if not reachable(PG_HOST, REDIS_PORT):
        pytest.skip("Redis unreachable")
    ps = RedisPubSub(f"redis://{PG_HOST}:{REDIS_PORT}/0")
    gid = "g_" + secrets.token_hex(4)
    got: list[bytes] = []

    async def handler(channel: str, data: bytes) -> None:
        if channel == channel_for(gid):
            got.append(data)

    await ps.start(handler)
    await ps.publish(channel_for(gid), b"before")
    for _ in range(100):
        if got:
            break
        await asyncio.sleep(0.02)
    assert got == [b"before"]
    sub = ps._sub                                   # noqa: SLF001
    assert sub is not None and sub._proto is not None   # noqa: SLF001
    old = sub._proto                                # noqa: SLF001
    assert old.transport is not None
    old.transport.abort()                           # the connection drops
    for _ in range(200):                            # resubscribed on a new connection
        p = sub._proto                              # noqa: SLF001
        if p is not old and p is not None and p.subscribed.done():
            break
        await asyncio.sleep(0.02)
    else:
        pytest.fail("the subscriber did not reconnect")
    for i in range(3):
        await ps.publish(channel_for(gid), f"after{i}".encode())
    for _ in range(100):
        if len(got) == 4:
            break
        await asyncio.sleep(0.02)
    assert got == [b"before", b"after0", b"after1", b"after2"]
    await ps.close()
    assert ps._task is not None and ps._task.done()   # noqa: SLF001


def test_the_loop_thread_gets_the_scheduler_slice_it_asks_for() -> None:
    """``SCHED_SLICE_MS`` (app/sched.py): on a Linux that keeps per-thread slices the
    thread reads back the slice it set; elsewhere ``set_slice`` says why not and changes
    nothing."""
    import threading

    from app import sched

    out: dict[str, object] = {}

    def in_a_thread() -> None:             # not the test runner's own thread
        before = sched.current_slice_ns()
        out["why"] = sched.set_slice(0.25)
        out["before"], out["after"] = before, sched.current_slice_ns()

    t = threading.Thread(target=in_a_thread)
    t.start()
    t.join()
    if out["why"] is not None:
        assert isinstance(out["why"], str) and out["why"]
        assert out["after"] == out["before"]
    elif out["before"]:                     # the kernel keeps a slice per thread (6.12+)
        assert out["after"] == 250_000


def test_ws_writer_thread_takes_the_old_flags_and_refuses_other_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """WS_WRITER_THREAD: auto (the default), on, off, and 1 / 0 / true / false as before
    auto existed; anything else stops the start with a validation error."""
    from pydantic import ValidationError

    from app.settings import Settings

    monkeypatch.delenv("WS_WRITER_THREAD", raising=False)
    assert Settings().ws_writer_thread == "auto"
    for raw, mode in (("1", "on"), ("true", "on"), ("0", "off"), ("False", "off"),
                      ("auto", "auto"), ("on", "on")):
        monkeypatch.setenv("WS_WRITER_THREAD", raw)
        assert Settings().ws_writer_thread == mode, raw
    monkeypatch.setenv("WS_WRITER_THREAD", "sometimes")
    with pytest.raises(ValidationError):
        Settings()
