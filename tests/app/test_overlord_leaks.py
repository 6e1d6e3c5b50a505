"""LEAK TEST: bot-played Overlord games through the real server, every websocket message to
every one of the 8 role seats and to a spectator recorded and checked.

Per game: eight identities claim the eight slots (layout 4 per side), connect (recorders),
then hand their seats to the server's bot (autopilot: the identity keeps the seat and its
view while the bot acts through the normal durable log path).  An identified spectator
records too.  Every recorder posts chat with unique markers on every channel it may write
(per its latest ``chat_channels``), plus attempts that are always refused.  After a step cap
the players take their seats back from the bots (the game pauses) and the streams are
checked:

* no message carries a card identity its seat may not see: the C-in-C's hand, tentative
  dispatch and Commissar cards only to him; an FG's received cards only to him (and his
  C-in-C) until played; nothing private of the other side; the spectator nothing private.
  Ground truth: the owners' own streams at the same seq, minus what the spectator saw
  publicly in the same batch;
* no ``secret`` reaches a seat outside its ``secret_to``; no ``hand`` outside the
  C-in-C's own; never a seed, RNG state or deck order;
* every chat message delivered is on a channel its recipient may read (nothing of a side's
  chat reaches the other side or the spectator; spectator chat never reaches players), and
  each delivered marker reached exactly its channel's readers; always-refused attempts are
  delivered to nobody.

The server runs with ``BOT_MAX_SEQ`` = the step cap: its bots stop at the first batch
boundary at or after it (checked: no recorder ever saw a seq past the final one).  A
recorder dropped by the server (4008, a slow reader) reconnects with ``since`` like any
client and records on.

Env: ``LEAK_GAMES`` (default 50, on both backends: SQLite one worker; PostgreSQL + Redis
two workers), ``LEAK_STEPS`` (log entries per game, default 60), ``LEAK_CONCURRENCY``
(games at once, default 10).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

import httpx
import pytest
import websockets

from app.chat.policy import Actor, may_read
from app.realtime.delta import apply_patch

from .conftest import Server, backend
from .helpers import WS, auth

SCENARIOS = ["13-OmahaBeachOverlord", "1517-PeleliuLandingsOverlord"]
SIDES = ("AXIS", "ALLIES")
ROLES = ("cinc", "left", "centre", "right")
SEATS = [f"{s}:{r}" for s in SIDES for r in ROLES]
SPECTATOR = "spectator"
FORBIDDEN_KEYS = {"seed", "rng", "rng_state", "deck_order"}


def other(side: str) -> str:
    return "ALLIES" if side == "AXIS" else "AXIS"


def actor_of(who: str) -> Actor:
    if who == SPECTATOR:
        return Actor(None, None, None, True)
    side, role = who.split(":")
    return Actor(who, side, role, True)


# ------------------------------------------------------------------ card identities in a message
# card-free parts skipped for speed: the static board, unit records, hex lists
CARD_FREE = frozenset(
    {
        "board",
        "units",
        "hexes",
        "changed_hexes",
        "fg_subsections",
        "seats",
        "chat",
        "limits",
        "objectives",
        "mines",
    }
)


def card_ids(obj: Any, out: set[int] | None = None) -> set[int]:
    out = set() if out is None else out
    if isinstance(obj, dict):
        if obj.get("type") == "chat":
            return out
        if isinstance(obj.get("id"), int) and "name" in obj and "kind" in obj:
            out.add(obj["id"])
        for k, v in obj.items():
            if k == "card" and isinstance(v, int):
                out.add(v)
            elif k == "cards" and isinstance(v, list):
                out.update(x for x in v if isinstance(x, int))
            if k not in CARD_FREE and isinstance(v, (dict, list)):
                card_ids(v, out)
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, (dict, list)):
                card_ids(v, out)
    return out


def private_of(who: str, msg: dict[str, Any]) -> set[int]:
    """The card identities private to ``who`` in its own message (its hand, dispatch, taken,
    Commissar cards, received cards, the secrets addressed to it)."""
    ids: set[int] = set()
    views = [msg.get("view") or {}, *(msg.get("views") or {}).values()]
    for v in views:
        for side in SIDES:
            card_ids((v.get("sides") or {}).get(side, {}).get("hand"), ids)
        ol = v.get("overlord") or {}
        for k in ("dispatch", "taken", "commissar_cards", "my_cards"):
            card_ids(ol.get(k), ids)
        pend = v.get("pending") or {}
        card_ids(pend.get("cards"), ids)
    for e in msg.get("events") or []:
        if "secret" in e:
            card_ids(e["secret"], ids)
    return ids


def walk(obj: Any, path: str = ""):  # type: ignore[no-untyped-def]
    """(path, key, value, parent) of every dict entry (only to explain a failure)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{path}.{k}", k, v, obj
            yield from walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")


