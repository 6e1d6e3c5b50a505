"""Fuzz (issue 9, point 5): random and mutated websocket messages and HTTP requests
against a live server, seeded and bounded.

Asserts: no 5xx, no silent close (every socket still answers a ping at the end, none was
closed), every ``error``/``reject`` carries a ``code``, every HTTP error body has
``error.code``, and afterwards the game rebuilt from the database (a kill -9 restart)
equals what the live connections saw: the same views, and ``/events`` tells the events
they were sent.

``FUZZ_MESSAGES`` (default 2500 websocket messages + a fifth as many HTTP requests per
backend, ~20-40 s) and ``FUZZ_SEED`` (default 9) scale it, e.g. ``FUZZ_MESSAGES=20000``
(20,000 websocket messages + 4,000 HTTP requests per backend).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import string
from typing import Any
from urllib.parse import quote

import httpx

from .conftest import Server
from .helpers import WS, auth, new_identity, two_player_game
from .test_game_ws import url

N_WS = int(os.environ.get("FUZZ_MESSAGES", "2500"))
SEED = int(os.environ.get("FUZZ_SEED", "9"))
TYPES = ["action", "chat", "resync", "auth", "ping", "dance", "", None, 7, "ACTION"]
CHANNELS = ["all", "side:AXIS", "side:ALLIES", "spectators", "pair:AXIS:left", "x" * 300, "", 5]
NASTY = [
    "\\u0000",
    "\\udfff",
    "\\ud800x",
    "\\ud83d\\ude00",
    "\u202e",
    "\x7f",
    '"',
    "\\\\",
    "\u4e2d",
    "\U0001f600",
    "%00",
    "\\n",
    "</script>",
]


def rand_str(rng: random.Random, big: bool = False) -> str:
    n = rng.choice([0, 1, 5, 40, 200]) if not big else rng.choice([1000, 20_000, 70_000])
    return "".join(rng.choice(string.printable) for _ in range(min(n, 300))) * max(1, n // 300)


def rand_value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth > 4 or r < 0.35:
        return rng.choice(
            [
                None,
                True,
                False,
                0,
                -1,
                2**31,
                2**63,
                -(2**64),
                10**30,
                1.5,
                1e308,
                rand_str(rng),
                "AXIS",
                "ALLIES",
                [],
                {},
            ]
        )
    if r < 0.6:
        return [rand_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rand_str(rng)[:10] or "k": rand_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def raw_text(rng: random.Random, obj: Any) -> str | bytes:
    """Serialise ``obj`` and maybe mangle the text (escapes json.dumps would not write)."""
    text = json.dumps(obj)
    r = rng.random()
    if r < 0.08:
        k = rng.randint(0, len(text))
        return text[:k]  # truncated
    if r < 0.16:
        nasty = rng.choice(NASTY)
        return text.replace('"ping"', f'"ping{nasty}"', 1).replace('"id": "', f'"id": "{nasty}', 1)
    if r < 0.2:
        n = rng.choice([33, 100, 980, 5000])
        return '{"type": "ping", "x": ' + "[" * n + "]" * n + "}"
    if r < 0.23:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 50)))
    if r < 0.25:
        return rng.choice(["", "null", "[]", "1", '"x"', "{", "}" * 10, "\x00"])
    return text


def mutate(rng: random.Random, msg: dict[str, Any]) -> dict[str, Any]:
    out = dict(msg)
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        if r < 0.3 and out:
            out.pop(rng.choice(list(out)))
        elif r < 0.6:
            out[rng.choice(list(out) + ["id", "seq", "since", "token", "extra"])] = rand_value(rng)
        elif r < 0.8 and isinstance(out.get("action"), dict):
            act = dict(out["action"])
            act[rng.choice(list(act) + ["seat", "unit", "card", "extra"])] = rand_value(rng)
            out["action"] = act
        else:
            out["type"] = rng.choice(TYPES)
    return out


def ws_message(rng: random.Random, conn: WS, tokens: list[str]) -> Any:
    """``tokens``: the connection's own token (if any): an ``auth`` never moves it to
    another seat, so what it saw can be checked against that seat's log."""
    legal = conn.legal
    base: dict[str, Any] = rng.choice(
        [
            {
                "type": "action",
                "seq": conn.seq,
                "action": rng.choice(legal) if legal else {"type": "x"},
            },
            {"type": "chat", "channel": rng.choice(CHANNELS), "text": rand_str(rng)},
            {"type": "resync", "since": rng.choice([None, 0, conn.seq, conn.seq - 3, -1, 10**9])},
            {"type": "auth", "token": rng.choice(tokens + ["bogus", ""])},
            {"type": "ping"},
        ]
    )
    if rng.random() < 0.01:  # over the 64 KiB message limit
        base = {"type": "chat", "channel": "all", "text": rand_str(rng, big=True)}
    base["id"] = rng.choice([None, rng.randint(0, 10**6), rand_str(rng)[:20]])
    if rng.random() < 0.7:
        base = mutate(rng, base)
    return raw_text(rng, base)


PATHS = [
    "/api/identity",
    "/api/identity/me",
    "/api/identity/sessions",
    "/api/scenarios",
    "/api/scenarios/{sid}",
    "/api/games",
    "/api/games/{gid}",
    "/api/games/{gid}/events",
    "/api/games/{gid}/chat",
    "/api/games/{gid}/seats/{seat}/claim",
    "/api/games/{gid}/seats/{seat}/leave",
    "/api/games/{gid}/seats/{seat}/bot",
    "/api/games/{gid}/log",
    "/api/invites/{x}",
    "/api/options",
    "/",
    "/games/{gid}",
    "/join/{x}",
    "/api/identity/sessions/{x}",
]


