"""Web Push end to end and the timing of "your turn", on a real server.

The tests run their own push service (an HTTP server on 127.0.0.1, which a test server,
``OVERLORD_TEST_SEEDS=1``, accepts as a subscription's endpoint) and play the browser:
each subscription is an EC P-256 key pair and an auth secret; what the server pushes is
decrypted (``aes128gcm``, RFC 8291, with ``http_ece``) and its VAPID JWT verified with the
server's public key.  "Your turn" goes to the first player when a game goes live by its
last seat claimed, and still when the game left memory before the grace delay ended;
once per game, turn and seat.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece  # type: ignore[import-untyped]
import httpx
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from app.accounts.service import check_push_endpoint
from app.errors import AppError
from app.notifications import push as web_push
from app.settings import Settings

from .conftest import Server, backend, stateless_client
from .helpers import SCENARIO, auth

PW = "correct horse battery"
GRACE = 4.0  # NOTIFY_GRACE_SECONDS: longer than a second idle game takes to leave memory


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


class PushService:
    """A push service on 127.0.0.1 that keeps each POST (path, headers, body): 201."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        box = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                box.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def wait(
        self, path: str, count: int = 1, timeout: float = 20
    ) -> list[tuple[str, dict[str, str], bytes]]:
        """The pushes to ``path``, once there are ``count`` (or at ``timeout``)."""
        deadline = time.monotonic() + timeout
        while True:
            got = [r for r in self.received if r[0] == path]
            if len(got) >= count or time.monotonic() > deadline:
                return got
            time.sleep(0.05)


class Subscriber:
    """A browser's push subscription: its key pair, auth secret and endpoint."""

    def __init__(self, service: PushService) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.path = f"/push/{secrets.token_hex(6)}"
        self.endpoint = service.origin + self.path

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64(point(self.key)), "auth": b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(plain))


VAPID = ec.generate_private_key(ec.SECP256R1())


@pytest.fixture(scope="module")
def push() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.httpd.shutdown()


