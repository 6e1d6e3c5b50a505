"""Hostile inputs (issue 9): every one answers a 4xx or a coded websocket error on SQLite
and PostgreSQL alike (never a 500, never a silent close); same-origin only; uploads are
a bounded resource; revocable sessions; private games; bounded catch-up."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from app.realtime.connection import MAX_DROPS

from .conftest import ROOT, Server, backend
from .helpers import WS, SCENARIO, auth, claim, create_game, new_identity, two_player_game
from .test_game_ws import url

PEGASUS = (ROOT / "scenarios" / f"{SCENARIO}.m44").read_text("utf-8")


def err(r: httpx.Response) -> str:
    assert r.status_code < 500, r.text
    return str(r.json()["error"]["code"])


def variant(name: str) -> bytes:
    data = json.loads(PEGASUS)
    data["text"] = {"en": {"name": name}}
    return json.dumps(data).encode()


def client(srv: Server) -> httpx.Client:
    """One keep-alive connection; cookies set by responses are dropped (tokens are sent
    as bearer headers, as API clients do)."""
    c = httpx.Client(base_url=srv.base, timeout=20)
    c.event_hooks["response"] = [lambda r: c.cookies.clear()]
    return c


def upload(api: httpx.Client, tok: str | None, raw: bytes) -> httpx.Response:
    return api.post(
        "/api/scenarios", files={"file": ("x.m44", raw)}, headers=auth(tok) if tok else {}
    )


def deep(n: int) -> str:
    return "[" * n + "]" * n


# -- HTTP ------------------------------------------------------------------------------


def test_http_hostile_inputs_are_4xx(server: Server) -> None:
    with client(server) as api:
        tok = new_identity(api, "fuzzer")
        for body in ('{"name": "a\\u0000b"}', '{"name": "a\\udfffb"}', '{"name": "\\ud800"}'):
            r = api.post(
                "/api/identity", content=body, headers={"content-type": "application/json"}
            )
            assert r.status_code == 400 and err(r) == "invalid_text", r.text
        r = api.post(
            "/api/identity",
            content=b'{"name": "a\x00b"}',
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 400 and err(r) == "invalid_text"
        r = api.post(
            "/api/identity",
            content=b'{"name": "\xff\xfe"}',
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 400 and err(r) == "invalid_text"
        r = api.post("/api/identity", json={"name": "a\x07b"})
        assert r.status_code == 422 and err(r) == "validation_error"
        r = api.post("/api/identity", json={"name": "x" * 300})
        assert r.status_code == 422
        r = api.post(
            "/api/games",
            content='{"scenario_id": ' + deep(980) + "}",
            headers={**auth(tok), "content-type": "application/json"},
        )
        assert r.status_code == 400 and err(r) == "json_too_deep"
        assert r.json()["error"]["details"]["limit"] == 32
        r = api.post(
            "/api/games",
            content=b"{" + b" " * 70_000 + b"}",
            headers={**auth(tok), "content-type": "application/json"},
        )
        assert r.status_code == 413 and err(r) == "body_too_large"
        r = api.post("/api/games", json={"scenario_id": "x" * 5000}, headers=auth(tok))
        assert err(r) == "scenario_not_found"
        r = api.post(
            "/api/games", json={"scenario_id": SCENARIO, "seed": 10**30}, headers=auth(tok)
        )
        assert r.status_code == 422
        for path in (
            "/api/games/a%00b",
            "/api/games/%00/events",
            "/api/scenarios/a%00",
            "/api/games?status=open%00",
        ):
            r = api.get(path)
            assert r.status_code == 400 and err(r) == "invalid_text", (path, r.text)
        assert err(api.get("/api/games/" + "g" * 3000)) == "game_not_found"
        assert err(api.get("/api/games/\u00e9\u4e2d")) == "game_not_found"
        gid, _ = two_player_game(api)
        r = api.get(f"/api/games/{gid}/events?since={10**20}")
        assert r.status_code == 422
        r = api.post(
            f"/api/games/{gid}/seats/ALLIES/claim",
            json={"invite": "\u00e9t\u00e9"},
            headers=auth(tok),
        )
        assert err(r) in ("seat_taken", "invite_required")
        # uploads: nesting, NUL, names, labels, off-board hexes
        r = upload(api, tok, ('{"board": ' + deep(2000) + "}").encode())
        assert r.status_code == 422 and err(r) == "json_too_deep"
        data = json.loads(PEGASUS)
        data["text"] = {"en": {"name": "a\u0000b"}}
        r = upload(api, tok, json.dumps(data).encode())
        assert r.status_code == 422 and err(r) == "invalid_text"
        data["text"] = {"en": {"name": "N" * 250 + "\u202e\x07"}}
        r = upload(api, tok, json.dumps(data).encode())
        assert r.status_code == 201, r.text
        assert r.json()["name"] == "N" * 120
        g = create_game(api, tok, scenario_id=r.json()["id"])
        assert g["scenario_name"] == "N" * 120
        data = json.loads(PEGASUS)
        data["board"]["hexagons"].append({"row": 10**9, "col": 3})
        data["board"]["hexagons"].append({"row": 2, "col": 99})
        r = upload(api, tok, json.dumps(data).encode())
        assert r.status_code == 422 and err(r) == "hex_off_board"
        assert r.json()["error"]["details"]["hexes"] == [[10**9, 3], [2, 99]]
        assert "row 1000000000" in r.json()["error"]["message"]
        data = json.loads(PEGASUS)
        data["board"]["labels"] = [{"row": 0, "col": 0, "text": ["x" * 500]}]
        r = upload(api, tok, json.dumps(data).encode())
        assert r.status_code == 422 and err(r) == "label_too_long"
        assert api.get("/healthz").status_code == 200


# -- same origin -------------------------------------------------------------------------


def test_origin_and_csrf_on_posts(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api)
    evil = {"origin": f"http://127.0.0.1:{server.port + 1}"}
    cookie = {"cookie": f"overlord_token={toks['ALLIES']}"}
    leave = f"/api/games/{gid}/seats/ALLIES/leave"
    r = api.post(leave, headers={**cookie, **evil})
    assert r.status_code == 403 and err(r) == "origin_forbidden"
    r = api.post(leave, headers={**cookie, "referer": "http://evil.example/x"})
    assert r.status_code == 403 and err(r) == "origin_forbidden"
    r = api.post(leave, headers={**cookie, "origin": "null"})
    assert r.status_code == 403 and err(r) == "origin_forbidden"
    r = api.post(leave, headers={**cookie, "sec-fetch-site": "same-site"})  # Origin stripped
    assert r.status_code == 403 and err(r) == "csrf_failed"
    r = api.post("/api/identity", json={"name": "x"}, headers=evil)  # login CSRF
    assert r.status_code == 403 and err(r) == "origin_forbidden"
    assert api.get(f"/api/games/{gid}").json()["seats"][1]["taken"]
    r = api.post(leave, headers={**cookie, "origin": server.base})  # same origin: fine
    assert r.status_code == 200, r.text


async def test_websocket_refuses_other_origins(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api)
    target = url(server, gid, token=toks["ALLIES"])
    async with websockets.connect(target, origin=f"http://127.0.0.1:{server.port + 1}") as ws:
        msg = json.loads(await ws.recv())
        assert msg["type"] == "error" and msg["code"] == "origin_forbidden"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd.code == 4403
    async with websockets.connect(target, origin=server.base) as ws:
        assert json.loads(await ws.recv())["type"] == "hello"


# -- websocket -----------------------------------------------------------------------------


async def test_websocket_hostile_messages_get_codes(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api, seed=11)
    async with WS(url(server, gid), toks["ALLIES"]) as al:

        async def code_of(payload: Any) -> dict[str, Any]:
            await al.send(payload)
            msg = await al.expect("error", "pong")
            assert msg["type"] == "error", msg
            return msg

        assert (await code_of('{"type":"ping","x":' + deep(980) + "}"))["code"] == "json_too_deep"
        assert (await code_of(deep(5000)))["code"] == "json_too_deep"
        assert (await code_of('{"type":"ping","id":"\\udfff"}'))["code"] == "invalid_text"
        assert (await code_of('{"type":"chat","channel":"all","text":"a\\u0000b"}'))[
            "code"
        ] == "invalid_text"
        assert (await code_of({"type": "ping", "id": {"deep": [1]}}))["code"] == "bad_message"
        assert (await code_of({"type": "action", "seq": 10**40, "action": {"type": "x"}}))[
            "code"
        ] == "bad_message"
        assert (await code_of({"type": "resync", "since": -(10**40)}))["code"] == "bad_message"
        assert (await code_of({"type": "auth", "token": "t" * 10_000}))["code"] == "bad_message"
        m = await code_of({"type": "dance", "id": "d1"})
        assert m["code"] == "unknown_type" and m["id"] == "d1"
        await al.send({"type": "ping", "id": "still-open"})
        assert (await al.expect("pong"))["id"] == "still-open"
    for q in ("since=abc", "since=99999999999999999999999"):
        async with WS(url(server, gid) + "?" + q) as spec:
            assert (await spec.expect("error"))["code"] == "bad_message"
    # unknown / hostile game ids: coded error then close 4404 or 4400, never silent
    for gid_bad, code, close in (
        ("nope", "game_not_found", 4404),
        ("x" * 300, "game_not_found", 4404),
        ("a%00b", "invalid_text", 4400),
    ):
        async with websockets.connect(f"{server.ws_base}/ws/games/{gid_bad}") as ws:
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["code"] == code, msg
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == close


def test_socket_rate_limit_drops_then_closes_abuse(tmp_path: Path) -> None:
    """A socket over its rate (here 10 messages/s, bursts of 20): what is over it is dropped
    with a ``rate_limited`` notice naming a dropped message; once the bucket refills the
    socket is served again; ``MAX_DROPS`` dropped messages close it with 4429."""
    with (
        backend("sqlite", tmp_path, {"RATE_LIMITS": "socket=10/second"}) as srv,
        client(srv) as api,
    ):
        gid, toks = two_player_game(api, seed=12)

        async def flood(ws: WS, n: int) -> None:
            with contextlib.suppress(websockets.ConnectionClosed):  # closed for abuse
                for i in range(n):
                    await ws.ws.send(json.dumps({"type": "ping", "id": f"p{i}"}))

        async def run() -> None:
            async with WS(url(srv, gid), toks["AXIS"]) as ax:
                await flood(ax, 60)  # 40 over the burst: dropped unless 4 s pass
                note = await ax.expect("error")
                assert note["code"] == "rate_limited", note
                assert isinstance(note["id"], str) and note["id"].startswith("p")
                assert note["details"]["dropped"] >= 1
                await asyncio.sleep(2.5)  # the bucket refills: served again
                await ax.send({"type": "ping", "id": "sync"})
                while (await ax.expect("pong"))["id"] != "sync":
                    pass
                await flood(ax, MAX_DROPS + 100)
                closed = await ax.expect("__closed__", timeout=20)
                assert closed["code"] == 4429, closed

        asyncio.run(run())


# -- sessions and private games ---------------------------------------------------------


async def test_logout_revokes_and_sessions_list(server: Server, api: httpx.Client) -> None:
    tok = new_identity(api, "Leaver")
    other = api.post("/api/identity", json={"name": "Leaver"}).json()["token"]
    gid = create_game(api, other)["id"]
    async with websockets.connect(url(server, gid, token=tok)) as ws:  # live: a hello
        assert json.loads(await ws.recv())["type"] == "hello"
    sessions = api.get("/api/identity/sessions", headers=auth(tok)).json()
    assert len(sessions) == 1 and sessions[0]["current"]
    assert api.post("/api/identity/logout", headers=auth(tok)).status_code == 204
    r = api.get("/api/identity/me", headers=auth(tok))
    assert r.status_code == 401 and err(r) == "unauthenticated"
    # the websocket reads the token on the event loop's own SQLite connection: the
    # logout's commit is seen at once there too
    async with websockets.connect(url(server, gid, token=tok)) as ws:
        assert json.loads(await ws.recv())["code"] == "invalid_token"
        with pytest.raises(websockets.ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 4401
    assert api.get("/api/identity/me", headers=auth(other)).status_code == 200
    sid = api.get("/api/identity/sessions", headers=auth(other)).json()[0]["id"]
    r = api.delete(f"/api/identity/sessions/{sid}x", headers=auth(other))
    assert r.status_code == 404 and err(r) == "session_not_found"
    assert api.delete(f"/api/identity/sessions/{sid}", headers=auth(other)).status_code == 204
    assert api.get("/api/identity/me", headers=auth(other)).status_code == 401


async def test_private_games_hidden_and_need_the_invite(server: Server, api: httpx.Client) -> None:
    owner, stranger = new_identity(api, "Owner"), new_identity(api, "Stranger")
    g = create_game(api, owner, private=True, seat="AXIS")
    gid, invite = g["id"], g["invite"]
    assert gid not in {x["id"] for x in api.get("/api/games").json()}
    assert gid not in {x["id"] for x in api.get("/api/games", headers=auth(stranger)).json()}
    assert gid in {x["id"] for x in api.get("/api/games", headers=auth(owner)).json()}
    assert err(api.get(f"/api/games/{gid}")) == "invite_required"
    assert err(api.get(f"/api/games/{gid}/events")) == "invite_required"
    assert err(api.get(f"/api/games/{gid}/chat")) == "invite_required"
    assert api.get(f"/api/games/{gid}?invite={invite}").status_code == 200
    assert api.get(f"/api/games/{gid}/events?invite={invite}").status_code == 200
    async with websockets.connect(url(server, gid, token=stranger)) as ws:
        msg = json.loads(await ws.recv())
        assert msg["code"] == "invite_required"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd.code == 4403
    async with WS(url(server, gid, invite=invite)) as spec:
        assert spec.seat is None
    async with WS(url(server, gid), owner) as mine:
        assert mine.seat == "AXIS"
    assert claim(api, stranger, gid, "ALLIES", invite).status_code == 200
    async with WS(url(server, gid), stranger) as now_player:
        assert now_player.seat == "ALLIES"


# -- uploads as a resource and bounded catch-up (own servers with lower limits) ----------


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with backend(
        "sqlite",
        tmp_path_factory.mktemp("limited"),
        {
            "RATE_LIMITS": "upload=5/minute",
            "TEST_CONSTANTS": "app.scenarios.quota.UPLOAD_QUOTA=3,"
            "app.realtime.hub.CATCHUP_MAX_ENTRIES=40,app.games.service.EVENTS_PAGE=15,"
            "app.games.play.SNAPSHOT_EVERY=10",
            "BOT_MAX_SEQ": "90",
        },
    ) as srv:
        yield srv


def test_upload_rate_and_quota(limited: Server) -> None:
    with client(limited) as api:
        a = new_identity(api, "Uploader")
        assert [upload(api, a, variant(f"v{i}")).status_code for i in range(3)] == [201] * 3
        r = upload(api, a, variant("v3"))
        assert r.status_code == 403 and err(r) == "upload_quota_exceeded"
        assert r.json()["error"]["details"] == {"quota": 3, "uploaded": 3}
        assert upload(api, a, variant("v0")).status_code == 201  # the same file again
        upload(api, a, variant("v4"))
        r = upload(api, a, variant("v5"))
        assert r.status_code == 429 and err(r) == "rate_limited"
        assert r.json()["error"]["details"]["retry_after"] >= 1
        page = api.get("/api/scenarios", params={"limit": 5})
        assert (
            int(page.headers["x-total-count"]) == len(list((ROOT / "scenarios").glob("*.m44"))) + 3
        )
        assert len(page.json()) == 5
        rest = api.get("/api/scenarios", params={"offset": 5, "limit": 200}).json()
        ids = [s["id"] for s in page.json() + rest]
        assert len(ids) == len(set(ids)) == int(page.headers["x-total-count"])
        assert {s["name"] for s in rest if s["source"] == "uploaded"} <= {"v0", "v1", "v2"}


async def test_catch_up_is_bounded(limited: Server) -> None:
    with client(limited) as api:
        tok = new_identity(api, "Watcher")
        r = api.post(
            "/api/games",
            json={"scenario_id": SCENARIO, "mode": "1v1", "seed": 3, "bots": ["AXIS", "ALLIES"]},
            headers=auth(tok),
        )
        gid = r.json()["id"]
        deadline = time.monotonic() + 60
        while api.get(f"/api/games/{gid}").json()["seq"] < 90 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        seq = api.get(f"/api/games/{gid}").json()["seq"]
        assert seq >= 90
        # /events: pages of EVENTS_PAGE entries, chained by next_since
        entries, since = [], 0
        while since is not None:
            page = api.get(f"/api/games/{gid}/events", params={"since": since}).json()
            assert len(page["entries"]) <= 15
            entries += page["entries"]
            since = page["next_since"]
        assert [e["seq"] for e in entries] == list(range(1, seq + 1))
        # far behind: a sync, not an update replaying the log
        async with WS(url(limited, gid, since=0)) as spec:
            nxt = await spec.expect("sync", "update", "error")
            assert nxt["type"] == "sync" and nxt["seq"] == seq
        # after a restart (no batches in memory), a near reconnect is rebuilt from the
        # nearest snapshot plus the tail: exactly the events /events tells
        limited.restart()
        since = seq - 25
        async with WS(url(limited, gid, since=since)) as spec:
            upd = await spec.expect("update", "sync")
            assert upd["type"] == "update" and upd["first_seq"] == since + 1
            assert upd["events"] == [ev for e in entries[since:] for ev in e["events"]]