def http_request(rng: random.Random, gid: str, tok: str) -> dict[str, Any]:
    def seg() -> str:
        return quote(
            rng.choice(
                [
                    gid,
                    "2-PegasusBridge",
                    "ALLIES",
                    "AXIS:left",
                    "x" * 200,
                    "%00",
                    "%ff%fe",
                    "\u00e9",
                    "..",
                    "%2e%2e",
                    "-1",
                    rand_str(rng)[:12] or "z",
                ]
            ),
            safe="%:",
        )

    path = rng.choice(PATHS)
    path = path.format(sid=seg(), gid=rng.choice([gid, gid, seg()]), seat=seg(), x=seg())
    params = {
        rng.choice(["since", "status", "channel", "invite", "offset", "limit", "x"]): rng.choice(
            ["0", "-1", "99999999999999999999", "open,live", "abc", "all", "%00", ""]
        )
        for _ in range(rng.randint(0, 2))
    }
    headers: dict[str, str] = {}
    if rng.random() < 0.6:
        headers.update(auth(tok))
    if rng.random() < 0.2:
        headers["origin"] = rng.choice(["http://evil.example", "null", "http://127.0.0.1:1"])
    method = rng.choices(["GET", "POST", "DELETE", "PUT"], weights=[4, 5, 1, 1])[0]
    req: dict[str, Any] = {"method": method, "url": path, "params": params, "headers": headers}
    if method in ("POST", "PUT"):
        if path == "/api/scenarios" and rng.random() < 0.7:
            req["files"] = {"file": ("f.m44", raw_text(rng, rand_value(rng)))}
        else:
            body = raw_text(
                rng,
                rng.choice(
                    [
                        rand_value(rng),
                        {"name": rand_str(rng)},
                        {
                            "scenario_id": "2-PegasusBridge",
                            "mode": rand_value(rng),
                            "seed": rand_value(rng),
                            "options": rand_value(rng),
                        },
                        {"invite": rand_value(rng)},
                    ]
                ),
            )
            req["content"] = (
                body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass")
            )
            req["headers"]["content-type"] = rng.choice(
                ["application/json", "text/plain", "application/x-www-form-urlencoded"]
            )
    return req


async def test_fuzz_websocket_and_http(server: Server, api: httpx.Client) -> None:
    rng = random.Random(SEED)
    log_start = len(server.logs())
    gid, toks = two_player_game(api, seed=SEED)
    throwaway = new_identity(api, "fuzz")
    own = {"AXIS": [toks["AXIS"]], "ALLIES": [toks["ALLIES"]], None: []}
    async with (
        WS(url(server, gid), toks["AXIS"]) as ax,
        WS(url(server, gid), toks["ALLIES"]) as al,
        WS(url(server, gid)) as spec,
    ):
        conns = [ax, al, spec]
        sent = 0
        while sent < N_WS:
            for _ in range(50):
                conn = rng.choice(conns)
                await conn.send(ws_message(rng, conn, own[conn.seat]))
                sent += 1
            await asyncio.sleep(0.05)
        for conn in conns:  # everything processed, every socket open
            await conn.send({"type": "ping", "id": "end"})
            while (m := await conn.expect("pong", timeout=180)).get("id") != "end":  # backlog
                assert m["type"] != "__closed__", (
                    m,
                    conn.messages[-3:],
                    server.logs()[log_start:][-3000:],
                )
            assert conn.closed is None
        for conn in conns:
            for m in conn.messages:
                if m["type"] in ("error", "reject"):
                    assert isinstance(m.get("code"), str) and m["code"], m
        codes = sorted({m["code"] for c in conns for m in c.messages if m["type"] == "error"})
        live = {c.seat: c.view for c in conns}
        live_seq = max(c.seq for c in conns)
        updates = {
            c.seat: [
                (m["first_seq"], m["seq"], m["events"]) for m in c.messages if m["type"] == "update"
            ]
            for c in conns
        }

    # HTTP: random and mutated requests, one keep-alive client
    statuses: dict[int, int] = {}
    with httpx.Client(base_url=server.base, timeout=30) as h:
        for _ in range(N_WS // 5):
            req = http_request(rng, gid, throwaway)
            h.cookies.clear()
            r = h.request(**req)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            assert r.status_code < 500, (req, r.text)
            if r.status_code >= 400 and r.headers.get("content-type", "").startswith(
                "application/json"
            ):
                assert isinstance(r.json()["error"]["code"], str), r.text
    assert api.get("/healthz").status_code == 200

    # the game rebuilt from the database equals what the live connections saw
    server.restart()
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["seq"] == live_seq
    for seat, tok in (("AXIS", toks["AXIS"]), ("ALLIES", toks["ALLIES"]), (None, None)):
        async with WS(url(server, gid), tok) as again:
            assert again.seq == live_seq and again.view == live[seat]
        entries: dict[int, list[dict[str, Any]]] = {}
        since: int | None = 0
        while since is not None:
            page = api.get(
                f"/api/games/{gid}/events",
                params={"since": since},
                headers=auth(tok) if tok else {},
            ).json()
            entries.update({e["seq"]: e["events"] for e in page["entries"]})
            since = page["next_since"]
        for first, last, events in updates[seat]:  # live and catch-up updates alike
            assert events == [ev for q in range(first, last + 1) for ev in entries[q]]
    tail = server.logs()[log_start:]
    assert "reader failed" not in tail and "unhandled error" not in tail, tail[-3000:]
    print(
        f"fuzz[{server.kind}]: {sent} ws messages, error codes {codes}; "  # type: ignore[attr-defined]
        f"{N_WS // 5} http requests {dict(sorted(statuses.items()))}; seq {live_seq}"
    )
