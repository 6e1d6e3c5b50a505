"""One owner worker per game (app/games/ownership.py, app/realtime/forward.py), across
TWO separate server processes on two ports sharing one PostgreSQL schema and Redis (as
two machines would): the sockets landing on the non-owner are relayed to the owner
frame by frame; both see the same stream; actions through the relay are applied
exactly once; killing the owner (SIGKILL) closes the relayed sockets with 1012 and the
game continues on the survivor with no acked action lost.  PostgreSQL + Redis only."""
from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from engine.bot import RandomBot

from tests.app.conftest import BASE_ENV, Server, pg_schema
from tests.app.helpers import WS, two_player_game
from tests.app.test_game_ws import assert_no_foreign_hand, play, url

pytestmark = pytest.mark.postgres


@contextlib.contextmanager
def two_servers(handoff: bool) -> Iterator[tuple[Server, Server]]:
    """Two server processes on one fresh schema + Redis (two machines, or with
    ``handoff`` two workers of one machine handing sockets over)."""
    with pg_schema() as pg_env:
        env = {**BASE_ENV, **pg_env, "OWNER_TTL_SECONDS": "3", "DB_POOL_SIZE": "3",
               "DB_MAX_OVERFLOW": "5", "SOCKET_HANDOFF": "1" if handoff else "0"}
        a, b = Server(env), Server(env)
        try:
            a.migrate()
            a.start()
            b.start()
            yield a, b
        finally:
            a.stop()
            b.stop()


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[Server, Server]]:
    with two_servers(handoff=False) as servers:     # relayed, as between machines
        yield servers


def worker(srv: Server, game: str | None = None) -> dict[str, Any]:
    r = httpx.get(srv.base + "/healthz", params={"game": game} if game else None, timeout=5)
    assert r.status_code == 200
    return dict(r.json()["worker"])


def owner_first(a: Server, b: Server, gid: str) -> tuple[Server, Server]:
    """(owner, other) of a game whose first socket is open: the live worker rendezvous
    hashing prefers for its id took it, whichever server the socket reached."""
    owns = [worker(s, gid)["owns"] for s in (a, b)]
    assert sorted(owns) == [False, True], owns
    return (a, b) if owns[0] else (b, a)


def updates(ws: WS) -> list[tuple[int, int, Any]]:
    return [(m["first_seq"], m["seq"], m["events"]) for m in ws.messages if m["type"] == "update"]


async def test_relayed_sockets_same_stream_exactly_once(pair: tuple[Server, Server]) -> None:
    a, b = pair
    for _ in range(50):                 # each has heard of the other (within ~1 s)
        if worker(a)["peers"] == worker(b)["peers"] == 2:
            break
        await asyncio.sleep(0.1)
    assert worker(a)["peers"] == worker(b)["peers"] == 2
    with httpx.Client(base_url=b.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=13)      # created through B: no owner yet
    async with WS(url(a, gid), toks["AXIS"]) as ax:      # the first socket: placed
        a, b = owner_first(a, b, gid)                    # a: the owner from here on
        async with WS(url(b, gid), toks["ALLIES"]) as al, WS(url(a, gid)) as spec_a, \
                WS(url(b, gid)) as spec_b:
            wa, wb = worker(a), worker(b)
            assert wb["relayed"] >= 2 and wa["relayed"] == 0   # (+1: the first, maybe)
            assert al.seat == "ALLIES" and spec_b.seat is None
            await play({"AXIS": ax, "ALLIES": al}, RandomBot(4), 30, (spec_a, spec_b))
            await spec_b.wait_seq(spec_a.seq)
            # the spectators on the owner and on the relay: the same updates, contiguous
            assert updates(spec_a) == updates(spec_b) and len(updates(spec_a)) >= 30
            seqs = [(f, s) for f, s, _ in updates(spec_b)]
            assert all(y[0] == x[1] + 1 for x, y in zip(seqs, seqs[1:]))
            assert spec_a.view == spec_b.view
            for w in (ax, al, spec_a, spec_b):
                assert_no_foreign_hand(w)
            # conflicting actions of one seat through the owner and through the relay:
            # exactly one applied
            async with WS(url(a, gid), toks[al.view["to_act"][0]]) as tab:
                me = al if tab.seat == "ALLIES" else ax
                await tab.wait_seq(me.seq)
                seq = me.seq
                if len(me.legal) >= 2:
                    r1, r2 = await asyncio.gather(me.act(me.legal[0], seq),
                                                  tab.act(me.legal[1], seq))
                    assert sorted([r1["type"], r2["type"]]) == ["ack", "reject"], (r1, r2)
                    ack = r1 if r1["type"] == "ack" else r2
                    await spec_b.wait_seq(ack["seq"])
            with httpx.Client(base_url=a.base, timeout=20) as api:
                assert api.get(f"/api/games/{gid}").json()["seq"] == spec_a.seq
            # only the owner keeps the game loaded (the other shed what it loaded for REST)
            assert worker(b)["owned"] == 0 and worker(b)["loaded"] == 0


