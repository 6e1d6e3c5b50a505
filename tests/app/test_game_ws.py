"""Websocket play against a real uvicorn: a whole game, spectators, reconnects, restarts,
conflicting actions.  Choices come from the engine's random bot over the server's
``legal`` lists."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from engine import load_scenario, replay, view_for
from engine.bot import RandomBot

from tests.app.conftest import Server
from tests.app.helpers import WS, claim, create_game, hands, new_identity, two_player_game


def url(server: Server, gid: str, **q: Any) -> str:
    qs = "&".join(f"{k}={v}" for k, v in q.items())
    return f"{server.ws_base}/ws/games/{gid}" + (f"?{qs}" if qs else "")


async def play(
    players: dict[str, WS], bot: RandomBot, steps: int | None = None, watchers: tuple[WS, ...] = ()
) -> int:
    """Play until the game is over (or ``steps`` actions); returns the actions played."""
    n = 0
    while steps is None or n < steps:
        lead = max(players.values(), key=lambda w: w.seq)
        if lead.view["game_over"]:
            break
        seat = lead.view["to_act"][0]
        me = players[seat]
        await me.wait_seq(lead.seq)
        assert me.legal, (seat, lead.view["phase"])
        r = await me.act(bot.rng.choice(me.legal))
        assert r["type"] == "ack", r
        for w in (*players.values(), *watchers):
            await w.wait_seq(r["seq"])
        n += 1
    return n


def assert_no_foreign_hand(ws: WS) -> None:
    for msg in ws.messages:
        for path in hands(msg):
            assert ws.seat is not None, f"spectator saw a hand at {path}"
            side = ws.seat.split(":")[0]
            assert path.endswith(f".sides.{side}.hand"), f"{ws.seat} saw {path}"


async def test_whole_game_with_spectator(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api, seed=11)
    step_cap = None if server.kind == "sqlite" else 150  # type: ignore[attr-defined]
    async with (
        WS(url(server, gid), toks["AXIS"]) as ax,
        WS(url(server, gid), toks["ALLIES"]) as al,
        WS(url(server, gid)) as spec,
    ):
        assert (ax.seat, al.seat, spec.seat) == ("AXIS", "ALLIES", None)
        hello = spec.messages[0]
        assert hello["board"]["name"] and hello["legal"] == [] and hello["seq"] == 0
        assert "hand" in ax.messages[0]["view"]["sides"]["AXIS"]
        n = await play({"AXIS": ax, "ALLIES": al}, RandomBot(5), step_cap, (spec,))
        final = al.seq
        await spec.wait_seq(final)
        # the spectator received every update, contiguous, and never a hand
        seqs = [(m["first_seq"], m["seq"]) for m in spec.messages if m["type"] == "update"]
        assert seqs and seqs[0][0] == 1 and seqs[-1][1] == final
        assert all(b[0] == a[1] + 1 for a, b in zip(seqs, seqs[1:]))
        assert len(seqs) == n
        assert any(e["type"] for m in spec.messages if m["type"] == "update" for e in m["events"])
        for w in (ax, al, spec):
            assert_no_foreign_hand(w)
        summary = api.get(f"/api/games/{gid}").json()
        assert summary["seq"] == final
        if step_cap is None:
            assert spec.view["game_over"] and spec.view["winner"] in ("AXIS", "ALLIES")
            assert summary["status"] == "finished" and summary["winner"] == spec.view["winner"]
            log = api.get(f"/api/games/{gid}/log").json()
            assert [a["seq"] for a in log["actions"]] == list(range(1, final + 1))
            assert any(a["seat"] == "chance" for a in log["actions"])
            st = replay(
                load_scenario(log["scenario"]),
                log["rng_seed"],
                [a["action"] for a in log["actions"]],
                log["options"],
            )
            assert json.loads(json.dumps(view_for(st, None))) == spec.view
            r = await al.act({"type": "end_turn"})
            assert r["type"] == "reject" and r["code"] == "game_over"


def live_events(ws: WS, since: int) -> list[dict[str, Any]]:
    """The events a connection received live in the updates after ``since``, in order."""
    updates = [m for m in ws.messages if m["type"] == "update" and m["first_seq"] > since]
    assert all(b["first_seq"] == a["seq"] + 1 for a, b in zip(updates, updates[1:]))
    return [e for m in updates for e in m["events"]]


def logged_events(
    api: httpx.Client, gid: str, since: int, token: str | None
) -> list[dict[str, Any]]:
    """``GET /api/games/{id}/events?since=`` for that token's seats, flattened in seq order."""
    r = api.get(
        f"/api/games/{gid}/events?since={since}",
        headers={"Authorization": f"Bearer {token}"} if token else {},
    )
    assert r.status_code == 200, r.text
    entries = r.json()["entries"]
    assert [x["seq"] for x in entries] == list(range(since + 1, since + 1 + len(entries)))
    return [e for x in entries for e in x["events"]]


