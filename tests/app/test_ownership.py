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
def two_servers() -> Iterator[tuple[Server, Server]]:
    """Two server processes on one fresh schema + Redis (two machines)."""
    with pg_schema() as pg_env:
        env = {**BASE_ENV, **pg_env, "DB_POOL_SIZE": "3"}
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
    with two_servers() as servers:  # relayed, as between machines
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
    for _ in range(50):  # each has heard of the other (within ~1 s)
        if worker(a)["peers"] == worker(b)["peers"] == 2:
            break
        await asyncio.sleep(0.1)
    assert worker(a)["peers"] == worker(b)["peers"] == 2
    with httpx.Client(base_url=b.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=13)  # created through B: no owner yet
    async with WS(url(a, gid), toks["AXIS"]) as ax:  # the first socket: placed
        a, b = owner_first(a, b, gid)  # a: the owner from here on
        async with (
            WS(url(b, gid), toks["ALLIES"]) as al,
            WS(url(a, gid)) as spec_a,
            WS(url(b, gid)) as spec_b,
        ):
            wa, wb = worker(a), worker(b)
            assert wb["relayed"] >= 2 and wa["relayed"] == 0  # (+1: the first, maybe)
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
                    r1, r2 = await asyncio.gather(
                        me.act(me.legal[0], seq), tab.act(me.legal[1], seq)
                    )
                    assert sorted([r1["type"], r2["type"]]) == ["ack", "reject"], (r1, r2)
                    ack = r1 if r1["type"] == "ack" else r2
                    await spec_b.wait_seq(ack["seq"])
            with httpx.Client(base_url=a.base, timeout=20) as api:
                assert api.get(f"/api/games/{gid}").json()["seq"] == spec_a.seq
            # only the owner keeps the game loaded (the other shed what it loaded for REST)
            assert worker(b)["owned"] == 0 and worker(b)["loaded"] == 0


async def test_owner_killed_relayed_sockets_1012_then_survivor_continues(
    pair: tuple[Server, Server],
) -> None:
    a, b = pair
    with httpx.Client(base_url=b.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=17)
    bot = RandomBot(8)
    async with WS(url(a, gid), toks["AXIS"]) as ax:
        a, b = owner_first(a, b, gid)  # a: the owner
        async with WS(url(b, gid), toks["ALLIES"]) as al, WS(url(b, gid)) as spec:
            await play({"AXIS": ax, "ALLIES": al}, bot, 20, (spec,))
            acked = max(ax.seq, al.seq)
            views = {"ALLIES": (al.view, al.legal), None: (spec.view, spec.legal)}
            a.stop(signal.SIGKILL)  # kill -9 the owner
            for w in (al, spec):  # relayed: 1012
                closed = await w.expect("__closed__", timeout=10)
                assert closed["type"] == "__closed__"
                assert w.closed is not None and w.closed.rcvd is not None
                assert w.closed.rcvd.code == 1012, w.closed.rcvd
    async with (
        WS(url(b, gid, since=acked), toks["AXIS"]) as ax,
        WS(url(b, gid, since=acked), toks["ALLIES"]) as al,
        WS(url(b, gid, since=acked)) as spec,
    ):
        assert worker(b)["owned"] >= 1  # B took the game
        assert (al.view, al.legal) == views["ALLIES"]
        assert (spec.view, spec.legal) == views[None]
        for w in (ax, al, spec):
            assert w.seq == acked  # no acked action lost
        await play({"AXIS": ax, "ALLIES": al}, bot, 10, (spec,))
        with httpx.Client(base_url=b.base, timeout=20) as api:
            assert api.get(f"/api/games/{gid}").json()["seq"] == spec.seq >= acked + 10


async def test_graceful_stops_close_relayed_sockets_1012(pair: tuple[Server, Server]) -> None:
    """SIGTERM of the relaying server, then of the owner: every socket gets 1012 (reconnect)
    and each process exits promptly."""
    for srv in pair:
        if srv.proc is None:
            srv.start()  # killed by the previous test
    a, b = pair
    with httpx.Client(base_url=a.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=19)
    async with WS(url(a, gid), toks["AXIS"]):
        a, b = owner_first(a, b, gid)
        async with WS(url(a, gid)) as on_owner:
            al = WS(url(b, gid), toks["ALLIES"])
            await al.__aenter__()
            assert worker(b)["relayed"] >= 1
            b.stop()  # the relay stops: its client 1012
            closed = await al.expect("__closed__", timeout=10)
            assert closed["type"] == "__closed__" and al.closed.rcvd.code == 1012
            b.start()
            async with WS(url(b, gid, since=on_owner.seq), toks["ALLIES"]) as al2:
                assert worker(b)["relayed"] >= 1 and worker(a, gid)["owns"]
                a.stop()  # the owner stops: both 1012
                for w in (on_owner, al2):
                    closed = await w.expect("__closed__", timeout=10)
                    assert closed["type"] == "__closed__" and w.closed.rcvd.code == 1012
            await al.close()


async def test_a_redis_key_naming_a_stranger_gets_no_credential() -> None:
    """Anyone who can write to Redis may point a game's owner key at a listener of his
    own (finding 5 of issue 34): the worker the socket reached checks the token itself,
    sends the stranger no token, cookie nor Authorization, waits for the owner's proof of
    the shared key (which the stranger cannot give), relays nothing and closes the
    client with 1012.  The internal listener of a worker serves the game websocket path
    only."""

    with two_servers() as (a, b):
        await _stranger_gets_nothing(a, b)


async def _stranger_gets_nothing(a: Server, b: Server) -> None:
    import redis.asyncio as aioredis
    import websockets

    from app.games.ownership import PREFIX, namespace

    with httpx.Client(base_url=a.base, timeout=20) as api:
        gid, toks = two_player_game(api, seed=29)
    seen: list[tuple[str, dict[str, str]]] = []
    frames: list[Any] = []

    async def stranger(conn: Any) -> None:
        seen.append((conn.request.path, dict(conn.request.headers)))
        async for m in conn:
            frames.append(m)

    env = a.env
    key = f"{PREFIX}{namespace(env['DATABASE_URL'], env['DATABASE_SCHEMA'])}:owner:{gid}"
    async with websockets.serve(stranger, "127.0.0.1", 0) as evil:
        port = evil.sockets[0].getsockname()[1]
        r = aioredis.from_url(env["REDIS_URL"])
        try:
            await r.set(key, f"127.0.0.1:{port}", px=60_000)
            token = toks["AXIS"]
            async with WS(url(b, gid), token) as ws:  # ends before any hello
                assert ws.ws.close_code == 1012, ws.messages
        finally:
            await r.delete(key)
            await r.aclose()
    for path, headers in seen:
        assert token not in path and token not in " ".join(headers.values())
        assert "cookie" not in headers and "authorization" not in headers
    assert frames == []
    internal = worker(a)["address"]
    r2 = httpx.get(f"http://{internal}/api/games", timeout=5)
    assert r2.status_code == 404