@pytest.fixture(scope="module", params=["sqlite", "pg"])
def srv(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    env = {
        "VAPID_PRIVATE_KEY": b64(VAPID.private_numbers().private_value.to_bytes(32, "big")),
        "NOTIFY_GRACE_SECONDS": str(GRACE),
        "IDLE_EVICT_SECONDS": "1",  # a game nobody watches leaves memory within 2 s
        "BOT_GRACE_SECONDS": "600",
        "RATE_LIMITS": "register=1000/hour",
        "PUBLIC_URL": "https://players.example",
    }
    with backend(request.param, Path(tmp_path_factory.mktemp("push")), env) as s:
        yield s


@pytest.fixture
def api(srv: Server) -> Iterator[httpx.Client]:
    with stateless_client(srv) as c:
        yield c


def subscribed(api: httpx.Client, push: PushService, prefix: str) -> tuple[str, str, Subscriber]:
    """(name, token, subscription) of a new account whose browser subscribed to pushes."""
    name = f"{prefix}{secrets.token_hex(3)}"
    r = api.post("/api/accounts", json={"name": name, "password": PW})
    assert r.status_code == 201, r.text
    sub = Subscriber(push)
    token = str(r.json()["token"])
    added = api.post("/api/accounts/me/push", json=sub.subscription(), headers=auth(token))
    assert added.status_code == 204, added.text
    return name, token, sub


def your_turns(
    push: PushService, sub: Subscriber, gid: str, count: int = 1, timeout: float = 20
) -> list[dict[str, Any]]:
    """The decrypted pushes to ``sub`` about game ``gid``, once there are ``count``."""
    deadline = time.monotonic() + timeout
    while True:
        got = [sub.decrypt(b) for _, _, b in push.wait(sub.path, timeout=0)]
        mine = [p for p in got if p["url"].endswith(f"/games/{gid}")]
        if len(mine) >= count or time.monotonic() > deadline:
            return mine
        time.sleep(0.05)


def verify_vapid(header: str, audience: str) -> dict[str, Any]:
    """The claims of a ``vapid t=<JWT>,k=<key>`` header whose ES256 signature the server's
    VAPID key made (raises otherwise)."""
    scheme, _, params = header.partition(" ")
    assert scheme == "vapid", header
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert unb64(fields["k"]) == point(VAPID)
    head, claims, sig = fields["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(sig)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    VAPID.public_key().verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    out = dict(json.loads(unb64(claims)))
    assert out["aud"] == audience and out["exp"] > time.time(), out
    return out


def test_web_push_end_to_end_when_the_last_seat_is_claimed(
    srv: Server, api: httpx.Client, push: PushService
) -> None:
    """The game goes live by a claim (no action): its first player, connected nowhere,
    gets one push after the grace delay, which only his subscription can read."""
    assert api.get("/api/push/key").json()["public_key"] == b64(point(VAPID))
    an, at, asub = subscribed(api, push, "Axis")
    bn, bt, bsub = subscribed(api, push, "Allies")
    r = api.post(
        "/api/games",
        headers=auth(at),
        json={"scenario_id": SCENARIO, "mode": "1v1", "seat": "AXIS", "seed": 7},
    )
    gid = r.json()["id"]
    assert api.post(f"/api/games/{gid}/seats/ALLIES/claim", headers=auth(bt)).status_code == 200
    g = api.get(f"/api/games/{gid}").json()
    assert g["status"] == "live"
    first = g["to_act"][0]
    sub, other = (asub, bsub) if first == "AXIS" else (bsub, asub)
    opponent = bn if first == "AXIS" else an
    t0 = time.monotonic()
    [(_, headers, body)] = push.wait(sub.path)
    assert time.monotonic() - t0 > GRACE - 1.5  # not before the grace delay
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) >= 0
    claims = verify_vapid(headers["authorization"], push.origin)
    assert claims["sub"] == "mailto:overlord@localhost"
    forged = headers["authorization"].replace(".", ".e30", 1)  # other claims: {}
    with pytest.raises(InvalidSignature):
        verify_vapid(forged, push.origin)
    with pytest.raises(Exception):  # encrypted for this subscription alone
        other.decrypt(body)
    payload = sub.decrypt(body)
    assert set(payload) == {"title", "body", "url"}
    assert payload["title"] == f"Your turn: {g['scenario_name']}"
    assert payload["url"] == f"https://players.example/games/{gid}"
    assert f"against {opponent}" in payload["body"]
    for word in ("hand", "card", "seed", "secret", "unit"):  # public facts only
        assert word not in json.dumps(payload).lower(), payload
    # once per game, turn and seat; nothing for the seat that does not act
    assert len(push.wait(sub.path, count=2, timeout=GRACE + 2)) == 1
    assert push.wait(other.path, timeout=0) == []


def test_team_game_live_by_its_last_claim_notifies_its_first_player_once(
    srv: Server, api: httpx.Client, push: PushService
) -> None:
    """Four players claim a team game's slots one by one (each claim a seat change the
    notifications hear of): the last claim starts it and the player to act is told."""
    players = [subscribed(api, push, f"P{i}") for i in range(4)]
    slots = ["AXIS:cinc+centre", "AXIS:left+right", "ALLIES:cinc+centre", "ALLIES:left+right"]
    r = api.post(
        "/api/games",
        headers=auth(players[0][1]),
        json={
            "scenario_id": SCENARIO,
            "mode": "team",
            "layout": {"AXIS": "2", "ALLIES": "2"},
            "seat": slots[0],
            "seed": 7,
        },
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for (_, tok, _), slot in zip(players[1:], slots[1:]):
        c = api.post(f"/api/games/{gid}/seats/{slot}/claim", headers=auth(tok))
        assert c.status_code == 200, c.text
    g = api.get(f"/api/games/{gid}").json()
    assert g["status"] == "live"
    holder = {s["seat"]: s["held_by"] for s in g["seats"]}
    to_act = {holder[s] for s in g["to_act"]}
    waited = [p for p in players if p[0] in to_act]
    assert waited
    for _, _, sub in waited:
        assert len(your_turns(push, sub, gid)) == 1
    time.sleep(GRACE + 1)
    for name, _, sub in players:
        assert len(your_turns(push, sub, gid, timeout=0)) == (name in to_act), name


def test_your_turn_after_the_game_left_memory(
    srv: Server, api: httpx.Client, push: PushService
) -> None:
    """An accepted challenge: nobody connects, the idle game leaves memory (one second)
    before the grace delay ends (four); the check reloads it and the push still goes."""
    an, at, asub = subscribed(api, push, "Ike")
    bn, bt, bsub = subscribed(api, push, "Zhukov")
    offer = api.post(
        "/api/challenges",
        headers=auth(at),
        json={"to": bn, "scenario_id": SCENARIO, "seat": "AXIS"},
    ).json()
    r = api.post(f"/api/offers/{offer['id']}/accept", headers=auth(bt))
    assert r.status_code == 200, r.text
    gid = r.json()["game_id"]
    first = api.get(f"/api/games/{gid}").json()["to_act"][0]
    sub = asub if first == "AXIS" else bsub
    [turn] = your_turns(push, sub, gid)
    assert turn["title"].startswith("Your turn")
    assert len(your_turns(push, sub, gid, count=2, timeout=GRACE + 2)) == 1


HOSTILE_ENDPOINTS = [
    "http://push.example.org/x",  # not https
    "https://10.0.0.1/x",
    "https://192.168.1.20/x",
    "https://169.254.169.254/latest/meta-data",
    "https://[fd00::1]/x",
    "https://[::ffff:10.0.0.1]/x",
    "https://127.1/x",  # the resolver's short and hex forms of 127.0.0.1
    "https://0x7f000001/x",
    "https://intranet/x",  # a bare name of the local network
    "https://user:pw@push.example.org/x",
    "https://push.example.org:99999/x",
]


def test_hostile_push_endpoints_change_nothing(api: httpx.Client, push: PushService) -> None:
    _, tok, _ = subscribed(api, push, "Guderian")
    keys = Subscriber(push).subscription()["keys"]
    for endpoint in HOSTILE_ENDPOINTS:
        r = api.post(
            "/api/accounts/me/push", json={"endpoint": endpoint, "keys": keys}, headers=auth(tok)
        )
        assert r.status_code == 422, (endpoint, r.text)
        assert r.json()["error"]["code"] == "push_endpoint_refused", endpoint
        gone = api.request(
            "DELETE", "/api/accounts/me/push", json={"endpoint": endpoint}, headers=auth(tok)
        )
        assert gone.status_code == 404 and gone.json()["error"]["code"] == "push_not_found"
    for body in (
        {"endpoint": "ftp://push.example.org/x", "keys": keys},
        {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "k"}},
        {"endpoint": "https://push.example.org/" + "x" * 500, "keys": keys},
    ):
        r = api.post("/api/accounts/me/push", json=body, headers=auth(tok))
        assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error", body


def test_push_endpoints_of_a_real_deployment() -> None:
    """Without the test switch, loopback endpoints are refused too; a push service's
    public https address is taken."""
    real, test = Settings(ALLOW_TEST_SEED=False), Settings(ALLOW_TEST_SEED=True)
    for endpoint in ("https://fcm.googleapis.com/fcm/send/abc", "https://8.8.8.8/x"):
        check_push_endpoint(real, endpoint)
    for endpoint in ("http://127.0.0.1:9/x", "https://localhost/x", "https://[::1]/x"):
        check_push_endpoint(test, endpoint)
        with pytest.raises(AppError) as exc:
            check_push_endpoint(real, endpoint)
        assert exc.value.code == "push_endpoint_refused"
    # when a message is sent, the host's addresses are checked again (a name may point
    # at a private address): all public, or on a test server all loopback
    assert web_push.addresses_allowed(real, ["8.8.8.8", "2001:4860:4860::8888"])
    for addrs in (["8.8.8.8", "10.0.0.1"], ["192.168.1.20"], ["fe80::1%eth0"], [], ["127.0.0.1"]):
        assert not web_push.addresses_allowed(real, addrs), addrs
    assert web_push.addresses_allowed(test, ["127.0.0.1", "::1"])
    assert not web_push.addresses_allowed(test, ["127.0.0.1", "10.0.0.1"])
    assert not web_push.host_allowed(real, "https://localhost/x")  # the resolver's answer
    assert web_push.host_allowed(test, "https://localhost/x")
    assert not web_push.host_allowed(real, "https://no-such-host.invalid/x")
