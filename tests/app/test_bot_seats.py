"""Bots in the seats of a game, from its page (issue 35 #6): the creator gives any seat
to a bot at a level the engine offers, before the start and after friends joined; a person
who joins takes a bot's seat back (before the start, and in the stand-in modes after it);
bots take the seats still free only when the creator starts the game."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.app.conftest import Server
from tests.app.helpers import auth, create_game, new_identity

OMAHA = "13-OmahaBeachOverlord"


def err(r: httpx.Response) -> str:
    return str(r.json()["error"]["code"])


def slots(g: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["slot"]: s for s in g["slots"]}


def post(api: httpx.Client, tok: str, path: str, **body: Any) -> httpx.Response:
    return api.post(f"/api/games/{path}", json=body or None, headers=auth(tok))


def test_bot_levels_come_from_the_engine(api: httpx.Client) -> None:
    from app.engine_api import bot_levels, default_bot_level

    r = api.get("/api/bot-levels")
    assert r.status_code == 200
    assert r.json() == {"levels": bot_levels(), "default": default_bot_level()}
    assert default_bot_level() in bot_levels()


def test_overlord_mixes_friends_and_bots_seat_by_seat(api: httpx.Client) -> None:
    ike, monty, brad, omar = (new_identity(api, n) for n in ("Ike", "Monty", "Brad", "Omar"))
    r = api.post(
        "/api/games",
        json={"scenario_id": OMAHA, "seed": 5, "seat": "ALLIES:cinc"},
        headers=auth(ike),
    )
    g = r.json()
    gid = g["id"]
    assert post(api, monty, f"{gid}/seats/AXIS:cinc/claim").status_code == 200
    # the creator gives a seat to a bot after a friend joined: the game stays open
    r = post(api, ike, f"{gid}/seats/AXIS:left/bot", level="random")
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["status"] == "open"
    assert slots(g)["AXIS:left"]["is_bot"] and slots(g)["AXIS:left"]["bot_level"] == "random"
    # a level the engine does not offer, and a player who did not create the game: refused
    r = post(api, ike, f"{gid}/seats/AXIS:centre/bot", level="grandmaster")
    assert r.status_code == 422 and err(r) == "unknown_bot_level"
    r = post(api, monty, f"{gid}/seats/AXIS:centre/bot")
    assert r.status_code == 403 and err(r) == "not_creator"
    assert post(api, monty, f"{gid}/start").status_code == 403
    g = api.get(f"/api/games/{gid}").json()
    assert not slots(g)["AXIS:centre"]["taken"] and g["status"] == "open"
    # a second friend takes the bot's seat back before the start
    r = post(api, brad, f"{gid}/seats/AXIS:left/claim")
    assert r.status_code == 200, r.text
    left = slots(r.json())["AXIS:left"]
    assert left["taken"] and not left["is_bot"] and left["name"] == "Brad"
    # the creator starts: bots take exactly the seats nobody holds
    r = post(api, ike, f"{gid}/start")
    g = r.json()
    assert r.status_code == 200 and g["status"] == "live"
    who = {s: (x["name"], x["is_bot"]) for s, x in slots(g).items()}
    assert who["ALLIES:cinc"] == ("Ike", False) and who["AXIS:cinc"] == ("Monty", False)
    assert who["AXIS:left"] == ("Brad", False)
    assert all(
        who[s] == ("bot", True) for s in who if s not in ("ALLIES:cinc", "AXIS:cinc", "AXIS:left")
    )
    # after the start (Overlord: the stand-in policy) a person takes a bot's seat
    r = post(api, omar, f"{gid}/seats/ALLIES:left/claim")
    assert r.status_code == 200 and slots(r.json())["ALLIES:left"]["name"] == "Omar"


def test_the_lobby_never_starts_a_game_a_friend_could_join(api: httpx.Client) -> None:
    """Creating an Overlord game with no ``bots`` leaves the other seats free (open), and a
    1v1 started against a bot keeps its bot: a stranger takes no side of a live 1v1."""
    ike, stranger = new_identity(api, "Ike"), new_identity(api, "Stranger")
    r = api.post(
        "/api/games",
        json={"scenario_id": "2-PegasusBridge", "seed": 5, "seat": "AXIS"},
        headers=auth(ike),
    )
    gid = r.json()["id"]
    r = post(api, ike, f"{gid}/start", level="random")
    assert r.json()["status"] == "live" and slots(r.json())["ALLIES"]["bot_level"] == "random"
    r = post(api, stranger, f"{gid}/seats/ALLIES/claim")
    assert r.status_code == 409 and err(r) == "seat_taken"
    r = api.post(
        "/api/games",
        json={"scenario_id": OMAHA, "bots": ["AXIS:cinc"], "bot_level": "nope"},
        headers=auth(ike),
    )
    assert r.status_code == 422 and err(r) == "unknown_bot_level"


async def test_many_claims_at_once_all_answer(server: Server, api: httpx.Client) -> None:
    """30 players claim a seat of 30 new games at the same moment: every claim succeeds.
    Each claim loads its game for the bots after its commit; a request that kept its own
    connection meanwhile waited for a second one, and 15 such requests (the pool) stopped
    the worker until the pool's 30 s timeout answered them all with a 500."""
    games = []
    for n in range(30):
        host = new_identity(api, f"Host {n}")
        games.append(create_game(api, host, seed=n, seat="AXIS")["id"])
    players = [new_identity(api, f"Guest {n}") for n in range(30)]
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as client:
        replies = await asyncio.gather(
            *(
                client.post(f"/api/games/{gid}/seats/ALLIES/claim", headers=auth(tok))
                for gid, tok in zip(games, players)
            )
        )
    assert [r.status_code for r in replies] == [200] * 30, [r.text for r in replies][:3]
    assert all(r.json()["status"] == "live" for r in replies)
