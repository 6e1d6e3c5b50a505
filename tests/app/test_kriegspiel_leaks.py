"""LEAK TEST for 004 Kriegspiel (option ``kriegspiel``): bot-played games through the real
server, every websocket message and HTTP response to each player, to a spectator of each
side (``?watch=SIDE``) and to a plain spectator recorded and checked against what that side
could see (a spectator, watching a side or not: what BOTH sides see while the game is live,
since the same person may be a player on another connection).

Per game: the players claim their slots, connect, hand their seats to the server's bot
(autopilot) and record until the game is over; three spectators record too (no token:
public, watch AXIS, watch ALLIES).  The finished game's log (``GET /log``: seed and actions)
is replayed with the engine, giving the state at every seq: the ground truth.  For each
state message (``hello`` / ``update`` / ``sync``) covering log entries ``lo..hi``:

* the view's units (and every held seat's ``views``) are exactly the units on the side's
  board at ``hi`` (``kriegspiel.shown``: its own and the detected enemy units; a plain
  spectator: the units both sides see);
* the events and ``legal`` name no unit outside the side's own and the units it detected
  at some state of ``lo-1..hi``;
* no card identity outside the side's own hands and plays (a plain spectator: none), no
  ``fog`` annotation, no ``secret`` outside its ``secret_to``;

until the final seq, where the finished game shows everything; the server's final view
equals the replay's (replay == live).  ``GET /events`` (players, watchers, spectator) is
checked the same way per entry.  Env: ``KS_GAMES`` (games per mode and backend, default 1).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from typing import Any

import httpx
import pytest

from engine.core.ruleset import get as get_ruleset
from engine.core.scenario import load_scenario
from engine.rulesets.m44.cards import CARDS
from engine.rulesets.m44.options.kriegspiel import detected, shown

from .conftest import Server, backend
from .helpers import WS, auth

SIDES = ("AXIS", "ALLIES")
UNIT = re.compile(r'"(u\d+)"')
GAMES = int(os.environ.get("KS_GAMES", "1"))


@pytest.fixture(scope="module", params=["sqlite", "pg"])
def ks_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """SQLite, one worker; PostgreSQL + Redis, two workers (catch-up rebuilt from the log
    on the worker that did not accept a batch, with the watcher's side)."""
    with backend(request.param, tmp_path_factory.mktemp("ksdb"), {"BOT_DELAY": "0.005"}) as srv:
        yield srv


def dicts(obj: Any) -> Any:
    """Every dict inside ``obj`` (the static board skipped)."""
    if isinstance(obj, dict):
        yield obj
        for k, v in obj.items():
            if k != "board":
                yield from dicts(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from dicts(v)


def card_ids(obj: Any, out: set[int]) -> set[int]:
    out.update(
        d["id"] for d in dicts(obj) if isinstance(d.get("id"), int) and "name" in d and "kind" in d
    )
    return out


def no_fog_or_foreign_secret(obj: Any, seats: list[str]) -> None:
    for d in dicts(obj):
        assert not isinstance(d.get("fog"), dict) or "side" in d["fog"], d
        if "secret" in d:
            assert set(seats) & set(d.get("secret_to") or []), d


class Truth:
    """The replayed states of a finished game (``states[k]``: after log entry k)."""

    def __init__(self, log: dict[str, Any]) -> None:
        rs = get_ruleset(log["ruleset"])
        st = rs.new_game(
            log["rng_seed"], log["options"], load_scenario(log["scenario"]), log["mode"]
        )
        self.states = [st]
        self.actions = [e["action"] for e in log["actions"]]
        for e in log["actions"]:
            st, _ = rs.apply(st, e["action"])
            self.states.append(st)
        self.rs = rs

    def side_units(self, side: str, lo: int, hi: int) -> set[str]:
        return {
            u.id for st in self.states[lo : hi + 1] for u in st.units.values() if u.side == side
        }

    def seen(self, side: str | None, lo: int, hi: int) -> set[str]:
        """Unit ids the side may be told of over states lo..hi."""
        out: set[str] = set()
        for st in self.states[lo : hi + 1]:
            out |= shown(st, side) if side is None else detected(st, side)
        return out | (self.side_units(side, lo, hi) if side else set())

    def cards(self, side: str | None, lo: int, hi: int) -> set[int]:
        out: set[int] = set()
        if side is None:
            return out
        for st in self.states[lo : hi + 1]:
            out |= set(st.hands[side]) | {p.card for p in st.plays if p.side == side}
            if st.active == side:
                out |= set(st.recon_cards)
        for k in range(max(lo, 1), hi + 1):
            a = self.actions[k - 1]
            if (
                a.get("type") == "play_card"
                and isinstance(a.get("card"), int)
                and CARDS[a["card"]].key == "counter_attack"
            ):
                # a Counter-Attack tells its player the card it copies (docs/rules-coverage)
                out |= {c["src"] for s, c in self.states[k - 1].last_card.items() if s != side}
        return out


def check_state(
    truth: Truth,
    who: str,
    side: str | None,
    seats: list[str],
    lo: int,
    hi: int,
    view: dict[str, Any] | None,
    views: dict[str, Any] | None,
    events: list[dict[str, Any]],
    legal: list[dict[str, Any]],
) -> int:
    """One message (or log entry range) of ``who`` (side ``side``); returns units checked."""
    no_fog_or_foreign_secret({"v": view, "vs": views, "e": events, "l": legal}, seats)
    final = truth.states[hi]
    if final.game_over:
        return 0
    n = 0
    for v in [view, *(views or {}).values()]:
        if v is None:
            continue
        got = {u["id"] for u in v["units"]}
        assert got == set(shown(final, side)), (who, hi, sorted(got ^ shown(final, side)))
        n += len(got)
    allowed = truth.seen(side, max(lo - 1, 0), hi)
    leaked = (
        set(UNIT.findall(json.dumps([events, legal, view, views])))
        - allowed
        - set(shown(final, side))
    )
    assert not leaked, (who, lo, hi, sorted(leaked), events)
    cards = card_ids([view, views, events, legal], set()) - truth.cards(side, max(lo - 1, 0), hi)
    assert not cards, (
        who,
        lo,
        hi,
        sorted(cards),
        events,
        (view or {}).get("played"),
        (view or {}).get("pending"),
    )
    return n


async def play_game(server: Server, api: httpx.AsyncClient, n: int, mode: str) -> dict[str, int]:
    tokens: dict[str, str] = {}
    body: dict[str, Any] = {
        "scenario_id": "2-PegasusBridge",
        "seed": 500 + n,
        "options": {"kriegspiel": True},
    }
    if mode == "team":
        body.update(mode="team", layout={"AXIS": "1", "ALLIES": "2"})
    r = await api.post("/api/identity", json={"name": f"creator-{n}"})
    creator = r.json()["token"]
    r = await api.post("/api/games", headers=auth(creator), json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    summary = (await api.get(f"/api/games/{gid}")).json()
    slots: dict[str, list[str]] = {}
    for s in summary["seats"]:
        slots.setdefault(s["slot"], []).append(s["seat"])
    for slot, seats in slots.items():
        r = await api.post("/api/identity", json={"name": f"p{n}-{slot}"})
        tokens[slot] = r.json()["token"]
        r = await api.post(f"/api/games/{gid}/seats/{seats[0]}/claim", headers=auth(tokens[slot]))
        assert r.status_code == 200, r.text
    url = f"{server.ws_base}/ws/games/{gid}"
    recs: dict[str, WS] = {slot: WS(url, tok) for slot, tok in tokens.items()}
    recs["spectator"] = WS(url)
    for side in SIDES:
        recs[f"watch:{side}"] = WS(f"{url}?watch={side}")
    for rec in recs.values():
        await rec.__aenter__()
    # a player may not watch the other side (his token holds a seat); an unknown side is
    # refused: both get the public / own view instead
    slot0 = next(iter(tokens))
    enemy = "ALLIES" if slot0.startswith("AXIS") else "AXIS"
    for probe, code in (
        (WS(f"{url}?watch={enemy}", tokens[slot0]), "watch_refused"),
        (WS(f"{url}?watch=NOBODY"), "invalid_watch"),
    ):
        await probe.__aenter__()
        await probe.close()
        hello = next(m for m in probe.messages if m["type"] == "hello")
        assert [m["code"] for m in probe.messages if m["type"] == "error"] == [code]
        assert hello["watch"] is None
    assert hello["seat"] is None and recs["watch:AXIS"].messages[0]["watch"] == "AXIS"
    for slot, seats in slots.items():
        r = await api.post(f"/api/games/{gid}/seats/{seats[0]}/bot", headers=auth(tokens[slot]))
        assert r.status_code == 200, r.text
    spec = recs["spectator"]
    deadline = time.monotonic() + 300
    midway: dict[str, Any] = {}
    while not spec.view.get("game_over"):
        assert time.monotonic() < deadline, f"game {gid} stuck at seq {spec.seq}"
        if not midway and spec.seq >= 40:  # the HTTP event log of a running game
            for who in [*tokens, "spectator", "watch:AXIS", "watch:ALLIES"]:
                params = {"watch": who.split(":")[1]} if who.startswith("watch:") else {}
                headers = auth(tokens[who]) if who in tokens else {}
                r = await api.get(f"/api/games/{gid}/events", params=params, headers=headers)
                assert r.status_code == 200, r.text
                midway[who] = r.json()
        await asyncio.sleep(0.1)
    final = (await api.get(f"/api/games/{gid}")).json()["seq"]
    for rec in recs.values():
        await rec.wait_seq(final, timeout=60)
        await rec.close()
    log = (await api.get(f"/api/games/{gid}/log")).json()
    truth = await asyncio.to_thread(Truth, log)
    assert truth.states[-1].game_over
    # replay == live: the finished game's public view is the replay's
    live = spec.view
    assert live == json.loads(json.dumps(truth.rs.view_for(truth.states[-1], None)))
    stats = {"messages": 0, "units": 0, "entries": 0}
    last_view: dict[str, Any] = {}
    for who, rec in recs.items():
        side = None if who.startswith(("watch:", "spectator")) else who.partition(":")[0]
        for m in rec.messages:
            if m.get("type") not in ("hello", "update", "sync"):
                continue
            seats = m.get("my_seats") or ([] if who.startswith(("watch", "spec")) else [])
            if not seats and who in slots:
                seats = slots[who]
            hi = m["seq"]
            lo = m.get("first_seq", hi)
            if os.environ.get("KS_DEBUG"):
                with open("/tmp/ks_debug.jsonl", "a") as f:
                    f.write(json.dumps({"who": who, "m": m}) + "\n")
            if m["type"] == "update" and not truth.states[hi].game_over:
                # the opponent learns neither which enemy general acted (team play) nor
                # that unseen orders were given (no update without news)
                actor = m.get("actor")
                assert not (
                    isinstance(actor, str)
                    and ":" in actor
                    and side is not None
                    and not actor.startswith(side + ":")
                ), (who, actor)
                assert side is not None or not (isinstance(actor, str) and ":" in actor)
                assert m["events"] or m["view"] != last_view.get(who), (who, lo, hi)
            if m.get("view") is not None:
                last_view[who] = m["view"]
            stats["units"] += check_state(
                truth,
                who,
                side,
                seats or slots.get(who, []),
                lo,
                hi,
                m.get("view"),
                m.get("views"),
                m.get("events") or [],
                m.get("legal") or [],
            )
            stats["messages"] += 1
    if n == 0:  # the checker catches a planted leak
        m = next(
            m
            for m in recs["watch:AXIS"].messages
            if m.get("type") == "update"
            and not truth.states[m["seq"]].game_over
            and set(truth.side_units("ALLIES", m["seq"], m["seq"]))
            - truth.seen("AXIS", m["first_seq"] - 1, m["seq"])
        )
        hidden = sorted(
            set(truth.side_units("ALLIES", m["seq"], m["seq"]))
            - truth.seen("AXIS", m["first_seq"] - 1, m["seq"])
        )[0]
        with pytest.raises(AssertionError):
            check_state(
                truth,
                "watch:AXIS",
                None,
                [],
                m["first_seq"],
                m["seq"],
                m["view"],
                None,
                [{"type": "unit_moved", "unit": hidden}],
                [],
            )
    running = {w: g for w, g in midway.items() if g["seq"] < final}
    assert running or not midway, "the game ended before the event log was read"
    for who, got in running.items():  # the running game's HTTP event log
        side = None if who.startswith(("watch:", "spectator")) else who.partition(":")[0]
        for e in got["entries"]:
            check_state(
                truth, who, side, got["seats"], e["seq"], e["seq"], None, None, e["events"], []
            )
            assert not (
                ":" in (e["seat"] or "") and not (side and e["seat"].startswith(side + ":"))
            ), (who, e["seat"])  # no enemy general named
            stats["entries"] += 1
    # the finished game's HTTP event log: whole, for everybody
    for who in [*tokens, "spectator", "watch:AXIS", "watch:ALLIES"]:
        params = {"watch": who.split(":")[1]} if who.startswith("watch:") else {}
        headers = auth(tokens[who]) if who in tokens else {}
        r = await api.get(f"/api/games/{gid}/events", params=params, headers=headers)
        assert r.status_code == 200, r.text
        side = None if who.startswith(("watch:", "spectator")) else who.partition(":")[0]
        for e in r.json()["entries"]:
            assert not any("fog" in ev for ev in e["events"])
        stats["entries"] += len(r.json()["entries"])
    # while running, the same endpoint gives each side what it saw (checked per entry by
    # the websocket streams above); a finished game's log is shown whole
    r = await api.get(
        f"/api/games/{gid}/events", params={"watch": "AXIS"}, headers=auth(tokens[slot0])
    )
    assert r.status_code == 400 and "invalid_watch" in r.text
    return stats


async def test_kriegspiel_leaks(ks_server: Server) -> None:
    if GAMES <= 0:
        pytest.skip("no games asked for")
    totals = {"messages": 0, "units": 0, "entries": 0}
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=ks_server.base, timeout=60, limits=limits) as api:

        async def forget(_: httpx.Response) -> None:  # tokens only: no identity cookie
            api.cookies.clear()

        api.event_hooks["response"] = [forget]
        for n in range(GAMES):
            for mode in ("1v1", "team"):
                for k, v in (await play_game(ks_server, api, n, mode)).items():
                    totals[k] += v
    print(f"\nkriegspiel leak test: {totals}")
    assert totals["units"] > 0 and totals["messages"] > 0