async def test_owner_killed_relayed_sockets_1012_then_survivor_continues(
        pair: tuple[Server, Server]) -> None:
    a, b = pair
    with httpx.Client(base_url=b.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=17)
    bot = RandomBot(8)
    async with WS(url(a, gid), toks["AXIS"]) as ax:
        a, b = owner_first(a, b, gid)                          # a: the owner
        async with WS(url(b, gid), toks["ALLIES"]) as al, WS(url(b, gid)) as spec:
            await play({"AXIS": ax, "ALLIES": al}, bot, 20, (spec,))
            acked = max(ax.seq, al.seq)
            views = {"ALLIES": (al.view, al.legal), None: (spec.view, spec.legal)}
            a.stop(signal.SIGKILL)                                 # kill -9 the owner
            for w in (al, spec):                                   # relayed: 1012
                closed = await w.expect("__closed__", timeout=10)
                assert closed["type"] == "__closed__"
                assert w.closed is not None and w.closed.rcvd is not None
                assert w.closed.rcvd.code == 1012, w.closed.rcvd
    async with WS(url(b, gid, since=acked), toks["AXIS"]) as ax, \
            WS(url(b, gid, since=acked), toks["ALLIES"]) as al, \
            WS(url(b, gid, since=acked)) as spec:
        assert worker(b)["owned"] >= 1                             # B took the game
        assert (al.view, al.legal) == views["ALLIES"]
        assert (spec.view, spec.legal) == views[None]
        for w in (ax, al, spec):
            assert w.seq == acked                                  # no acked action lost
        await play({"AXIS": ax, "ALLIES": al}, bot, 10, (spec,))
        with httpx.Client(base_url=b.base, timeout=20) as api:
            assert api.get(f"/api/games/{gid}").json()["seq"] == spec.seq >= acked + 10


async def test_graceful_stops_close_relayed_sockets_1012(pair: tuple[Server, Server]) -> None:
    """SIGTERM of the relaying server, then of the owner: every socket gets 1012 (reconnect)
    and each process exits promptly."""
    for srv in pair:
        if srv.proc is None:
            srv.start()                 # killed by the previous test
    a, b = pair
    with httpx.Client(base_url=a.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=19)
    async with WS(url(a, gid), toks["AXIS"]):
        a, b = owner_first(a, b, gid)
        async with WS(url(a, gid)) as on_owner:
            al = WS(url(b, gid), toks["ALLIES"])
            await al.__aenter__()
            assert worker(b)["relayed"] >= 1
            b.stop()                                    # the relay stops: its client 1012
            closed = await al.expect("__closed__", timeout=10)
            assert closed["type"] == "__closed__" and al.closed.rcvd.code == 1012
            b.start()
            async with WS(url(b, gid, since=on_owner.seq), toks["ALLIES"]) as al2:
                assert worker(b)["relayed"] >= 1 and worker(a, gid)["owns"]
                a.stop()                                # the owner stops: both 1012
                for w in (on_owner, al2):
                    closed = await w.expect("__closed__", timeout=10)
                    assert closed["type"] == "__closed__" and w.closed.rcvd.code == 1012
            await al.close()


@pytest.fixture(scope="module")
def handoff_pair() -> Iterator[tuple[Server, Server]]:
    with two_servers(handoff=True) as servers:
        yield servers


async def test_same_machine_sockets_handed_to_the_owner(
        handoff_pair: tuple[Server, Server]) -> None:
    """Same machine (loopback addresses): a socket reaching the non-owner is handed over
    as a file descriptor (app/realtime/handoff.py) and served by the owner itself: no
    relay, the same stream on both sides, exactly-once actions; killing the owner drops
    the sockets and the survivor continues from the log with nothing acked lost."""
    a, b = handoff_pair
    for _ in range(50):
        if worker(a)["peers"] == worker(b)["peers"] == 2:
            break
        await asyncio.sleep(0.1)
    with httpx.Client(base_url=b.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=23)
    bot = RandomBot(5)
    async with WS(url(a, gid), toks["AXIS"]) as ax:
        a, b = owner_first(a, b, gid)                      # a: the owner
        async with WS(url(b, gid), toks["ALLIES"]) as al, WS(url(a, gid)) as spec_a, \
                WS(url(b, gid)) as spec_b:
            wa, wb = worker(a), worker(b)
            assert wb["handed_total"] >= 2 and wb["relayed"] == 0, wb
            assert wa["adopted_total"] >= 2 and wa["relayed"] == 0, wa
            assert al.seat == "ALLIES" and spec_b.seat is None
            await play({"AXIS": ax, "ALLIES": al}, bot, 25, (spec_a, spec_b))
            await spec_b.wait_seq(spec_a.seq)
            assert updates(spec_a) == updates(spec_b) and len(updates(spec_a)) >= 25
            for w in (ax, al, spec_a, spec_b):
                assert_no_foreign_hand(w)
            me = al if al.legal else ax
            async with WS(url(b, gid), toks[me.seat]) as twin:     # handed over too
                await twin.wait_seq(me.seq)
                seq = me.seq
                if len(me.legal) >= 2:
                    r1, r2 = await asyncio.gather(me.act(me.legal[0], seq),
                                                  twin.act(me.legal[1], seq))
                    assert sorted([r1["type"], r2["type"]]) == ["ack", "reject"], (r1, r2)
                    ack = r1 if r1["type"] == "ack" else r2
                    await spec_b.wait_seq(ack["seq"])
            acked = spec_a.seq
            assert worker(b)["loaded"] == 0                # the owner alone holds the game
            a.stop(signal.SIGKILL)                         # kill -9 the owner
            for w in (al, spec_b):                         # served by it: dropped
                closed = await w.expect("__closed__", timeout=10)
                assert closed["type"] == "__closed__"
    async with WS(url(b, gid, since=acked), toks["AXIS"]) as ax, \
            WS(url(b, gid, since=acked), toks["ALLIES"]) as al, \
            WS(url(b, gid, since=acked)) as spec:
        for w in (ax, al, spec):
            assert w.seq == acked                          # no acked action lost
        await play({"AXIS": ax, "ALLIES": al}, bot, 8, (spec,))
        with httpx.Client(base_url=b.base, timeout=20) as api:
            assert api.get(f"/api/games/{gid}").json()["seq"] == spec.seq >= acked + 8