async def test_reconnect_with_stale_seq_catches_up(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api, seed=3)
    bot = RandomBot(9)
    async with (
        WS(url(server, gid), toks["AXIS"]) as ax,
        WS(url(server, gid), toks["ALLIES"]) as al,
        WS(url(server, gid)) as watcher,
    ):
        players = {"AXIS": ax, "ALLIES": al}
        await play(players, bot, 5, (watcher,))
        async with WS(url(server, gid)) as late:
            s0 = late.seq
        await play(players, bot, 12, (watcher,))
        # a spectator back with since=s0 gets hello + one update with everything it missed,
        # whichever worker it lands on (one that does not hold the batches after s0 rebuilds
        # them from the log)
        for _ in range(4 if server.workers > 1 else 1):  # pg: both workers, likely
            async with WS(url(server, gid, since=s0)) as back:
                upd = await back.expect("update", "sync")
                assert upd["type"] == "update", upd["type"]
                assert upd["first_seq"] == s0 + 1 and upd["seq"] == watcher.seq == back.seq
                assert (
                    upd["events"] == live_events(watcher, s0) == logged_events(api, gid, s0, None)
                )
                assert upd["view"] == watcher.view
                assert not list(hands(upd))
        # a player reconnecting (second tab) with since, and an explicit resync message
        async with WS(url(server, gid, since=s0), toks["AXIS"]) as ax2:
            upd = await ax2.expect("update", "sync")
            assert upd["type"] == "update" and upd["first_seq"] == s0 + 1
            assert upd["seq"] == ax.seq and upd["view"] == ax.view and upd["legal"] == ax.legal
            assert upd["events"] == live_events(ax, s0) == logged_events(api, gid, s0, toks["AXIS"])
            await ax2.send({"type": "resync", "since": s0 + 2})
            again = await ax2.expect("update", "sync")
            assert again["type"] == "update" and again["first_seq"] == s0 + 3
            assert again["seq"] == ax.seq and again["events"] == live_events(ax, s0 + 2)
            await ax2.send({"type": "resync"})
            assert (await ax2.expect("sync"))["view"] == ax.view


def assert_own_secrets_only(events: list[dict[str, Any]], seats: list[str]) -> None:
    """Every ``secret`` kept is one of these seats' (a spectator: none), and the stream does
    carry redacted events of other seats (so the check is not empty)."""
    for e in events:
        if "secret" in e:
            assert set(e["secret_to"]) & set(seats), (seats, e)
    assert any("secret_to" in e and not set(e["secret_to"]) & set(seats) for e in events)


def sides_game(api: httpx.Client, mode: str) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    """A live game, one identity per side: ``1v1``, or ``team`` with layout 1 (one
    identity plays its side's four role seats over one websocket).  Returns (game id,
    {side: token}, {side: its seats})."""
    if mode == "1v1":
        gid, toks = two_player_game(api, seed=17)
        return gid, toks, {"AXIS": ["AXIS"], "ALLIES": ["ALLIES"]}
    toks = {"AXIS": new_identity(api, "Axis team"), "ALLIES": new_identity(api, "Allied team")}
    g = create_game(
        api,
        toks["AXIS"],
        seed=17,
        mode="team",
        seat="AXIS:cinc",
        layout={"AXIS": "1", "ALLIES": "1"},
    )
    assert claim(api, toks["ALLIES"], g["id"], "ALLIES:cinc").status_code == 200
    seats = {side: [s["seat"] for s in g["seats"] if s["side"] == side] for side in toks}
    assert len(seats["AXIS"]) == 4
    return g["id"], toks, seats


