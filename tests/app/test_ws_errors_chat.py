"""Bad input on the websocket: each kind gets its stable error code, the game is untouched
and the server unharmed.  Chat channels and their policy, end to end."""

from __future__ import annotations

import json

import httpx
import pytest
import websockets

from .conftest import Server
from .helpers import WS, auth, new_identity, two_player_game
from .test_game_ws import url


async def roundtrip(ws: WS) -> None:
    """Wait until everything sent before has been processed (ping -> pong)."""
    await ws.send({"type": "ping", "id": "sync"})
    while (await ws.expect("pong"))["id"] != "sync":
        pass


async def test_bad_inputs_change_nothing(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api, seed=8)
    async with (
        WS(url(server, gid), toks["AXIS"]) as ax,
        WS(url(server, gid), toks["ALLIES"]) as al,
        WS(url(server, gid)) as spec,
    ):
        seq0 = al.seq
        assert al.view["to_act"] == ["ALLIES"]

        async def error_of(ws: WS, payload: object) -> dict:
            await ws.send(payload)
            return await ws.expect("error")

        assert (await error_of(al, "{not json"))["code"] == "malformed_json"
        assert (await error_of(al, "[1, 2]"))["code"] == "malformed_json"
        assert (await error_of(al, b"\xff\xfe"))["code"] == "malformed_json"
        assert (await error_of(al, {"type": "dance"}))["code"] == "unknown_type"
        assert (await error_of(al, {"no": "type"}))["code"] == "unknown_type"
        assert (await error_of(al, {"type": "action", "action": al.legal[0]}))[
            "code"
        ] == "bad_message"
        assert (await error_of(al, {"type": "action", "seq": seq0}))["code"] == "bad_message"
        big = {"type": "chat", "channel": "all", "text": "x" * (70 * 1024)}
        e = await error_of(al, big)
        assert e["code"] == "message_too_large" and e["details"]["size"] > 64 * 1024

        r = await al.act({"type": "play_card", "card": 99999})  # illegal move
        assert r["type"] == "reject" and r["code"] not in ("stale_seq", "") and r["seq"] == seq0
        r = await ax.act(al.legal[0])  # wrong seat
        assert r["type"] == "reject" and r["seq"] == seq0
        r = await al.act({**al.legal[0], "seat": "AXIS"})  # a forged seat is overwritten: legal
        assert r["type"] == "ack"
        seq1 = r["seq"]
        await ax.wait_seq(seq1)
        await spec.wait_seq(seq1)
        r = await spec.act({"type": "end_turn"})  # spectator
        assert r["type"] == "reject" and r["code"] == "not_seated"
        actor = ax if ax.view["to_act"] == ["AXIS"] else al
        r = await actor.act(actor.legal[0], seq=seq0)  # stale seq
        assert r["type"] == "reject" and r["code"] == "stale_seq" and r["seq"] == seq1
        assert (await actor.expect("sync"))["seq"] == seq1

        for ws in (ax, al, spec):
            await roundtrip(ws)
            assert ws.seq == seq1
        assert api.get(f"/api/games/{gid}").json()["seq"] == seq1

    # a frame over the hard limit closes that connection only
    async with WS(url(server, gid), toks["ALLIES"]) as al2:
        await al2.send("x" * (1024 * 1024 + 10))
        closed = await al2.expect("__closed__", timeout=10)
        assert closed["code"] == 1009
    # invalid token / unknown game: closed with a stable code
    async with websockets.connect(url(server, gid, token="forged")) as raw:
        msg = json.loads(await raw.recv())
        assert msg["code"] == "invalid_token"
        with pytest.raises(websockets.ConnectionClosed):
            await raw.recv()
        assert raw.close_code == 4401
    async with websockets.connect(url(server, "g_nope")) as raw:
        assert json.loads(await raw.recv())["code"] == "game_not_found"
        with pytest.raises(websockets.ConnectionClosed):
            await raw.recv()
        assert raw.close_code == 4404
    # the server is unharmed and the game unchanged
    async with WS(url(server, gid)) as again:
        assert again.seq == seq1


