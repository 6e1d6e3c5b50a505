"""Overlord ratings on a real server: a rated team game of four accounts played to turn 2
and resigned updates each human's Overlord rating (the winners up, the losers down); the
same game with a bot in one slot stays casual."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, backend, stateless_client
from .helpers import WS, auth

OMAHA = "13-OmahaBeachOverlord"
PW = "correct horse battery"
LAYOUT = {"AXIS": "2", "ALLIES": "2"}  # two players a side: cinc+centre, left+right


@pytest.fixture(scope="module", params=["sqlite", "pg"])
def srv(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    env = {"RATE_LIMITS": "register=1000/hour", "BOT_GRACE_SECONDS": "600"}
    with backend(request.param, Path(tmp_path_factory.mktemp("olr")), env) as s:
        yield s


@pytest.fixture
def api(srv: Server) -> Iterator[httpx.Client]:
    with stateless_client(srv) as c:
        yield c


def account(api: httpx.Client, prefix: str) -> tuple[str, str]:
    name = f"{prefix}{secrets.token_hex(3)}"
    r = api.post("/api/accounts", json={"name": name, "password": PW})
    assert r.status_code == 201, r.text
    return name, str(r.json()["token"])


def seated_game(api: httpx.Client, players: dict[str, str], bots: list[str] | None = None) -> str:
    """A rated Overlord game whose slots ``players`` (slot seat -> token) claim."""
    (first, tok), *rest = players.items()
    r = api.post(
        "/api/games",
        headers=auth(tok),
        json={
            "scenario_id": OMAHA,
            "seed": 5,
            "layout": LAYOUT,
            "seat": first,
            "rated": True,
            "bots": bots or [],
        },
    )
    assert r.status_code == 201, r.text
    gid = str(r.json()["id"])
    for seat, t in rest:
        c = api.post(f"/api/games/{gid}/seats/{seat}/claim", headers=auth(t))
        assert c.status_code == 200, c.text
    assert api.get(f"/api/games/{gid}").json()["status"] == "live"
    return gid


async def play_to_turn_2_and_resign(srv: Server, gid: str, toks: list[str]) -> str:
    """Every player connected, each playing a random legal action of his seats when the
    engine waits for one, until turn 2; then the side to act resigns.  The loser's side."""
    rng = random.Random(3)
    socks = [WS(f"{srv.ws_base}/ws/games/{gid}", t) for t in toks]
    for w in socks:
        await w.__aenter__()
    try:
        deadline = time.monotonic() + 240
        while True:
            assert time.monotonic() < deadline, "turn 2 never reached"
            lead = max(socks, key=lambda w: w.seq)
            mine = [w for w in socks if w.seq == lead.seq and w.legal]
            if not mine:
                await asyncio.sleep(0.02)  # a bot's move, or an update on its way
                continue
            w = mine[0]
            if (lead.view.get("turn") or 0) >= 2:
                break
            r = await w.act(rng.choice(w.legal))
            assert r["type"] in ("ack", "reject"), r
            if r["type"] == "reject":
                assert r["code"] == "stale_seq", r
        seat = w.legal[0]["seat"]
        await w.send({"type": "resign", "id": "r", "seat": seat})
        while (await w.expect("ack", "reject", "error"))["id"] != "r":
            pass
        return str(seat).partition(":")[0]
    finally:
        for w in socks:
            await w.close()


def overlord_board(api: httpx.Client, names: set[str], timeout: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        board = {p["name"]: p for p in api.get("/api/ratings/overlord").json()["players"]}
        if names <= set(board) or time.monotonic() > deadline:
            return board
        time.sleep(0.1)


def test_team_result_rates_each_human_and_a_bot_game_stays_casual(
    srv: Server, api: httpx.Client
) -> None:
    accts = {side: [account(api, side[:2].title()) for _ in range(2)] for side in LAYOUT}
    slots = {"AXIS": ["AXIS:cinc", "AXIS:left"], "ALLIES": ["ALLIES:cinc", "ALLIES:left"]}
    players = {slots[side][i]: accts[side][i][1] for side in LAYOUT for i in range(2)}
    gid = seated_game(api, players)
    loser = asyncio.run(play_to_turn_2_and_resign(srv, gid, list(players.values())))
    g = api.get(f"/api/games/{gid}").json()
    assert g["status"] == "finished" and g["rated"]
    winner = "ALLIES" if loser == "AXIS" else "AXIS"
    assert g["winner"] == winner
    names = {n for side in accts.values() for n, _ in side}
    board = overlord_board(api, names)
    assert names <= set(board), board
    for n, _ in accts[winner]:
        assert board[n]["rating"] > 1500 and board[n]["games"] == 1, board[n]
    for n, _ in accts[loser]:
        assert board[n]["rating"] < 1500 and board[n]["games"] == 1, board[n]
    for n, _ in accts[winner] + accts[loser]:
        prof = api.get(f"/api/players/{n}").json()
        assert [r["ruleset"] for r in prof["ratings"]] == ["overlord"], prof

    # the same humans with a bot in one slot: rated asked, casual played
    bot_players = {seat: tok for seat, tok in players.items() if seat != "ALLIES:left"}
    gid2 = seated_game(api, bot_players, bots=["ALLIES:left"])
    asyncio.run(play_to_turn_2_and_resign(srv, gid2, list(bot_players.values())))
    assert api.get(f"/api/games/{gid2}").json()["status"] == "finished"
    time.sleep(1.0)  # the rating of a finished game runs after its last batch
    after = overlord_board(api, names, timeout=0)
    assert {n: (p["rating"], p["games"]) for n, p in after.items() if n in names} == {
        n: (p["rating"], p["games"]) for n, p in board.items() if n in names
    }