class Recorder(WS):
    def __init__(self, url: str, token: str, who: str) -> None:
        super().__init__(url, token)
        self.who = who
        self.chat_channels: dict[str, Any] = {}
        self.posted = 0
        self.reconnects = 0
        self.stopping = False

    async def _read(self) -> None:
        """Record; when the server drops this client (4008: it read too slowly), reconnect
        with ``since`` (the protocol's catch-up) and record on."""
        while True:
            try:
                async for raw in self.ws:
                    msg = json.loads(raw)
                    if "view_patch" in msg and "view" not in msg:  # as the client: patch its view
                        msg["view"] = apply_patch(self.view, msg["view_patch"])
                    self.messages.append(msg)
                    t = msg.get("type")
                    if t == "hello":
                        self.seat = msg["seat"]
                    if t in ("hello", "update", "sync") and msg["seq"] >= self.seq:
                        self.seq, self.view, self.legal = msg["seq"], msg["view"], msg["legal"]
                    await self.queue.put(msg)
                code = self.ws.close_code
            except websockets.ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
            if self.stopping or code != 4008:
                await self.queue.put({"type": "__closed__", "code": code})
                return
            self.reconnects += 1
            self.ws = await websockets.connect(
                f"{self.url}&since={self.seq}", max_size=None, open_timeout=10
            )

    async def send(self, obj: Any) -> None:
        for _ in range(50):  # across a reconnect after 4008
            try:
                return await super().send(obj)
            except websockets.ConnectionClosed:
                await asyncio.sleep(0.1)
        raise AssertionError(f"{self.who}: could not send")

    async def close(self) -> None:
        self.stopping = True
        await super().close()

    async def _post_round(self, gid: str, k: int, refused: list[str]) -> None:
        write = list(self.chat_channels.get("write") or [])
        for ch in write:
            self.posted += 1
            await self.send(
                {"type": "chat", "channel": ch, "text": f"LK|{gid}|{self.who}|{ch}|{k}"}
            )
        for ch in refused:  # always refused: never delivered
            self.posted += 1
            await self.send(
                {"type": "chat", "channel": ch, "text": f"NO|{gid}|{self.who}|{ch}|{k}"}
            )


def always_refused(who: str) -> list[str]:
    if who == SPECTATOR:
        return ["all", "side:AXIS"]
    side, role = who.split(":")
    out = [f"side:{other(side)}", "spectators", f"pair:{other(side)}:left"]
    if role == "cinc":
        out.append(f"side:{side}")  # before game over (games are capped)
    return out


async def settle(recs: dict[str, Recorder], quiet: float = 1.0, limit: float = 30.0) -> None:
    """Wait until no recorder has received anything for ``quiet`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    last, since = -1, loop.time()
    while loop.time() < end:
        n = sum(len(r.messages) for r in recs.values())
        if n != last:
            last, since = n, loop.time()
        elif loop.time() - since >= quiet:
            return
        await asyncio.sleep(0.1)


async def ended(recs: dict[str, Recorder], limit: float = 60.0) -> None:
    """Wait until every recorder has the END markers it can read (a live game's C-in-C
    writes none: "all" is closed to him, 002 chain of command), then until all is quiet
    (his last pair-channel posts)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    enders = {
        who
        for who, rec in recs.items()
        if who != SPECTATOR and "all" in (rec.chat_channels.get("write") or [])
    }
    for who, rec in recs.items():
        want = {SPECTATOR} if who == SPECTATOR else enders
        while True:
            got = {
                m["text"].split("|")[2]
                for m in rec.messages
                if m.get("type") == "chat" and m["text"].startswith("END|")
            }
            if got >= want:
                break
            assert loop.time() < end, (who, sorted(want - got))
            await asyncio.sleep(0.05)
    await settle(recs)