@pytest.mark.parametrize("mode", ["1v1", "team"])
async def test_reconnect_on_a_worker_without_the_batches(
    server: Server, api: httpx.Client, mode: str
) -> None:
    """After a restart no worker holds the batches after ``since``: every reconnect with
    ``since`` gets exactly the events it missed (what it was sent live, what ``GET
    /api/games/{id}/events`` gives that seat), redacted per seat (team: for the four role
    seats the identity plays), as one ``update``; the live updates that follow continue it
    without a gap.  A ``since`` beyond the game's seq is the protocol's ``invalid_since``."""
    gid, toks, seats_of = sides_game(api, mode)
    bot = RandomBot(17)
    async with (
        WS(url(server, gid), toks["AXIS"]) as ax,
        WS(url(server, gid), toks["ALLIES"]) as al,
        WS(url(server, gid)) as spec,
    ):
        players = {s: w for w, side in ((ax, "AXIS"), (al, "ALLIES")) for s in seats_of[side]}
        await play(players, bot, 4, (spec,))
        s0 = spec.seq
        await play(players, bot, 14, (spec,))
        final = spec.seq
        live = {
            who: (
                live_events(w, s0),
                w.view,
                w.legal,
                [m for m in w.messages if m["type"] == "update"][-1].get("views"),
            )
            for who, w in (("AXIS", ax), ("ALLIES", al), (None, spec))
        }
        await asyncio.to_thread(server.restart)
        await spec.expect("__closed__", timeout=10)
    assert live["AXIS"][0] != live["ALLIES"][0]  # the hands' draws differ per seat
    async with (
        WS(url(server, gid, since=s0), toks["AXIS"]) as ax,
        WS(url(server, gid, since=s0), toks["ALLIES"]) as al,
        WS(url(server, gid, since=s0)) as spec,
    ):
        for who, w, tok in (
            ("AXIS", ax, toks["AXIS"]),
            ("ALLIES", al, toks["ALLIES"]),
            (None, spec, None),
        ):
            upd = await w.expect("update", "sync")
            assert upd["type"] == "update", (w.seat, upd["type"])
            assert (upd["first_seq"], upd["seq"]) == (s0 + 1, final)
            events, view, legal, views = live[who]
            assert upd["events"] == events == logged_events(api, gid, s0, tok)
            assert (upd["view"], upd["legal"], upd.get("views")) == (view, legal, views)
            assert (views is not None) == (mode == "team" and who is not None)
            assert_own_secrets_only(upd["events"], seats_of[who] if who else [])
            assert_no_foreign_hand(w)
        players = {s: w for w, side in ((ax, "AXIS"), (al, "ALLIES")) for s in seats_of[side]}
        await play(players, bot, 3, (spec,))
        for w in (ax, al, spec):
            after = [m for m in w.messages if m["type"] == "update"]
            assert after[0]["seq"] == final
            assert all(b["first_seq"] == a["seq"] + 1 for a, b in zip(after, after[1:]))
        now = spec.seq
        # since beyond the game's seq: hello, then the protocol's error (and nothing missed)
        async with WS(url(server, gid, since=now + 5), toks["AXIS"]) as ahead:
            err = await ahead.expect("error", "update", "sync")
            assert err["type"] == "error" and err["code"] == "invalid_since"
            assert err["details"] == {"since": now + 5, "seq": now}
            assert ahead.seq == now
            await ahead.send({"type": "resync", "since": now + 1})
            err = await ahead.expect("error", "update", "sync")
            assert err["type"] == "error" and err["code"] == "invalid_since"
            assert (await ahead.expect("update", "sync"))["type"] == "sync"
            await ahead.send({"type": "resync", "since": -1})
            assert (await ahead.expect("error", "update", "sync"))["code"] == "invalid_since"


async def test_restart_mid_game_loses_nothing(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api, seed=21)
    bot = RandomBot(21)
    async with (
        WS(url(server, gid), toks["AXIS"]) as ax,
        WS(url(server, gid), toks["ALLIES"]) as al,
        WS(url(server, gid)) as spec,
    ):
        await play({"AXIS": ax, "ALLIES": al}, bot, 40, (spec,))  # crosses a snapshot (every 25)
        seq, views = spec.seq, {w.seat: (w.view, w.legal) for w in (ax, al, spec)}
        await asyncio.to_thread(server.restart)  # kill -9, then start again
        closed = await spec.expect("__closed__", timeout=10)
        assert closed["type"] == "__closed__"
    async with (
        WS(url(server, gid, since=seq), toks["AXIS"]) as ax,
        WS(url(server, gid, since=seq), toks["ALLIES"]) as al,
        WS(url(server, gid)) as spec,
    ):
        for w in (ax, al, spec):
            assert w.seq == seq
            assert (w.view, w.legal) == views[w.seat]
        await play({"AXIS": ax, "ALLIES": al}, bot, 30, (spec,))
        assert api.get(f"/api/games/{gid}").json()["seq"] == spec.seq > seq


