"""Issue 34 "Trust": races that used to break a limit, through the real server (SQLite,
one worker; PostgreSQL + Redis, two workers).

* Concurrent ``POST /rematch``: one return match (the unique index on
  ``games.rematch_of``), the other requests 200 (it existed) or 409 ``rematch_exists``,
  never a 500 nor a second game.
* Concurrent ``POST /campaigns/{id}/next``: one battle (``uq_campaign_battle``), the
  others 409 ``battle_already_started`` (or ``battle_not_finished`` when they come after
  it), no orphan game.
"""
from __future__ import annotations

import asyncio
from collections import Counter

import httpx

from tests.app.conftest import Server
from tests.app.helpers import WS, auth, new_identity, two_player_game

TRIES = 4


def url(server: Server, gid: str) -> str:
    return f"{server.ws_base}/ws/games/{gid}"


async def resign(server: Server, gid: str, token: str) -> None:
    async with WS(url(server, gid), token) as ws:
        await ws.send({"type": "resign", "id": "r"})
        await ws.expect("ack")


async def burst(server: Server, path: str, tokens: list[str]) -> list[httpx.Response]:
    """``TRIES`` POSTs at once (tokens used in turn)."""
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as c:
        return list(await asyncio.gather(*(
            c.post(path, headers=auth(tokens[i % len(tokens)])) for i in range(TRIES))))


def my_games(api: httpx.Client, token: str, statuses: str = "open,live") -> list[dict]:
    r = api.get("/api/games", params={"status": statuses}, headers=auth(token))
    assert r.status_code == 200, r.text
    return [g for g in r.json() if any(s.get("mine") for s in g["seats"])]


async def test_concurrent_rematch_creates_one_return_match(api: httpx.Client,
                                                           server: Server) -> None:
    for _ in range(3):
        gid, toks = two_player_game(api, seed=None)
        await resign(server, gid, toks["AXIS"])
        rs = await burst(server, f"/api/games/{gid}/rematch", [toks["AXIS"], toks["ALLIES"]])
        codes = Counter(r.status_code for r in rs)
        assert codes[201] == 1 and set(codes) <= {200, 201, 409}, [r.text for r in rs]
        ids = {r.json()["id"] for r in rs if r.status_code < 300}
        assert len(ids) == 1
        for r in rs:
            if r.status_code == 409:
                assert r.json()["error"]["code"] == "rematch_exists"
        live = my_games(api, toks["AXIS"])
        assert [g["id"] for g in live] == list(ids), "an orphan or second return match"


async def test_concurrent_next_battle_starts_one_game(api: httpx.Client, server: Server) -> None:
    token = new_identity(api, "Racing campaigner")
    r = api.post("/api/campaigns", headers=auth(token), json={
        "name": "Race", "scenario_ids": ["2-PegasusBridge"] * 3, "seat": "AXIS",
        "bots": ["ALLIES"]})
    assert r.status_code == 201, r.text
    c = r.json()
    for index in (1, 2):
        await resign(server, c["battles"][-1]["game_id"], token)
        api.get(f"/api/campaigns/{c['id']}")            # records the result
        rs = await burst(server, f"/api/campaigns/{c['id']}/next", [token])
        codes = Counter(r.status_code for r in rs)
        assert codes[200] == 1 and codes[409] == TRIES - 1, [r.text for r in rs]
        assert {r.json()["error"]["code"] for r in rs if r.status_code == 409} <= \
            {"battle_already_started", "battle_not_finished"}    # raced, or came after
        c = api.get(f"/api/campaigns/{c['id']}").json()
        assert [b["index"] for b in c["battles"]] == list(range(index + 1))
        live = my_games(api, token)
        assert [g["id"] for g in live] == [c["battles"][-1]["game_id"]], "orphan games"
