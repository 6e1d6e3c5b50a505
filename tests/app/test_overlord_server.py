"""Overlord/team seats on the real server: layouts and player slots, bots filling slots,
identities playing several role seats over one websocket, stand-in bots for absent players
(short grace period) and their return, the redacted event log for late joiners."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from engine.bot import RandomBot

from tests.app.conftest import Server, backend
from tests.app.helpers import WS, auth, new_identity

OMAHA = "13-OmahaBeachOverlord"
ROLES = ("cinc", "left", "centre", "right")


def err(r: httpx.Response) -> str:
    return str(r.json()["error"]["code"])


def create(api: httpx.Client, tok: str, **body: Any) -> dict[str, Any]:
    r = api.post("/api/games", json={"scenario_id": OMAHA, "seed": 5, **body}, headers=auth(tok))
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_modes_layouts_and_slots(api: httpx.Client) -> None:
    scn = {s["id"]: s for s in api.get("/api/scenarios").json()}
    assert scn[OMAHA]["modes"] == ["overlord"]
    assert scn["1517-PeleliuLandingsOverlord"]["modes"] == ["overlord"]
    assert scn["2-PegasusBridge"]["modes"] == ["1v1", "team"]
    a, b = new_identity(api, "Ike"), new_identity(api, "Monty")
    g = create(api, a, layout={"AXIS": "4", "ALLIES": "3"}, seat="ALLIES:centre")
    assert g["mode"] == "overlord" and g["layout"] == {"AXIS": "4", "ALLIES": "3"}
    slots = {s["slot"]: s for s in g["slots"]}
    assert list(slots) == [
        "AXIS:cinc",
        "AXIS:left",
        "AXIS:centre",
        "AXIS:right",
        "ALLIES:cinc+centre",
        "ALLIES:left",
        "ALLIES:right",
    ]
    assert slots["ALLIES:cinc+centre"]["seats"] == ["ALLIES:cinc", "ALLIES:centre"]
    assert slots["ALLIES:cinc+centre"]["mine"] and slots["ALLIES:cinc+centre"]["taken"]
    mine = [s["seat"] for s in g["seats"] if s["mine"]]
    assert mine == ["ALLIES:cinc", "ALLIES:centre"]
    # claiming one seat of a slot claims the slot; a taken slot stays taken
    assert (
        err(api.post(f"/api/games/{g['id']}/seats/ALLIES:cinc/claim", headers=auth(b)))
        == "seat_taken"
    )
    r = api.post(f"/api/games/{g['id']}/seats/AXIS:left/claim", headers=auth(b))
    assert r.status_code == 200 and [s["seat"] for s in r.json()["seats"] if s["mine"]] == [
        "AXIS:left"
    ]
    for bad in ({"AXIS": "5"}, {"RUSSIANS": "4"}):
        r = api.post("/api/games", json={"scenario_id": OMAHA, "layout": bad}, headers=auth(a))
        assert r.status_code == 422 and err(r) == "invalid_layout", r.text
    # team play on a standard board: 2 per side; bots by slot or seat name
    t = create(
        api,
        a,
        scenario_id="2-PegasusBridge",
        mode="team",
        layout={"AXIS": "2", "ALLIES": "2"},
        bots=["AXIS:left", "AXIS:cinc+centre"],
    )
    assert [s["slot"] for s in t["slots"]] == [
        "AXIS:cinc+centre",
        "AXIS:left+right",
        "ALLIES:cinc+centre",
        "ALLIES:left+right",
    ]
    assert [s["is_bot"] for s in t["slots"]] == [True, True, False, False]
    assert t["slots"][0]["bot_reason"] == "creator"
    # 1v1 unchanged
    o = create(api, a, scenario_id="2-PegasusBridge", seat="AXIS")
    assert o["mode"] == "1v1" and [s["slot"] for s in o["slots"]] == ["AXIS", "ALLIES"]
    r = api.post("/api/games", json={"scenario_id": OMAHA, "mode": "1v1"}, headers=auth(a))
    assert err(r) == "unknown_mode"


async def test_one_player_holds_a_whole_side(server: Server, api: httpx.Client) -> None:
    """Layout 1 for AXIS (one identity, four role seats, one websocket), bots for ALLIES."""
    me = new_identity(api, "Rundstedt")
    g = create(
        api,
        me,
        layout={"AXIS": "1", "ALLIES": "4"},
        seat="AXIS:cinc",
        bots=[f"ALLIES:{r}" for r in ROLES],
    )
    gid = g["id"]
    assert g["status"] == "live"
    bot = RandomBot(1)
    async with (
        WS(f"{server.ws_base}/ws/games/{gid}", me) as ws,
        WS(f"{server.ws_base}/ws/games/{gid}") as spec,
    ):
        hello = ws.messages[0]
        axis = [f"AXIS:{r}" for r in ROLES]
        assert hello["my_seats"] == axis and hello["seat"] == "AXIS:cinc"
        assert sorted(hello["views"]) == sorted(axis)
        assert "hand" in hello["views"]["AXIS:cinc"]["sides"]["AXIS"]
        acted = set()
        deadline = time.monotonic() + 60
        while len(acted) < 3 and time.monotonic() < deadline:
            mine = [a for a in ws.legal if a["seat"] in axis]
            if not mine:
                await asyncio.sleep(0.05)
                continue
            a = bot.rng.choice(mine)
            r = await ws.act(a)
            if r["type"] == "ack":
                acted.add(a["seat"])
            else:
                assert r["code"] == "stale_seq", r
        assert len(acted) >= 2, acted  # the C-in-C and at least one FG acted
        r = await ws.act({"type": "pass", "seat": "ALLIES:left"})
        assert r["type"] == "reject" and r["code"] == "not_seated"
        await spec.wait_seq(ws.seq)
        # the event log: mine keeps the secrets of my seats, the spectator's has none
        ev = api.get(f"/api/games/{gid}/events", headers=auth(me)).json()
        pub = api.get(f"/api/games/{gid}/events").json()
        assert ev["seats"] == axis and pub["seats"] == []
        assert [e["seq"] for e in ev["entries"]] == list(range(1, ev["seq"] + 1))
        secrets_mine = [e for x in ev["entries"] for e in x["events"] if "secret" in e]
        assert secrets_mine and all(set(e["secret_to"]) & set(axis) for e in secrets_mine)
        assert not [e for x in pub["entries"] for e in x["events"] if "secret" in e]
        assert "action" not in str(pub) and "seed" not in pub
        late = api.get(f"/api/games/{gid}/events?since={ev['seq'] - 3}").json()
        assert [e["seq"] for e in late["entries"]][:1] == [ev["seq"] - 2]


# ---------------------------------------------------------------- stand-ins: a short grace
@pytest.fixture(scope="module", params=["sqlite", "pg"])
def grace_server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """A server whose absent players are replaced after 1.5 s."""
    with backend(
        request.param, Path(tempfile.mkdtemp()), {"BOT_GRACE_SECONDS": "1.5", "BOT_DELAY": "0.01"}
    ) as srv:
        yield srv


async def test_absent_player_replaced_then_back(grace_server: Server) -> None:
    srv = grace_server
    with httpx.Client(base_url=srv.base, timeout=20) as api:
        boss, fg = new_identity(api, "Boss"), new_identity(api, "Absent FG")
        g = create(
            api,
            boss,
            layout={"AXIS": "4", "ALLIES": "4"},
            bots=[
                s
                for s in (f"{sd}:{r}" for sd in ("AXIS", "ALLIES") for r in ROLES)
                if s != "ALLIES:left"
            ],
        )
        gid = g["id"]
        assert (
            api.post(f"/api/games/{gid}/seats/ALLIES:left/claim", headers=auth(fg)).status_code
            == 200
        )

        def left() -> dict[str, Any]:
            summary = api.get(f"/api/games/{gid}").json()
            return {
                **next(s for s in summary["seats"] if s["seat"] == "ALLIES:left"),
                "seq": summary["seq"],
            }

        # nobody connects for ALLIES:left: after the grace period a bot stands in
        deadline = time.monotonic() + 30
        while not left()["is_bot"]:
            assert time.monotonic() < deadline, "no stand-in bot"
            await asyncio.sleep(0.2)
        s = left()
        assert s["bot_reason"] == "away" and s["held_by"] == "Absent FG"
        seq0 = s["seq"]
        while left()["seq"] < seq0 + 40:  # the game goes on
            assert time.monotonic() < deadline + 30, "the game hangs"
            await asyncio.sleep(0.2)
        # he comes back: his seat is his again, at once
        async with WS(f"{srv.ws_base}/ws/games/{gid}", fg) as ws:
            assert ws.messages[0]["my_seats"] == ["ALLIES:left"]
            await ws.expect("seats")
            deadline = time.monotonic() + 10
            while left()["is_bot"]:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)
            # connected: the sweep leaves him alone
            await asyncio.sleep(3.5)
            assert not left()["is_bot"]
        # leaving a live Overlord game: the bot takes the slot over, anyone may claim it
        r = api.post(f"/api/games/{gid}/seats/ALLIES:left/leave", headers=auth(fg))
        assert r.status_code == 200 and r.json()["status"] == "live"
        s = left()
        assert s["is_bot"] and s["bot_reason"] == "left" and not s["mine"]
        assert (
            api.post(f"/api/games/{gid}/seats/ALLIES:left/claim", headers=auth(boss)).status_code
            == 200
        )


def chat_game(
    server: Server,
    api: httpx.Client,
    layout: dict[str, str],
    names: tuple[str, ...],
    claims: tuple[str, ...],
) -> tuple[list[str], str, str]:
    """(tokens, game id, websocket base): the first identity creates an Overlord game with
    ``layout`` on ``claims[0]``, the others claim ``claims[1:]``."""
    toks = [new_identity(api, n) for n in names]
    g = create(api, toks[0], layout=layout, seat=claims[0])
    for tok, seat in zip(toks[1:], claims[1:]):
        assert (
            api.post(f"/api/games/{g['id']}/seats/{seat}/claim", headers=auth(tok)).status_code
            == 200
        )
    return toks, g["id"], f"{server.ws_base}/ws/games/{g['id']}"


async def say(ws: WS, channel: str, text: str) -> dict[str, Any]:
    """The answer to this chat message: its own echo, or the error."""
    await ws.send({"type": "chat", "channel": channel, "text": text})
    while True:
        m = await ws.expect("chat", "error")
        if m["type"] != "chat" or m["text"] == text:
            return m


async def test_chain_of_command_binds_the_cinc_holder_on_every_connection(
    server: Server, api: httpx.Client
) -> None:
    """002: the C-in-C may not talk to all his Field Generals.  Layout 3: the player of
    ``ALLIES:cinc+centre`` is refused on ``side:ALLIES`` however he connects (all his
    seats, pinned with ``?seat=ALLIES:centre``, or ``auth`` with that seat); his Left FG
    is not.  Layout 2 (AXIS): "the players play all roles collectively": no chain."""
    (ike, brad, gerd), gid, base = chat_game(
        server,
        api,
        {"AXIS": "2", "ALLIES": "3"},
        ("Ike", "Brad", "Gerd"),
        ("ALLIES:cinc", "ALLIES:left", "AXIS:cinc"),
    )

    async with (
        WS(base, ike) as plain,
        WS(f"{base}?seat=ALLIES:centre", ike) as pinned,
        WS(base) as authed,
        WS(base, brad) as left,
        WS(base, gerd) as axis,
    ):
        await authed.send({"type": "auth", "token": ike, "seat": "ALLIES:centre"})
        hello = await authed.expect("hello")
        assert hello["seat"] == "ALLIES:centre" and hello["my_seats"] == ["ALLIES:centre"]
        assert pinned.messages[0]["my_seats"] == ["ALLIES:centre"]
        for ws, h in ((plain, plain.messages[0]), (pinned, pinned.messages[0]), (authed, hello)):
            chans = h["chat_channels"]
            assert "side:ALLIES" in chans["read"] and "side:ALLIES" not in chans["write"]
            assert "Commander-in-Chief" in chans["closed"]["side:ALLIES"]
            e = await say(ws, "side:ALLIES", "all generals: attack at dawn")
            assert e["type"] == "error" and e["code"] == "chat_forbidden", e
            e = await say(ws, "pair:ALLIES:left", "Bradley, go")  # no visit confirmed
            assert e["type"] == "error" and e["code"] == "chat_forbidden", e
        m = await say(left, "side:ALLIES", "Left FG here")  # FGs talk at any time
        assert m["type"] == "chat" and m["seat"] == "ALLIES:left"
        assert (await pinned.expect("chat"))["text"] == "Left FG here"
        chans = axis.messages[0]["chat_channels"]
        assert {"side:AXIS", "pair:AXIS:left", "pair:AXIS:right"} <= set(chans["write"])
        m = await say(axis, "side:AXIS", "we play together")
        assert m["type"] == "chat" and m["channel"] == "side:AXIS"
    history = api.get(
        f"/api/games/{gid}/chat", params={"channel": "side:ALLIES"}, headers=auth(brad)
    ).json()
    assert [m["text"] for m in history] == ["Left FG here"]


async def test_chain_of_command_layouts_4_and_1_on_a_live_server(
    server: Server, api: httpx.Client
) -> None:
    """Layout 4: the C-in-C never writes the side channel, his Field General does; layout 1
    (one player holds the four AXIS seats, "all roles collectively"): every AXIS channel
    is his, pinned or not; nothing crosses sides."""
    (monty, miles, rommel), _, base = chat_game(
        server,
        api,
        {"AXIS": "1", "ALLIES": "4"},
        ("Monty", "Miles", "Rommel"),
        ("ALLIES:cinc", "ALLIES:right", "AXIS:cinc"),
    )

    async with (
        WS(base, monty) as cinc,
        WS(base, miles) as right,
        WS(f"{base}?seat=AXIS:left", rommel) as axis_pinned,
        WS(base, rommel) as axis,
    ):
        assert (await say(cinc, "side:ALLIES", "all of you"))["code"] == "chat_forbidden"
        assert (await say(right, "side:ALLIES", "Right FG"))["type"] == "chat"
        for ws in (axis, axis_pinned):
            assert set(ws.messages[0]["chat_channels"]["write"]) >= {
                "side:AXIS",
                "pair:AXIS:left",
                "pair:AXIS:centre",
                "pair:AXIS:right",
            }
            assert (await say(ws, "side:AXIS", "notes to myself"))["type"] == "chat"
            assert (await say(ws, "side:ALLIES", "hello there"))["code"] == "chat_forbidden"
        assert not any(m.get("channel") == "side:AXIS" for m in cinc.messages + right.messages)