async def test_conflicting_actions_exactly_one_applied(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api, seed=5)
    bot = RandomBot(2)
    async with (
        WS(url(server, gid), toks["AXIS"]) as ax,
        WS(url(server, gid), toks["ALLIES"]) as al,
        WS(url(server, gid)) as spec,
    ):
        players = {"AXIS": ax, "ALLIES": al}
        rounds = 0
        while rounds < 6:
            seat = al.view["to_act"][0] if al.seq >= ax.seq else ax.view["to_act"][0]
            tab1 = players[seat]
            if len(tab1.legal) < 2:
                await play(players, bot, 1, (spec,))
                continue
            async with WS(url(server, gid), toks[seat]) as tab2:
                seq = tab1.seq
                assert tab2.seq == seq
                a, b = tab1.legal[0], tab1.legal[1]
                r1, r2 = await asyncio.gather(tab1.act(a, seq), tab2.act(b, seq))
                kinds = sorted([r1["type"], r2["type"]])
                assert kinds == ["ack", "reject"], (r1, r2)
                rej = r1 if r1["type"] == "reject" else r2
                ack = r2 if rej is r1 else r1
                assert rej["code"] == "stale_seq"
                await spec.wait_seq(ack["seq"])
                assert api.get(f"/api/games/{gid}").json()["seq"] == ack["seq"]
                loser = tab1 if rej is r1 else tab2
                await loser.wait_seq(ack["seq"])  # the loser is resynced
            for w in players.values():
                await w.wait_seq(ack["seq"])
            rounds += 1
        updates = [m for m in spec.messages if m["type"] == "update"]
        assert all(b["first_seq"] == a["seq"] + 1 for a, b in zip(updates, updates[1:]))


async def test_server_bots_finish_a_game(server: Server, api: httpx.Client) -> None:
    if server.kind != "sqlite":  # type: ignore[attr-defined]
        return  # the whole-game check runs once; the PG run plays with humans above
    tok = new_identity(api, "Bot owner")
    g = api.post(
        "/api/games",
        json={"scenario_id": "2-PegasusBridge", "seed": 4},
        headers={"Authorization": f"Bearer {tok}"},
    ).json()
    async with WS(url(server, g["id"])) as spec:
        for seat in ("AXIS", "ALLIES"):
            r = api.post(
                f"/api/games/{g['id']}/seats/{seat}/bot", headers={"Authorization": f"Bearer {tok}"}
            )
            assert r.status_code == 200, r.text
        for _ in range(600):
            if spec.view.get("game_over"):
                break
            await asyncio.sleep(0.1)
        assert spec.view["game_over"], spec.seq
        assert not list(hands({"m": spec.messages}))
    assert api.get(f"/api/games/{g['id']}").json()["status"] == "finished"