async def run_game(
    server: Server, api: httpx.AsyncClient, n: int, steps: int, stats: dict[str, int]
) -> None:
    tokens = {}
    for who in [*SEATS, SPECTATOR, "creator"]:
        r = await api.post("/api/identity", json={"name": f"{who}-{n}"})
        tokens[who] = r.json()["token"]
    r = await api.post(
        "/api/games",
        headers=auth(tokens["creator"]),
        json={
            "scenario_id": SCENARIOS[n % 2],
            "mode": "overlord",
            "seed": 1000 + n,
            "layout": {"AXIS": "4", "ALLIES": "4"},
        },
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for seat in SEATS:
        r = await api.post(f"/api/games/{gid}/seats/{seat}/claim", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    url = f"{server.ws_base}/ws/games/{gid}"
    recs = {who: Recorder(url, tokens[who], who) for who in [*SEATS, SPECTATOR]}
    for rec in recs.values():
        await rec.__aenter__()
    try:
        for seat in SEATS:
            assert recs[seat].seat == seat
        spec = recs[SPECTATOR]
        k = 0

        async def post_round() -> None:
            nonlocal k
            for rec in recs.values():
                for m in reversed(rec.messages):
                    if "chat_channels" in m:
                        rec.chat_channels = m["chat_channels"]
                        break
                await rec._post_round(gid, k, always_refused(rec.who))
            k += 1

        await post_round()  # before the first move
        for seat in SEATS:  # autopilot: the bot plays, the identity keeps the seat
            r = await api.post(f"/api/games/{gid}/seats/{seat}/bot", headers=auth(tokens[seat]))
            assert r.status_code == 200, r.text
        next_post = max(steps // 6, 5)
        deadline = time.monotonic() + 240
        while spec.seq < steps and not spec.view.get("game_over"):
            assert time.monotonic() < deadline, f"game {gid} stuck at seq {spec.seq}"
            if spec.seq >= next_post:
                await post_round()
                next_post = spec.seq + max(steps // 6, 5)
            await asyncio.sleep(0.02)
        # the bots stop at the cap (BOT_MAX_SEQ); the players take their seats back
        for seat in SEATS:
            r = await api.post(f"/api/games/{gid}/seats/{seat}/claim", headers=auth(tokens[seat]))
            assert r.status_code == 200, r.text
        final = (await api.get(f"/api/games/{gid}")).json()["seq"]
        for rec in recs.values():
            await rec.wait_seq(final, timeout=60)
        # honest cap: the last batch is the one that reached it (no recorder saw a state
        # at or past the cap before the final one)
        if not spec.view.get("game_over"):
            crossed = min(
                m["seq"]
                for rec in recs.values()
                for m in rec.messages
                if m.get("type") in ("hello", "update", "sync") and m["seq"] >= steps
            )
            assert final == crossed, (gid, steps, crossed, final)
        stats["max_seq"] = max(stats.get("max_seq", 0), final)
        await post_round()  # the paused game: chat only
        # chat still in flight: an END marker after each writer's last posts arrives after
        # them (each post is published before the next message is read; the bus keeps order)
        for who, rec in recs.items():
            if who == SPECTATOR or "all" in (rec.chat_channels.get("write") or []):
                await rec.send(
                    {
                        "type": "chat",
                        "channel": "spectators" if who == SPECTATOR else "all",
                        "text": f"END|{gid}|{who}",
                    }
                )
        await ended(recs)
        stats["log_entries"] += final
    finally:
        for rec in recs.values():
            await rec.close()
        stats["reconnects"] = stats.get("reconnects", 0) + sum(r.reconnects for r in recs.values())
    counts = {k: 0 for k in ("messages", "chat", "state_messages", "card_refs", "markers")}
    await asyncio.to_thread(check_game, gid, recs, counts)  # the other games' recorders read on
    for k, v in counts.items():
        stats[k] += v
    if n == 0:
        self_test(gid, recs)


def self_test(gid: str, recs: dict[str, Recorder]) -> None:
    """The checker catches planted leaks (a C-in-C's hand card in a Field General's stream,
    another side's chat, a foreign secret)."""
    import copy

    cinc_hello = recs["ALLIES:cinc"].messages[0]
    card = cinc_hello["view"]["sides"]["ALLIES"]["hand"][0]
    plants = [
        (
            "ALLIES:left",
            {**recs["ALLIES:left"].messages[0], "legal": [{"type": "x", "card": card["id"]}]},
        ),
        (
            "AXIS:centre",
            {
                "type": "chat",
                "id": 1,
                "channel": "side:ALLIES",
                "seat": "ALLIES:left",
                "name": "x",
                "text": "hi",
                "ts": "",
            },
        ),
        (
            "ALLIES:right",
            {
                **recs["ALLIES:right"].messages[0],
                "events": [
                    {
                        "type": "card_drawn",
                        "secret": {"cards": [card]},
                        "secret_to": ["ALLIES:cinc"],
                    }
                ],
            },
        ),
        (
            SPECTATOR,
            {
                "type": "chat",
                "id": 2,
                "channel": "pair:AXIS:left",
                "seat": "AXIS:cinc",
                "name": "x",
                "text": "hi",
                "ts": "",
            },
        ),
    ]
    for who, msg in plants:
        fake = {w: copy.copy(r) for w, r in recs.items()}
        fake[who].messages = [*recs[who].messages, msg]
        with pytest.raises(AssertionError):
            check_game(
                gid,
                fake,
                {k: 0 for k in ("messages", "chat", "state_messages", "card_refs", "markers")},
            )


def scan(obj: Any, who: str, k1: Any = None, k2: Any = None) -> None:
    """No seed / RNG / deck order; a ``secret`` only for its ``secret_to``; a ``hand``
    only the C-in-C's own (``...sides.<his side>.hand``).  k1, k2: parent keys."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in FORBIDDEN_KEYS or (k == "deck" and not isinstance(v, str)):
                raise AssertionError((who, k, v))
            if k == "secret" and who not in (obj.get("secret_to") or []):
                raise AssertionError((who, "secret", obj))
            if k == "hand" and not (
                who.endswith(":cinc") and k1 == who.split(":")[0] and k2 == "sides"
            ):
                raise AssertionError((who, "hand", k2, k1))
            if k != "board" and isinstance(v, (dict, list)):
                scan(v, who, k, k1)
    elif isinstance(obj, list):
        for v in obj:
            if isinstance(v, (dict, list)):
                scan(v, who, k1, k2)


def explain(m: dict[str, Any], leak: set[int], owners: dict[str, set[int]]) -> list[str]:
    """Where the leaked ids appear in the message, and whose private cards they are."""
    out = [f"{w} holds {sorted(ids)}" for w, ids in owners.items() if ids]
    for path, key, val, parent in walk(m):
        if (
            isinstance(val, int)
            and val in leak
            and (key == "card" or (key == "id" and "name" in parent))
        ):
            out.append(path)
    return out[:20]


def check_game(gid: str, recs: dict[str, Recorder], stats: dict[str, int]) -> None:
    # ---- per-seq ground truth from each owner's own stream
    by_seq: dict[str, dict[int, dict[str, Any]]] = {w: {} for w in recs}
    for who, rec in recs.items():
        for m in rec.messages:
            if m.get("type") in ("hello", "update", "sync"):
                by_seq[who][m["seq"]] = m

    priv = {w: {s: private_of(w, m) for s, m in ms.items()} for w, ms in by_seq.items()}

    def private_at(who: str, lo: int, hi: int) -> set[int]:
        out: set[int] = set()
        for s in range(lo, hi + 1):
            out |= priv[who].get(s, set())
        return out

    spec_msgs = [
        m for m in recs[SPECTATOR].messages if m.get("type") in ("hello", "update", "sync")
    ]

    spec_ids = [(m.get("first_seq", m["seq"]), m["seq"], card_ids(m)) for m in spec_msgs]
    memo: dict[tuple[int, int], set[int]] = {}

    def public_at(lo: int, hi: int) -> set[int]:
        """What the spectator saw of the batches lo..hi (its updates may span several
        batches when it sits on another worker: any message overlapping the range)."""
        if (lo, hi) not in memo:
            hit = [ids for f, t, ids in spec_ids if f <= hi and t >= lo]
            if not hit:  # the spectator got a sync over this range: its neighbours
                hit = [ids for f, t, ids in spec_ids if t < lo][-1:] + [
                    ids for f, t, ids in spec_ids if f > hi
                ][:1]
            memo[lo, hi] = set().union(*hit)
        return memo[lo, hi]

    markers: dict[str, set[str]] = {}
    for who, rec in recs.items():
        me = actor_of(who)
        assert rec.messages and rec.messages[0]["type"] == "hello"
        for m in rec.messages:
            stats["messages"] += 1
            t = m.get("type")
            if t == "chat":
                stats["chat"] += 1
                assert may_read(me, m["channel"]), (who, m)  # cross-side / spectator leak
                text = m["text"]
                assert not text.startswith("NO|"), (who, m)  # a refused post was delivered
                if text.startswith("LK|"):
                    markers.setdefault(text, set()).add(who)
                continue
            scan(m, who)
            if t not in ("hello", "update", "sync"):
                continue
            hi = m["seq"]
            lo = m.get("first_seq", hi)
            visible = card_ids(m)
            # ``view.played`` is the same for every seat (engine/view.py: no redaction); the
            # spectator oracle can lack the seq when it sat on the other worker
            visible -= card_ids((m.get("view") or {}).get("played"))
            if who == SPECTATOR:
                secret = set().union(*(private_at(w, lo, hi) for w in SEATS))
                leak = visible & (secret - public_at(lo, hi))
            else:
                owners = [w for w in SEATS if w != who]
                secret = set().union(*(private_at(w, lo, hi) for w in owners))
                own = private_of(who, m) | private_at(who, lo, hi)
                if who.endswith(":cinc"):  # his own FGs' cards are his dispatch
                    side = who.split(":")[0]
                    own |= set().union(*(private_at(f"{side}:{r}", lo, hi) for r in ROLES[1:]))
                leak = visible & (secret - own - public_at(lo, hi))
            assert not leak, repr(
                (
                    gid,
                    who,
                    m["type"],
                    lo,
                    hi,
                    sorted(leak),
                    explain(m, leak, {w: private_at(w, lo, hi) & leak for w in SEATS}),
                )
            )
            stats["state_messages"] += 1
            stats["card_refs"] += len(visible)
    # ---- each delivered marker reached exactly its channel's readers
    for text, got in markers.items():
        channel = text.split("|")[3]
        readers = {w for w in recs if may_read(actor_of(w), channel)}
        assert got == readers, (text, sorted(got), sorted(readers))
        stats["markers"] += 1


async def _leak(server: Server, games: int, steps: int) -> dict[str, int]:
    stats = {
        "games": games,
        "log_entries": 0,
        "messages": 0,
        "state_messages": 0,
        "chat": 0,
        "markers": 0,
        "card_refs": 0,
    }
    sem = asyncio.Semaphore(int(os.environ.get("LEAK_CONCURRENCY", "10")))
    # no keep-alive: a pooled connection that uvicorn closes (idle 5 s, as this busy client
    # sees its responses late) while a request goes out on it fails ("Server disconnected")
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=server.base, timeout=60, limits=limits) as api:

        async def one(n: int) -> None:
            async with sem:
                await run_game(server, api, n, steps, stats)

        await asyncio.gather(*(one(n) for n in range(games)))
    return stats


STEPS = int(os.environ.get("LEAK_STEPS", "60"))


@pytest.fixture(scope="module", params=["sqlite", "pg"])
def leak_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A server of its own: its bots stop at the step cap."""
    with backend(
        request.param, tmp_path_factory.mktemp("leakdb"), {"BOT_MAX_SEQ": str(STEPS)}
    ) as srv:
        yield srv


async def test_overlord_leaks(leak_server: Server) -> None:
    kind = leak_server.kind  # type: ignore[attr-defined]
    games = int(os.environ.get("LEAK_GAMES", "50"))
    if games <= 0:
        pytest.skip("no leak games asked for")
    t0 = time.monotonic()
    stats = await _leak(leak_server, games, STEPS)
    stats["seconds"] = int(time.monotonic() - t0)
    print(f"\nleak test [{kind}]: {stats}")
    assert stats["markers"] > games * 5 and stats["card_refs"] > 0