async def test_chat_channels(server: Server, api: httpx.Client) -> None:
    gid, toks = two_player_game(api, seed=9)
    watcher_tok = new_identity(api, "Watcher")
    async with (
        WS(url(server, gid), toks["AXIS"]) as ax,
        WS(url(server, gid), toks["ALLIES"]) as al,
        WS(url(server, gid), watcher_tok) as spec,
        WS(url(server, gid)) as anon,
    ):
        hello = spec.messages[0]
        assert hello["seat"] is None and hello["identity"]["name"] == "Watcher"
        assert hello["chat_channels"]["write"] == ["spectators"]
        assert ax.messages[0]["chat_channels"]["write"] == ["all", "side:AXIS"]
        assert "spectators" not in ax.messages[0]["chat_channels"]["read"]

        async def say(ws: WS, channel: str, text: str) -> None:
            await ws.send({"type": "chat", "channel": channel, "text": text})

        await say(spec, "spectators", "psst, Axis is doomed")
        m = await spec.expect("chat")
        assert m["text"] == "psst, Axis is doomed" and m["seat"] is None and m["name"] == "Watcher"
        assert (await anon.expect("chat"))["channel"] == "spectators"
        await say(ax, "side:AXIS", "hold the bridge")
        assert (await ax.expect("chat"))["channel"] == "side:AXIS"
        await say(ax, "all", "good luck")
        for ws in (ax, al, spec, anon):
            assert (await ws.expect("chat"))["text"] == "good luck"  # after the earlier ones
        for ws in (ax, al):
            assert not any(
                m["type"] == "chat" and m["channel"] == "spectators" for m in ws.messages
            )
        for ws in (al, spec, anon):
            assert not any(m["type"] == "chat" and m["channel"] == "side:AXIS" for m in ws.messages)

        for ws, channel in (
            (spec, "all"),
            (ax, "spectators"),
            (ax, "side:ALLIES"),
            (anon, "spectators"),
            (al, "nowhere"),
        ):
            await say(ws, channel, "not allowed")
            e = await ws.expect("error")
            assert e["code"] == "chat_forbidden", (channel, e)
        await spec.send({"type": "chat", "channel": "all"})
        assert (await spec.expect("error"))["code"] == "bad_message"

    # persisted: history over HTTP and in a later hello
    r = api.get(f"/api/games/{gid}/chat", params={"channel": "all"})
    assert [m["text"] for m in r.json()] == ["good luck"]
    r = api.get(
        f"/api/games/{gid}/chat", params={"channel": "side:AXIS"}, headers=auth(toks["ALLIES"])
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "chat_forbidden"
    r = api.get(
        f"/api/games/{gid}/chat", params={"channel": "side:AXIS"}, headers=auth(toks["AXIS"])
    )
    assert [m["text"] for m in r.json()] == ["hold the bridge"]
    async with WS(url(server, gid), toks["ALLIES"]) as al:
        assert [m["text"] for m in al.messages[0]["chat"]] == ["good luck"]
    async with WS(url(server, gid)) as anon:
        assert [m["text"] for m in anon.messages[0]["chat"]] == [
            "psst, Axis is doomed",
            "good luck",
        ]


async def test_auth_message_and_seat_changes(server: Server, api: httpx.Client) -> None:
    a, b = new_identity(api, "A"), new_identity(api, "B")
    g = api.post(
        "/api/games",
        json={"scenario_id": "2-PegasusBridge", "seed": 1, "seat": "AXIS"},
        headers=auth(a),
    ).json()
    async with WS(url(server, g["id"])) as ws:
        assert ws.seat is None
        await ws.send({"type": "auth", "token": a})
        hello = await ws.expect("hello")
        assert hello["seat"] == "AXIS" and "hand" in hello["view"]["sides"]["AXIS"]
        r = await ws.act(hello["legal"][0] if hello["legal"] else {"type": "end_turn"})
        assert r["type"] == "reject" and r["code"] == "game_not_started"
        async with WS(url(server, g["id"]), b) as wb:
            assert wb.seat is None
            assert (
                api.post(f"/api/games/{g['id']}/seats/ALLIES/claim", headers=auth(b)).status_code
                == 200
            )
            seats = await ws.expect("seats")
            assert seats["status"] == "live"
            hello_b = await wb.expect("hello")  # claimed: now a player
            assert hello_b["seat"] == "ALLIES" and hello_b["legal"]
            r = await wb.act(hello_b["legal"][0])
            assert r["type"] == "ack"
        await ws.send({"type": "auth", "token": "forged"})
        assert (await ws.expect("error"))["code"] == "invalid_token"