async def test_dead_client_never_delays_the_others(server: Server, api: httpx.Client) -> None:
    """A spectator that completes the handshake and then never reads a byte."""
    import base64
    import os
    import socket
    import time

    gid, toks = two_player_game(api, seed=13)
    dead = socket.socket()
    dead.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    dead.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    dead.sendall(
        (
            f"GET /ws/games/{gid} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    try:
        async with (
            WS(url(server, gid), toks["AXIS"]) as ax,
            WS(url(server, gid), toks["ALLIES"]) as al,
        ):
            t0 = time.monotonic()
            n = await play({"AXIS": ax, "ALLIES": al}, RandomBot(1), 150)
            assert n == 150 and time.monotonic() - t0 < 60
    finally:
        dead.close()
    async with WS(url(server, gid)) as spec:  # the server is fine
        assert spec.seq == al.seq


async def test_overlord_eight_seats(server: Server, api: httpx.Client) -> None:
    """An Overlord game: eight role seats from the engine, each claimed by its own identity;
    every seat and a spectator follow the game, nobody sees the other side's hand."""
    toks = [new_identity(api, f"General {i}") for i in range(8)]
    r = api.post(
        "/api/games",
        json={"scenario_id": "13-OmahaBeachOverlord", "mode": "overlord", "seed": 2},
        headers={"Authorization": f"Bearer {toks[0]}"},
    )
    assert r.status_code == 201, r.text
    g = r.json()
    seats = [s["seat"] for s in g["seats"]]
    assert len(seats) == 8 and "ALLIES:cinc" in seats
    assert {(s["side"], s["role"]) for s in g["seats"]} >= {("ALLIES", "cinc"), ("AXIS", "left")}
    for tok, seat in zip(toks, seats):
        assert (
            api.post(
                f"/api/games/{g['id']}/seats/{seat}/claim",
                headers={"Authorization": f"Bearer {tok}"},
            ).status_code
            == 200
        )
    conns = {seat: WS(url(server, g["id"]), tok) for tok, seat in zip(toks, seats)}
    for c in conns.values():
        await c.__aenter__()
    try:
        async with WS(url(server, g["id"])) as spec:
            assert all(c.seat == s for s, c in conns.items())
            await play(conns, RandomBot(3), 40, (spec,))
            for w in (*conns.values(), spec):
                assert_no_foreign_hand(w)
            # ``chat_channels`` come with a full view and with an update whose channels
            # changed: what each client kept is what a fresh sync says now
            updates = [m for c in conns.values() for m in c.messages if m["type"] == "update"]
            assert any("chat_channels" not in m for m in updates)
            for c in conns.values():
                kept = next(
                    m["chat_channels"] for m in reversed(c.messages) if "chat_channels" in m
                )
                await c.send({"type": "resync"})
                assert (await c.expect("sync"))["chat_channels"] == kept
            cinc = conns["ALLIES:cinc"].messages[0]["chat_channels"]
            assert "side:ALLIES" not in cinc["write"] and "pair:ALLIES:left" in cinc["read"]
            fg = conns["ALLIES:left"].messages[0]["chat_channels"]
            assert "side:ALLIES" in fg["write"] and "pair:ALLIES:right" not in fg["read"]
    finally:
        for c in conns.values():
            await c.close()
    assert api.get("/api/games/" + g["id"]).json()["mode"] == "overlord"
    r = api.post(
        "/api/games",
        json={"scenario_id": "13-OmahaBeachOverlord", "mode": "team"},
        headers={"Authorization": f"Bearer {toks[0]}"},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "unknown_mode"


async def test_lost_bus_message_never_stalls(server: Server, api: httpx.Client) -> None:
    """An accepted batch whose bus message is lost (here: written to the log without any
    publish, the worst case: no later batch reveals the gap) still reaches every connection
    on every worker: each worker's reconciler finds its cached game behind ``games.seq``
    and catches up from the log."""
    from sqlalchemy.ext.asyncio import async_sessionmaker

    from app.db import make_engine
    from app.games import repository
    from app.games.runtime import game_fields, load_runtime, settle_chance

    if server.kind != "pg":  # type: ignore[attr-defined]
        pytest.skip("one worker, in-process fan-out: no bus to lose a message")
    gid, tokens = two_player_game(api, seed=31)
    url = f"{server.ws_base}/ws/games/{gid}"
    clients = [WS(url, tokens["AXIS"]), WS(url, tokens["ALLIES"]), *(WS(url) for _ in range(4))]
    for c in clients:  # several connections: both workers of the pg server
        await c.__aenter__()
    try:
        eng = make_engine(server.env["DATABASE_URL"], server.env.get("DATABASE_SCHEMA") or None)
        try:
            async with async_sessionmaker(eng, expire_on_commit=False)() as s:
                rt = await load_runtime(s, gid)
                seat = rt.rs.to_act(rt.state)[0]
                action = {**rt.rs.legal_actions(rt.state, seat)[0], "seat": seat}
                state, _ = rt.rs.apply(rt.state, action)
                state, rolls, _ = settle_chance(rt.rs, state)
                entries = [(seat, action), *rolls]
                fields = game_fields(rt.rs, state, list(rt.seats.values()))
            async with eng.begin() as conn:  # written behind the workers' backs
                await conn.run_sync(repository.append, gid, rt.seq, entries, fields)
            new = rt.seq + len(entries)
        finally:
            await eng.dispose()
        for c in clients:
            await c.wait_seq(new, timeout=15)
    finally:
        for c in clients:
            await c.close()
