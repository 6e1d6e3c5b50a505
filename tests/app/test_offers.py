"""Offers, notifications, ratings, profiles and the inbox (issue 39 points 2-6), on a
real server with a real SMTP server (aiosmtpd): return matches and challenges offered
and accepted or declined, "your turn" e-mailed once to a player not connected, "game
over" e-mailed, unsubscribe links, Glicko-2 ratings after a rated game only."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from .conftest import Server
from .helpers import SCENARIO, WS, auth, two_player_game
from .mailbox import Mailbox, client, mailing_server

PW = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "pg"])
def srv(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    mailbox: Mailbox,
) -> Iterator[Server]:
    env = {"NOTIFY_GRACE_SECONDS": "1", "BOT_GRACE_SECONDS": "600"}
    with mailing_server(request, tmp_path_factory, mailbox, env) as s:
        yield s


@pytest.fixture
def api(srv: Server) -> Iterator[httpx.Client]:
    with client(srv) as c:
        yield c


def ws_url(srv: Server, gid: str) -> str:
    return f"{srv.ws_base}/ws/games/{gid}"


def account(api: httpx.Client, mailbox: Mailbox, prefix: str) -> tuple[str, str, str]:
    """(name, token, address) of a new account whose address is verified."""
    name = f"{prefix}{secrets.token_hex(3)}"
    addr = f"{name.lower()}@example.org"
    r = api.post("/api/accounts", json={"name": name, "password": PW, "email": addr})
    assert r.status_code == 201, r.text
    [mail] = mailbox.wait(addr, "Confirm")
    assert (
        api.post(
            "/api/accounts/verify-email",
            json={"token": Mailbox.link(mail, "/accounts/verify")},
        ).status_code
        == 200
    )
    return name, r.json()["token"], addr


async def resign(ws: WS) -> None:
    await ws.send({"type": "resign", "id": "r"})
    while (await ws.expect("ack", "reject", "error"))["id"] != "r":
        pass


async def play_until(
    srv: Server, gid: str, toks: dict[str, str], done: Any, limit: int = 400
) -> dict[str, WS]:
    """Both players connected, each playing its first legal action when the engine waits
    for it, until ``done(view)``; returns the open sockets (closed by the caller)."""
    socks = {seat: WS(ws_url(srv, gid), tok) for seat, tok in toks.items()}
    for w in socks.values():
        await w.__aenter__()
    for _ in range(limit):
        lead = max(socks.values(), key=lambda w: w.seq)
        if done(lead.view):
            return socks
        seat = lead.view["to_act"][0]
        me = socks[seat]
        await me.wait_seq(lead.seq)
        r = await me.act(me.legal[0])
        assert r["type"] == "ack", r
        for w in socks.values():
            await w.wait_seq(r["seq"])
    raise AssertionError("never done")


async def close_all(socks: dict[str, WS]) -> None:
    for w in socks.values():
        await w.__aexit__(None, None, None)


def finished_pair(srv: Server, api: httpx.Client) -> tuple[str, dict[str, str]]:
    gid, toks = two_player_game(api, seed=11)

    async def run() -> None:
        async with WS(ws_url(srv, gid), toks["AXIS"]) as ax:
            await resign(ax)

    asyncio.run(run())
    assert api.get(f"/api/games/{gid}").json()["status"] == "finished"
    return gid, toks


# ------------------------------------------------------------------ return matches
def test_return_match_is_an_offer_accepted_by_the_other(srv: Server, api: httpx.Client) -> None:
    gid, toks = finished_pair(srv, api)
    a, b = toks["AXIS"], toks["ALLIES"]
    r = api.post(f"/api/games/{gid}/rematch", headers=auth(a))
    assert r.status_code == 201, r.text
    offer = r.json()
    assert offer["status"] == "pending" and offer["mine"] and offer["seat"] == "ALLIES"
    assert api.get(f"/api/games/{gid}/rematch", headers=auth(b)).json()["id"] == offer["id"]
    assert api.get(f"/api/games/{gid}/rematch").status_code == 404  # not a player
    stranger = api.post("/api/identity", json={"name": "Stranger"}).json()["token"]
    for verb in ("accept", "decline", "cancel"):
        r = api.post(f"/api/offers/{offer['id']}/{verb}", headers=auth(stranger))
        assert r.status_code == 404 and r.json()["error"]["code"] == "offer_not_found"
    r = api.post(f"/api/offers/{offer['id']}/accept", headers=auth(a))
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_addressee"
    inbox = api.get("/api/inbox", headers=auth(b)).json()
    assert [o["id"] for o in inbox["offers"]] == [offer["id"]] and inbox["count"] >= 1
    assert [o["id"] for o in api.get("/api/inbox", headers=auth(a)).json()["sent"]] == [offer["id"]]
    r = api.post(f"/api/offers/{offer['id']}/accept", headers=auth(b))
    assert r.status_code == 200 and r.json()["status"] == "accepted", r.text
    g2 = api.get(r.json()["game_url"].replace("/games/", "/api/games/")).json()
    assert g2["status"] == "live" and g2["rematch_of"] == gid
    assert {s["seat"]: s["held_by"] for s in g2["seats"]} == {
        "AXIS": "Allied player",
        "ALLIES": "Axis player",
    }
    again = api.post(f"/api/offers/{offer['id']}/accept", headers=auth(b))
    assert again.status_code == 409 and again.json()["error"]["code"] == "offer_not_pending"
    assert api.post(f"/api/games/{gid}/rematch", headers=auth(b)).json()["game_id"] == g2["id"]


def test_return_match_declined_and_concurrent_offers(srv: Server, api: httpx.Client) -> None:
    gid, toks = finished_pair(srv, api)
    a, b = toks["AXIS"], toks["ALLIES"]
    offer = api.post(f"/api/games/{gid}/rematch", headers=auth(a)).json()
    r = api.post(f"/api/offers/{offer['id']}/decline", headers=auth(b))
    assert r.status_code == 200 and r.json()["status"] == "declined"
    for tok in (a, b):  # declined: no game, whoever asks again
        r = api.post(f"/api/games/{gid}/rematch", headers=auth(tok))
        assert r.json()["status"] == "declined" and r.json()["game_id"] is None
    # both players ask at the same moment: one offer, one game
    gid2, toks2 = finished_pair(srv, api)
    with ThreadPoolExecutor(8) as pool:
        outs = list(
            pool.map(
                lambda t: api.post(f"/api/games/{gid2}/rematch", headers=auth(t)),
                [toks2["AXIS"], toks2["ALLIES"]] * 4,
            )
        )
    assert all(o.status_code in (200, 201) for o in outs), [o.text for o in outs]
    assert len({o.json()["id"] for o in outs}) == 1
    games = {o.json()["game_id"] for o in outs} - {None}
    assert len(games) == 1
    rematches = [
        g
        for g in api.get("/api/games", params={"status": "open,live"}).json()
        if g["rematch_of"] == gid2
    ]
    assert len(rematches) == 1


# ------------------------------------------------------------------ challenges
def test_challenge_by_name_accepted_with_its_clock(
    srv: Server, api: httpx.Client, mailbox: Mailbox
) -> None:
    an, at, aaddr = account(api, mailbox, "Ike")
    bn, bt, baddr = account(api, mailbox, "Zhukov")
    clock = {"kind": "move", "move_seconds": 86400}
    r = api.post(
        "/api/challenges",
        headers=auth(at),
        json={
            "to": bn.upper(),
            "scenario_id": SCENARIO,
            "mode": "1v1",
            "clock": clock,
            "rated": True,
            "seat": "AXIS",
        },
    )
    assert r.status_code == 201, r.text
    offer = r.json()
    assert offer["kind"] == "challenge" and offer["to_name"] == bn and offer["seat"] == "AXIS"
    [mail] = mailbox.wait(baddr, "offers")
    assert an in str(mail["Subject"]) and "/inbox" in mail.get_content()
    assert "List-Unsubscribe" in mail
    page = api.get("/inbox", headers=auth(bt))
    assert page.status_code == 200 and f'data-offer="{offer["id"]}"' in page.text
    r = api.post(f"/api/offers/{offer['id']}/accept", headers=auth(bt))
    assert r.status_code == 200, r.text
    g = api.get(f"/api/games/{r.json()['game_id']}", headers=auth(bt)).json()
    assert g["status"] == "live" and g["rated"] and g["clock"]["kind"] == "move"
    assert {s["seat"]: s["held_by"] for s in g["seats"]} == {"AXIS": an, "ALLIES": bn}
    # nobody is connected: whoever moves first is told the game waits for him
    first = {"AXIS": aaddr, "ALLIES": baddr}[g["to_act"][0]]
    [turn] = mailbox.wait(first, "Your turn")
    assert f"/games/{g['id']}" in turn.get_content()


HOSTILE_CHALLENGES: list[tuple[dict[str, Any], int, str]] = [
    ({"to": "nobody-here-x", "scenario_id": SCENARIO}, 404, "player_not_found"),
    ({"to": "<b>", "scenario_id": SCENARIO}, 422, "validation_error"),
    ({"scenario_id": SCENARIO}, 422, "validation_error"),
    ({"to": "{b}", "scenario_id": "no-such-scenario"}, 404, "scenario_not_found"),
    ({"to": "{b}", "scenario_id": SCENARIO, "mode": "overlord"}, 422, ""),
    ({"to": "{b}", "scenario_id": SCENARIO, "seat": "NOBODY"}, 404, "seat_not_found"),
    (
        {
            "to": "{b}",
            "scenario_id": SCENARIO,
            "clock": {"kind": "move", "move_seconds": 1},
        },
        422,
        "validation_error",
    ),
    ({"to": "{b}", "scenario_id": SCENARIO, "bots": ["AXIS"]}, 422, "validation_error"),
    ({"to": "{b}", "ruleset": "nope", "scenario_id": SCENARIO}, 422, "unknown_ruleset"),
    ({"to": "{a}", "scenario_id": SCENARIO}, 422, "challenge_self"),
]


def test_hostile_challenges_change_nothing(api: httpx.Client, mailbox: Mailbox) -> None:
    an, at, _ = account(api, mailbox, "Foch")
    bn, bt, _ = account(api, mailbox, "Haig")
    for body, code, err in HOSTILE_CHALLENGES:
        body = {k: (v.format(a=an, b=bn) if isinstance(v, str) else v) for k, v in body.items()}
        r = api.post("/api/challenges", json=body, headers=auth(at))
        assert r.status_code == code, (body, r.text)
        if err:
            assert r.json()["error"]["code"] == err, (body, r.text)
    guest = api.post("/api/identity", json={"name": "Guest"}).json()["token"]
    r = api.post("/api/challenges", json={"to": bn, "scenario_id": SCENARIO}, headers=auth(guest))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_registered"
    assert api.post("/api/challenges", json={"to": bn}).status_code == 401
    for oid in ("nope", "x" * 500, "../../etc"):
        r = api.post(f"/api/offers/{oid}/accept", headers=auth(bt))
        assert r.status_code == 404, r.text
    assert api.get("/api/offers", headers=auth(bt)).json() == []
    assert api.get("/api/offers", headers=auth(at)).json() == []


# ------------------------------------------------------------------ notifications + ratings
def test_correspondence_turn_mailed_once_then_rated_result(
    srv: Server, api: httpx.Client, mailbox: Mailbox
) -> None:
    an, at, aaddr = account(api, mailbox, "Bradley")
    bn, bt, baddr = account(api, mailbox, "Model")
    offer = api.post(
        "/api/challenges",
        headers=auth(at),
        json={
            "to": bn,
            "scenario_id": SCENARIO,
            "rated": True,
            "seat": "AXIS",
            "clock": {"kind": "move", "move_seconds": 3 * 86400},
        },
    ).json()
    gid = api.post(f"/api/offers/{offer['id']}/accept", headers=auth(bt)).json()["game_id"]
    toks = {"AXIS": at, "ALLIES": bt}
    first = api.get(f"/api/games/{gid}").json()["to_act"][0]
    other = "ALLIES" if first == "AXIS" else "AXIS"
    waiting_addr = baddr if other == "ALLIES" else aaddr

    async def first_turn() -> None:
        # only the first player is connected; the other is mailed once his turn comes
        socks = await play_until(srv, gid, {first: toks[first]}, lambda v: other in v["to_act"])
        await close_all(socks)

    asyncio.run(first_turn())
    mails = mailbox.wait(waiting_addr, "Your turn", timeout=30)
    assert len(mails) == 1, srv.logs()[-4000:]
    turn_mail = mails[0]
    body = turn_mail.get_content()
    opponent = an if other == "ALLIES" else bn
    assert re.search(rf"It is your turn in .+ against {opponent} \(turn \d+\)\.", body), body
    assert f"/games/{gid}" in body
    for word in ("hand", "card", "seed"):  # only public facts
        assert word not in body.lower()
    assert len(mailbox.wait(waiting_addr, "Your turn", count=2, timeout=3)) == 1

    async def to_turn_2_then_resign() -> None:
        socks = await play_until(srv, gid, toks, lambda v: (v.get("turn") or 0) >= 2)
        loser = socks[socks["AXIS"].view["to_act"][0]]
        await resign(loser)
        await close_all(socks)

    asyncio.run(to_turn_2_then_resign())
    g = api.get(f"/api/games/{gid}").json()
    assert g["status"] == "finished"
    winner = an if g["winner"] == "AXIS" else bn
    loser = bn if winner == an else an
    board = None
    for _ in range(100):
        board = api.get("/api/ratings/m44").json()["players"]
        if {p["name"] for p in board} >= {an, bn}:
            break
        asyncio.run(asyncio.sleep(0.1))
    rated = {p["name"]: p for p in board or []}
    assert rated[winner]["rating"] > 1500 > rated[loser]["rating"], rated
    assert rated[winner]["games"] == rated[loser]["games"] == 1
    prof = api.get(f"/api/players/{winner.lower()}").json()
    assert prof["ratings"][0]["ruleset"] == "m44" and prof["results"]["m44"]["won"] == 1
    assert prof["finished"][0]["replay_url"] == f"/games/{gid}/replay"
    page = api.get(f"/players/{winner}")
    assert page.status_code == 200 and f'data-replay="{gid}"' in page.text
    # the unsubscribe link of the turn e-mail switches "your turn" off
    off = Mailbox.link(turn_mail, "/unsubscribe")
    assert api.get("/unsubscribe", params={"token": off}).status_code == 200
    tok = at if waiting_addr == aaddr else bt
    assert api.get("/api/accounts/me/notifications", headers=auth(tok)).json()["your_turn"] is False


def test_casual_and_short_games_leave_ratings_alone(
    srv: Server, api: httpx.Client, mailbox: Mailbox
) -> None:
    an, at, _ = account(api, mailbox, "Slim")
    bn, bt, _ = account(api, mailbox, "Yama")
    for rated in (False, True):  # casual; rated but resigned before turn 2
        offer = api.post(
            "/api/challenges",
            headers=auth(at),
            json={"to": bn, "scenario_id": SCENARIO, "rated": rated, "seat": "AXIS"},
        ).json()
        gid = api.post(f"/api/offers/{offer['id']}/accept", headers=auth(bt)).json()["game_id"]

        async def run(gid: str = gid) -> None:
            async with WS(ws_url(srv, gid), at) as ax:
                await resign(ax)

        asyncio.run(run())
        assert api.get(f"/api/games/{gid}").json()["status"] == "finished"
    asyncio.run(asyncio.sleep(1.0))
    names = {p["name"] for p in api.get("/api/ratings/m44").json()["players"]}
    assert not names & {an, bn}
    prof = api.get(f"/api/players/{bn}").json()
    assert prof["ratings"] == [] and prof["results"]["m44"]["won"] == 2


def test_profile_hides_private_games_and_hostile_names(
    srv: Server, api: httpx.Client, mailbox: Mailbox
) -> None:
    an, at, _ = account(api, mailbox, "Rokossovsky")
    r = api.post(
        "/api/games",
        headers=auth(at),
        json={"scenario_id": SCENARIO, "mode": "1v1", "seat": "AXIS", "private": True},
    )
    gid = r.json()["id"]
    assert gid in [
        g["id"] for g in api.get(f"/api/players/{an}", headers=auth(at)).json()["in_progress"]
    ]
    assert api.get(f"/api/players/{an}").json()["in_progress"] == []
    for name in ("nobody-x1", "a" * 300, "Guest", "%F0%9F%92%A3", "a%20b"):
        r = api.get(f"/api/players/{name}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "player_not_found", name
    r = api.get("/api/players/%00")
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_text"
    assert api.get("/api/ratings/nope").status_code == 422
    assert api.get("/api/ratings/m44", params={"limit": 0}).status_code == 422
    assert api.get("/api/inbox").status_code == 401
    for page in (
        "/leaderboard",
        "/leaderboard?ruleset=overlord",
        "/leaderboard?ruleset=%3Cb%3E",
        "/inbox",
        "/account",
        f"/players/{an}",
    ):
        assert api.get(page).status_code == 200, page
    assert api.get("/players/nobody-x1").status_code == 404


# ------------------------------------------------------------------ languages
def test_mails_and_pages_in_the_readers_language(api: httpx.Client, mailbox: Mailbox) -> None:
    """An account reads its e-mails in the language of the page it registered from (its
    confirmation link), then of the header's switch (the offers it gets)."""
    name = f"Kluge{secrets.token_hex(3)}"
    addr = f"{name.lower()}@example.org"
    r = api.post(
        "/api/accounts",
        json={"name": name, "password": PW, "email": addr},
        headers={"Accept-Language": "de-DE,de;q=0.9"},
    )
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    [mail] = mailbox.wait(addr, "E-Mail-Adresse")
    assert str(mail["Subject"]) == "Bestätige deine E-Mail-Adresse"
    assert mail.get_content().startswith(f"Hallo {name},")
    link = Mailbox.link(mail, "/accounts/verify")
    page = api.get("/accounts/verify", params={"token": link}, headers={"Cookie": "lang=de"})
    assert "E-Mail bestätigt" in page.text and f"{addr} ist bestätigt." in page.text
    # the header's switch, signed in: French from now on
    r = api.get("/lang/fr?next=/inbox", headers=auth(token), follow_redirects=False)
    assert r.status_code == 303
    sender, stoken, _ = account(api, mailbox, "Monty")
    r = api.post(
        "/api/challenges",
        headers=auth(stoken),
        json={"to": name, "scenario_id": SCENARIO, "mode": "1v1", "rated": True},
    )
    assert r.status_code == 201, r.text
    [offer] = mailbox.wait(addr, "propose")
    assert str(offer["Subject"]) == f"{sender} propose une partie de Pegasus Bridge"
    body = offer.get_content()
    assert (
        "(classée). Acceptez-la ou refusez-la" in body
        and "Plus de notifications de ce type" in body
    )
    inbox = api.get("/inbox", headers={**auth(token), "Cookie": "lang=fr"}).text
    assert "Propositions" in inbox and f"{sender} propose une partie de Pegasus Bridge" in inbox
    assert ">Accepter</button>" in inbox and "Offers" not in inbox
