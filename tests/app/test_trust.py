"""Issue 34 "Trust": races that used to break a limit, through the real server (SQLite,
one worker; PostgreSQL + Redis, two workers).

* Concurrent ``POST /rematch`` by both players: one return-match offer
  (``offers.rematch_of`` unique), accepted once (a conditional update of the pending
  offer; the unique index on ``games.rematch_of`` behind it): one 201, the others 200
  (the offer, accepted), never a 500 nor a second game.
* Identities, games and uploads are limited per client address as well as per
  identity, the windows shared by the workers (Redis).
* Concurrent ``POST /campaigns/{id}/next``: one battle (``uq_campaign_battle``), the
  others 409 ``battle_already_started`` (or ``battle_not_finished`` when they come after
  it), no orphan game.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

from tests.app.conftest import Server, backend
from tests.app.helpers import WS, auth, new_identity, two_player_game
from tests.app.test_hardening import variant

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
        return list(
            await asyncio.gather(
                *(c.post(path, headers=auth(tokens[i % len(tokens)])) for i in range(TRIES))
            )
        )


def my_games(api: httpx.Client, token: str, statuses: str = "open,live") -> list[dict]:
    r = api.get("/api/games", params={"status": statuses}, headers=auth(token))
    assert r.status_code == 200, r.text
    return [g for g in r.json() if any(s.get("mine") for s in g["seats"])]


async def test_concurrent_rematch_creates_one_return_match(
    api: httpx.Client, server: Server
) -> None:
    for _ in range(3):
        gid, toks = two_player_game(api, seed=None)
        await resign(server, gid, toks["AXIS"])
        rs = await burst(server, f"/api/games/{gid}/rematch", [toks["AXIS"], toks["ALLIES"]])
        codes = Counter(r.status_code for r in rs)
        assert codes[201] == 1 and set(codes) <= {200, 201, 409}, [r.text for r in rs]
        for r in rs:
            if r.status_code == 409:
                assert r.json()["error"]["code"] == "rematch_exists"
        offers = {r.json()["id"] for r in rs if r.status_code < 300}
        assert len(offers) == 1  # one offer
        offer = api.get(f"/api/games/{gid}/rematch", headers=auth(toks["AXIS"])).json()
        assert offer["status"] == "accepted", offer  # the other player's call took it
        live = my_games(api, toks["AXIS"])
        assert [g["id"] for g in live] == [offer["game_id"]], "an orphan or second return match"
        assert live[0]["rematch_of"] == gid


async def test_concurrent_acceptances_create_one_game(api: httpx.Client, server: Server) -> None:
    gid, toks = two_player_game(api, seed=None)
    await resign(server, gid, toks["AXIS"])
    r = api.post(f"/api/games/{gid}/rematch", headers=auth(toks["AXIS"]))
    assert r.status_code == 201, r.text
    rs = await burst(server, f"/api/offers/{r.json()['id']}/accept", [toks["ALLIES"]])
    codes = Counter(x.status_code for x in rs)
    assert codes[200] == 1 and codes[409] == TRIES - 1, [x.text for x in rs]
    assert {x.json()["error"]["code"] for x in rs if x.status_code == 409} == {"offer_not_pending"}
    live = my_games(api, toks["ALLIES"])
    assert [g["id"] for g in live] == [
        next(x for x in rs if x.status_code == 200).json()["game_id"]
    ], "orphan games"


async def test_concurrent_next_battle_starts_one_game(api: httpx.Client, server: Server) -> None:
    token = new_identity(api, "Racing campaigner")
    r = api.post(
        "/api/campaigns",
        headers=auth(token),
        json={
            "name": "Race",
            "scenario_ids": ["2-PegasusBridge"] * 3,
            "seat": "AXIS",
            "bots": ["ALLIES"],
        },
    )
    assert r.status_code == 201, r.text
    c = r.json()
    for index in (1, 2):
        await resign(server, c["battles"][-1]["game_id"], token)
        api.get(f"/api/campaigns/{c['id']}")  # records the result
        rs = await burst(server, f"/api/campaigns/{c['id']}/next", [token])
        codes = Counter(r.status_code for r in rs)
        assert codes[200] == 1 and codes[409] == TRIES - 1, [r.text for r in rs]
        assert {r.json()["error"]["code"] for r in rs if r.status_code == 409} <= {
            "battle_already_started",
            "battle_not_finished",
        }  # raced, or came after
        c = api.get(f"/api/campaigns/{c['id']}").json()
        assert [b["index"] for b in c["battles"]] == list(range(index + 1))
        live = my_games(api, token)
        assert [g["id"] for g in live] == [c["battles"][-1]["game_id"]], "orphan games"


# -- creation limits per client address, shared by the workers ------------------------


@pytest.fixture(scope="module", params=["sqlite", "pg"])
def limited(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """Low creation limits; ``pg``: two workers sharing the windows through Redis."""
    with backend(
        request.param,
        tmp_path_factory.mktemp("trustlim"),
        {
            "RATE_LIMITS": "identity=6/minute,game=3/minute,game_address=5/minute,"
            "upload=100/minute,upload_address=4/minute"
        },
    ) as srv:
        yield srv


async def test_creation_is_limited_per_address_across_identities(limited: Server) -> None:
    async with httpx.AsyncClient(base_url=limited.base, timeout=30) as c:

        async def forget(_: httpx.Response) -> None:  # tokens only: no identity cookie
            c.cookies.clear()

        c.event_hooks["response"] = [forget]
        # fresh connections: each request may land on either worker
        idents = [
            await c.post(
                "/api/identity", json={"name": f"flood {i}"}, headers={"Connection": "close"}
            )
            for i in range(10)
        ]
        assert [r.status_code for r in idents] == [201] * 6 + [429] * 4
        assert idents[-1].json()["error"]["code"] == "rate_limited"
        assert idents[-1].json()["error"]["details"]["retry_after"] >= 1
        tokens = [r.json()["token"] for r in idents[:6]]
        body = {"scenario_id": "2-PegasusBridge", "mode": "1v1"}
        one = [
            (
                await c.post(
                    "/api/games", json=body, headers={**auth(tokens[0]), "Connection": "close"}
                )
            ).status_code
            for _ in range(4)
        ]
        assert one == [201] * 3 + [429]  # per identity (game)
        more = [
            (await c.post("/api/games", json=body, headers=auth(t))).status_code
            for t in tokens[1:4]
        ]
        assert more == [201, 201, 429]  # per address (game_address)
        files = [
            (
                await c.post(
                    "/api/scenarios",
                    headers=auth(tokens[i % 6]),
                    files={"file": (f"f{i}.m44", variant(f"flood {i}"), "application/json")},
                )
            ).status_code
            for i in range(6)
        ]
        assert files == [201] * 4 + [429] * 2  # per address, 6 identities


def test_lobby_lists_open_games_first_a_page_at_a_time(api: httpx.Client) -> None:
    tok = new_identity(api, "Lobby owner")
    two_player_game(api)  # a live game, newer than...
    for _ in range(3):
        r = api.post(
            "/api/games",
            json={"scenario_id": "2-PegasusBridge", "mode": "1v1", "seat": "AXIS"},
            headers=auth(tok),
        )
        assert r.status_code == 201
    two_player_game(api)  # ... and after the open ones
    seen: list[dict] = []
    total = None
    while True:
        r = api.get("/api/games", params={"status": "open,live", "offset": len(seen), "limit": 7})
        assert r.status_code == 200 and len(r.json()) <= 7
        total = int(r.headers["X-Total-Count"])
        if not r.json():
            break
        seen += r.json()
    assert len({g["id"] for g in seen}) == len(seen) == total
    statuses = [g["status"] for g in seen]
    assert statuses == sorted(statuses, key=["open", "live"].index)  # open games first
    for bad in ({"limit": 0}, {"limit": 101}, {"offset": -1}):
        assert api.get("/api/games", params=bad).status_code == 422


# -- private games: replay, verify page and match are unknown without the invite ---------


async def test_private_game_is_unknown_to_replay_verify_and_match(
    api: httpx.Client, server: Server
) -> None:
    ta, tb = new_identity(api, "Secret Axis"), new_identity(api, "Secret Allies")
    games = []
    for _ in range(2):
        g = api.post(
            "/api/games",
            json={"scenario_id": "2-PegasusBridge", "mode": "1v1", "seat": "AXIS", "private": True},
            headers=auth(ta),
        )
        assert g.status_code == 201, g.text
        games.append(g.json())
        r = api.post(
            f"/api/games/{g.json()['id']}/seats/ALLIES/claim",
            json={"invite": g.json()["invite"]},
            headers=auth(tb),
        )
        assert r.status_code == 200, r.text
    done, live = games
    await resign(server, done["id"], ta)
    for g, paths in (
        (
            done,
            [
                "/api/games/{}/replay",
                "/api/games/{}/match",
                "/games/{}/replay",
                "/games/{}/verify",
                "/matches/{}",
            ],
        ),
        (live, ["/api/games/{}/match", "/matches/{}"]),
    ):
        for path in paths:
            anon = httpx.get(server.base + path.format(g["id"]), timeout=30)
            unknown = httpx.get(server.base + path.format("g-nosuchgame"), timeout=30)
            assert anon.status_code == unknown.status_code == 404, (path, anon.text)
            assert "Secret" not in anon.text and 'id="seed"' not in anon.text, path
            if path.startswith("/api"):
                assert anon.json() == {
                    "error": {
                        "code": "game_not_found",
                        "message": f"no game {g['id']!r}",
                        "details": {},
                    }
                }
            ok = httpx.get(
                server.base + path.format(g["id"]), timeout=30, params={"invite": g["invite"]}
            )
            assert ok.status_code == 200, (path, ok.text)
            assert api.get(path.format(g["id"]), headers=auth(tb)).status_code == 200


def test_long_replay_comes_a_page_at_a_time(api: httpx.Client) -> None:
    tok = new_identity(api, "Replayer")
    gid = api.post(
        "/api/games",
        json={
            "scenario_id": "2-PegasusBridge",
            "mode": "1v1",
            "seed": 11,
            "bots": ["AXIS", "ALLIES"],
        },
        headers=auth(tok),
    ).json()["id"]
    for _ in range(600):
        if api.get(f"/api/games/{gid}").json()["status"] == "finished":
            break
        time.sleep(0.2)
    whole = api.get(f"/api/games/{gid}/replay")
    assert whole.status_code == 200, whole.text
    total = whole.json()["steps_total"]
    steps, start = [], 0
    while start is not None:
        page = api.get(f"/api/games/{gid}/replay", params={"from": start, "limit": 7}).json()
        assert page["first_step"] == start and len(page["steps"]) <= 7
        steps += page["steps"]
        start = page["next_from"]
    assert len(steps) == total > 7
    if whole.json()["next_from"] is None:
        assert steps == whole.json()["steps"]
    for bad in ({"limit": 0}, {"limit": 201}, {"from": -1}):
        assert api.get(f"/api/games/{gid}/replay", params=bad).status_code == 422


# -- a started 1v1 game stays live when a player leaves his seat ------------------------


def started_game(api: httpx.Client, clock: dict | None = None) -> tuple[str, dict[str, str], str]:
    """A live 1v1 game (optionally timed): (id, {seat: token}, the seat to move)."""
    ta, tb = new_identity(api, "Leaver"), new_identity(api, "Stayer")
    body = {
        "scenario_id": "2-PegasusBridge",
        "mode": "1v1",
        "seed": 7,
        "seat": "AXIS",
        **({"clock": clock} if clock else {}),
    }
    gid = api.post("/api/games", json=body, headers=auth(ta)).json()["id"]
    assert api.post(f"/api/games/{gid}/seats/ALLIES/claim", headers=auth(tb)).status_code == 200
    g = api.get(f"/api/games/{gid}").json()
    assert g["status"] == "live"
    return gid, {"AXIS": ta, "ALLIES": tb}, g["to_act"][0]


async def test_leaving_the_seat_to_move_keeps_the_clock_running(
    api: httpx.Client, server: Server
) -> None:
    gid, toks, first = started_game(api, {"kind": "move", "move_seconds": 5, "on_timeout": "lose"})
    other = "ALLIES" if first == "AXIS" else "AXIS"
    async with WS(url(server, gid), toks[other]) as ws:
        r = api.post(f"/api/games/{gid}/seats/{first}/leave", headers=auth(toks[first]))
        assert r.status_code == 200 and r.json()["status"] == "live", r.text
        assert api.get(f"/api/games/{gid}").json()["status"] == "live"
        for _ in range(300):
            if ws.view.get("game_over"):
                break
            await asyncio.sleep(0.05)
        over = [
            e
            for m in ws.messages
            if m["type"] == "update"
            for e in m["events"]
            if e["type"] == "game_over"
        ]
        assert over and over[0]["reason"] == "timeout" and over[0]["loser"] == first
    g = api.get(f"/api/games/{gid}").json()
    assert g["status"] == "finished" and g["winner"] == other


async def test_claim_win_once_the_opponent_left_his_seat(api: httpx.Client, server: Server) -> None:
    gid, toks, first = started_game(api)
    r = api.post(f"/api/games/{gid}/seats/AXIS/leave", headers=auth(toks["AXIS"]))
    assert r.status_code == 200 and r.json()["status"] == "live", r.text
    async with WS(url(server, gid), toks["ALLIES"]) as ws:
        await ws.send({"type": "claim_win", "id": "c"})
        m = await ws.expect("ack", "reject")
        assert m["type"] == "ack", m
        await ws.wait_seq(m["seq"])
        assert ws.view["game_over"] and ws.view["winner"] == "ALLIES"
    log = api.get(f"/api/games/{gid}/log").json()
    assert log["actions"][-1]["action"]["type"] == "forfeit"
    assert log["actions"][-1]["seat"] == "AXIS"
