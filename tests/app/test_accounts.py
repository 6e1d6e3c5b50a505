"""Accounts (issue 39 point 1): register, a guest upgraded in place, sign-in on another
device, names unique case-insensitively, e-mail verification and password reset through
a real SMTP server (aiosmtpd), rate limits, hostile input."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
import websockets

from .conftest import Server
from .helpers import auth, create_game, new_identity
from .mailbox import Mailbox, client, mailing_server
from .test_revocation import _closed_with

PW = "correct horse battery"


@pytest.fixture(scope="module", params=["sqlite", "pg"])
def acc(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    mailbox: Mailbox,
) -> Iterator[Server]:
    env = {"RATE_LIMITS": "login_name=4/minute", "PUBLIC_URL": "http://players.example"}
    with mailing_server(request, tmp_path_factory, mailbox, env) as srv:
        yield srv


@pytest.fixture
def api(acc: Server) -> Iterator[httpx.Client]:
    with client(acc) as c:
        yield c


def register(
    api: httpx.Client, name: str, token: str | None = None, **extra: str
) -> httpx.Response:
    return api.post(
        "/api/accounts",
        json={"name": name, "password": PW, **extra},
        headers=auth(token) if token else {},
    )


def uniq(prefix: str) -> str:
    import secrets

    return f"{prefix}{secrets.token_hex(3)}"


def test_guest_upgrades_in_place_and_signs_in_elsewhere(api: httpx.Client) -> None:
    guest = new_identity(api, "Howard")
    me = api.get("/api/identity/me", headers=auth(guest)).json()
    game = create_game(api, guest, seat="ALLIES")
    name = uniq("Howard")
    r = register(api, name, guest)
    assert r.status_code == 201, r.text
    acct = r.json()
    assert acct["id"] == me["id"] and acct["registered"] and acct["token"] == guest
    assert acct["name"] == name
    # a second device: a new session of the same identity, which holds the same seat
    r = api.post("/api/accounts/login", json={"name": name.upper(), "password": PW})
    assert r.status_code == 200, r.text
    other = r.json()["token"]
    assert other != guest and r.json()["id"] == me["id"]
    assert "overlord_token" in r.headers.get("set-cookie", "")
    seats = api.get(f"/api/games/{game['id']}", headers=auth(other)).json()["seats"]
    assert [s["seat"] for s in seats if s["mine"]] == ["ALLIES"]
    # the session list has both; revoking the other device's session stops its token
    sessions = api.get("/api/identity/sessions", headers=auth(guest)).json()
    assert len(sessions) == 2
    sid = next(s["id"] for s in sessions if not s["current"])
    assert api.delete(f"/api/identity/sessions/{sid}", headers=auth(guest)).status_code == 204
    assert api.get("/api/accounts/me", headers=auth(other)).status_code == 401
    # an account does not register twice
    again = register(api, uniq("Other"), guest)
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_registered"


def test_names_unique_case_insensitively(api: httpx.Client) -> None:
    name = uniq("Rommel")
    assert register(api, name).status_code == 201
    for clash in (
        name.lower(),
        name.upper(),
        "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in name),
    ):  # full-width letters: NFKC folds them
        r = register(api, clash)
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", clash


def test_bad_password_and_per_name_rate_limit(api: httpx.Client) -> None:
    name = uniq("Patton")
    assert register(api, name).status_code == 201
    codes = [
        api.post("/api/accounts/login", json={"name": name, "password": "wrong password"})
        for _ in range(4)
    ]
    assert {r.json()["error"]["code"] for r in codes} == {"bad_credentials"}
    assert all(r.status_code == 401 for r in codes)
    # login_name=4/minute: the fifth attempt on that name is refused, right or wrong
    r = api.post("/api/accounts/login", json={"name": name, "password": PW})
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    unknown = api.post("/api/accounts/login", json={"name": uniq("Nobody"), "password": PW})
    assert unknown.status_code == 401 and unknown.json()["error"]["code"] == "bad_credentials"


def test_email_verification_and_password_reset(api: httpx.Client, mailbox: Mailbox) -> None:
    name = uniq("Monty")
    addr = f"{name.lower()}@example.org"
    r = register(api, name, email=addr)
    assert r.status_code == 201 and not r.json()["email_verified"]
    token = r.json()["token"]
    # no reset before the address is confirmed (same answer: 202)
    assert api.post("/api/accounts/password-reset", json={"name": name}).status_code == 202
    [mail] = mailbox.wait(addr, "Confirm")
    assert "http://players.example/accounts/verify?token=" in mail.get_content()
    link = Mailbox.link(mail, "/accounts/verify")
    forged = api.get("/accounts/verify", params={"token": link[:-2] + "xx"})
    assert forged.status_code == 400
    assert not api.get("/api/accounts/me", headers=auth(token)).json()["email_verified"]
    page = api.get("/accounts/verify", params={"token": link})
    assert page.status_code == 200 and addr in page.text
    assert api.get("/api/accounts/me", headers=auth(token)).json()["email_verified"]
    assert mailbox.wait(addr, "Reset", timeout=0.5) == []
    # the reset link: a new password, every session revoked, the link used once
    assert api.post("/api/accounts/password-reset", json={"name": name.lower()}).status_code == 202
    [reset] = mailbox.wait(addr, "Reset")
    rt = Mailbox.link(reset, "/accounts/reset")
    assert api.get("/accounts/reset", params={"token": rt}).status_code == 200
    short = api.post("/api/accounts/password-reset/confirm", json={"token": rt, "password": "x"})
    assert short.status_code == 422
    ok = api.post(
        "/api/accounts/password-reset/confirm",
        json={"token": rt, "password": "new password 1"},
    )
    assert ok.status_code == 204, ok.text
    assert api.get("/api/accounts/me", headers=auth(token)).status_code == 401
    again = api.post(
        "/api/accounts/password-reset/confirm",
        json={"token": rt, "password": "new password 2"},
    )
    assert again.status_code == 400 and again.json()["error"]["code"] == "invalid_token"
    assert api.post("/api/accounts/login", json={"name": name, "password": PW}).status_code == 401
    assert (
        api.post(
            "/api/accounts/login", json={"name": name, "password": "new password 1"}
        ).status_code
        == 200
    )


HOSTILE_REGISTER = [
    {"name": "ab", "password": PW},  # too short
    {"name": "a b c d", "password": PW},  # space
    {"name": "<script>", "password": PW},
    {"name": "x" * 65, "password": PW},
    {"name": "_under", "password": PW},
    {"name": "bell\u0007x", "password": PW},
    {"name": "Valid1", "password": "short"},
    {"name": "Valid1", "password": "p" * 129},
    {"name": "Valid1", "password": PW, "email": "not-an-address"},
    {"name": "Valid1", "password": PW, "email": "a@b"},
    {"name": ["Valid1"], "password": PW},
    {"name": "Valid1"},
]


def test_hostile_input_changes_nothing(api: httpx.Client) -> None:
    for body in HOSTILE_REGISTER:
        r = api.post("/api/accounts", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error", body
    assert (
        api.post("/api/accounts/login", json={"name": "Valid1", "password": PW}).status_code == 401
    )
    assert api.post(
        "/api/accounts",
        content=b"{not json",
        headers={"content-type": "application/json"},
    ).status_code in (400, 422)
    guest = new_identity(api, "Guest")
    for path, method, body in [
        ("/api/accounts/me/email", "PUT", {"email": "a@example.org"}),  # not registered
        ("/api/accounts/me/notifications", "PUT", {"sound": True}),  # unknown kind
        (
            "/api/accounts/me/push",
            "POST",
            {"endpoint": "http://x.example/push", "keys": {"p256dh": "k", "auth": "a"}},
        ),
        ("/api/accounts/me/push", "DELETE", {"endpoint": "https://nowhere.example/x"}),
        ("/api/accounts/verify-email", "POST", {"token": "forged.token"}),
        (
            "/api/accounts/password-reset/confirm",
            "POST",
            {"token": "x", "password": PW},
        ),
    ]:
        r = api.request(method, path, json=body, headers=auth(guest))
        assert 400 <= r.status_code < 500 and r.json()["error"]["code"], (path, r.text)
    me = api.get("/api/accounts/me", headers=auth(guest)).json()
    assert me == {**me, "registered": False, "email": None, "email_verified": False}
    r = api.get("/unsubscribe", params={"token": "forged"})
    assert r.status_code == 400
    assert api.get("/api/accounts/me").status_code == 401


HOSTILE_PASSWORD_CHANGE = [
    {"password": PW},
    {"new_password": "new password 1"},
    {"password": PW, "new_password": "short"},
    {"password": PW, "new_password": "p" * 129},
    {"password": "", "new_password": "new password 1"},
    {"password": "x" * 129, "new_password": "new password 1"},
    {"password": [PW], "new_password": "new password 1"},
    {"password": PW, "new_password": None},
]


def test_password_change_revokes_the_other_sessions(acc: Server, api: httpx.Client) -> None:
    name = uniq("Alex")
    r = register(api, name)
    here = r.json()["token"]
    login = api.post("/api/accounts/login", json={"name": name, "password": PW})  # 1 of 4
    there = login.json()["token"]
    gid = create_game(api, here, seat="AXIS")["id"]
    path = "/api/accounts/me/password"

    async def run() -> None:
        async with websockets.connect(f"{acc.ws_base}/ws/games/{gid}?token={there}") as ws:
            assert '"hello"' in await ws.recv()
            for body in HOSTILE_PASSWORD_CHANGE:  # refused before counting or changing
                bad = api.put(path, json=body, headers=auth(here))
                assert bad.status_code == 422, (body, bad.text)
                assert bad.json()["error"]["code"] == "validation_error"
            wrong = api.put(  # 2 of 4
                path, json={"password": "not the one", "new_password": "x" * 9}, headers=auth(here)
            )
            assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_password"
            assert api.get("/api/accounts/me", headers=auth(there)).status_code == 200
            ok = api.put(  # 3 of 4
                path, json={"password": PW, "new_password": "new password 1"}, headers=auth(here)
            )
            assert ok.status_code == 200 and ok.json()["name"] == name, ok.text
            codes, code = await asyncio.wait_for(_closed_with(ws), 15)
            assert "session_revoked" in codes and code == 4401

    asyncio.run(run())
    assert api.get("/api/accounts/me", headers=auth(there)).status_code == 401
    assert api.get("/api/accounts/me", headers=auth(here)).status_code == 200
    sessions = api.get("/api/identity/sessions", headers=auth(here)).json()
    assert [s["current"] for s in sessions] == [True]
    new = api.post("/api/accounts/login", json={"name": name, "password": "new password 1"})
    assert new.status_code == 200  # 4 of 4
    # counted with the sign-in attempts on that name (login_name=4/minute)
    r = api.put(path, json={"password": "new password 1", "new_password": PW}, headers=auth(here))
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    # a guest has no password to change; no token, no change
    guest = new_identity(api, "Guest")
    r = api.put(path, json={"password": PW, "new_password": PW}, headers=auth(guest))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_registered"
    assert api.put(path, json={"password": PW, "new_password": PW}).status_code == 401
