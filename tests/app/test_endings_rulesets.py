"""Remote-play endings for rulesets other than Memoir '44 (engine/meta.py through each
ruleset's ``conclude``), on the real server: a portable battle and a france1944 session
resigned over the websocket end with the other side winning, the exported log folds to
the same result, and an undo is refused with ``undo_not_supported``; a portable player
loses on time and a win is claimed against an absent france1944 player."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import engine.rulesets  # noqa: F401
from engine.core.ruleset import get
from engine.meta import fold

from .conftest import Server, backend
from .helpers import WS, auth, claim, new_identity
from .test_remote_play import qapi, request  # noqa: F401  (qapi: a client of ``quick``)

CASES = {
    "portable": ("RED", "BLUE", {"turn_limit": "8"}),
    "france1944": ("ALLIED", "GERMAN", {"turns": 1}),
}


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A SQLite server whose absence grace is 1.5 s."""
    with backend("sqlite", tmp_path_factory.mktemp("endings"), {"BOT_GRACE_SECONDS": "1.5"}) as srv:
        yield srv


def _game(api: httpx.Client, name: str, **extra: Any) -> tuple[str, str, str]:
    """A live 2-player game of ruleset ``name``: (id, first seat's token, second's)."""
    first, second, options = CASES[name]
    ta, tb = new_identity(api, f"{name} one"), new_identity(api, f"{name} two")
    r = api.post(
        "/api/games",
        json={"ruleset": name, "seed": 9, "options": options, "seat": first, **extra},
        headers=auth(ta),
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert claim(api, tb, gid, second).status_code == 200
    assert api.get(f"/api/games/{gid}").json()["status"] == "live"
    return gid, ta, tb


def _replayed(api: httpx.Client, gid: str, name: str) -> tuple[dict[str, Any], Any]:
    log = api.get(f"/api/games/{gid}/log").json()
    rs = get(name)
    entries = [(a["seq"], a["seat"], a["action"]) for a in log["actions"]]
    return log, fold(
        rs.new_game(log["rng_seed"], log["options"]), entries, rs.apply, ruleset=rs
    ).state


@pytest.mark.parametrize("name", sorted(CASES))
async def test_resign_over_the_websocket(server: Server, api: httpx.Client, name: str) -> None:
    first, second, _ = CASES[name]
    gid, ta, tb = _game(api, name)
    base = f"{server.ws_base}/ws/games/{gid}"
    async with WS(base, ta) as one, WS(base, tb) as two:
        undo = await request(one, {"type": "undo"})
        assert undo["type"] == "reject" and undo["code"] == "undo_not_supported", undo
        res = await request(one, {"type": "resign"})
        assert res["type"] == "ack", res
        await two.wait_seq(res["seq"])
        upd = [m for m in two.messages if m["type"] == "update"][-1]
        over = [e for e in upd["events"] if e["type"] == "game_over"]
        assert over and over[0]["winner"] == second and over[0]["loser"] == first
        assert over[0]["reason"] == "resign" and upd["status"] == "finished"
        again = await request(two, {"type": "resign"})
        assert again["type"] == "reject" and again["code"] == "game_over"
    g = api.get(f"/api/games/{gid}").json()
    assert g["status"] == "finished" and g["winner"] == second
    log, st = _replayed(api, gid, name)
    assert log["actions"][-1]["action"]["type"] == "resign"
    rs = get(name)
    assert rs.is_over(st) and rs.result(st)["winner"] == second
    replay = api.get(f"/api/games/{gid}/replay").json()
    assert replay["winner"] == second and replay["steps"][-1]["view"]["game_over"]


async def test_portable_move_clock_time_out_loses(quick: Server, qapi: httpx.Client) -> None:
    gid, ta, tb = _game(
        qapi, "portable", clock={"kind": "move", "move_seconds": 5, "on_timeout": "lose"}
    )
    base = f"{quick.ws_base}/ws/games/{gid}"
    async with WS(base, ta) as one, WS(base, tb):
        first = one.view["to_act"][0]
        for _ in range(200):
            if one.view.get("game_over"):
                break
            await asyncio.sleep(0.05)
        over = [
            e
            for m in one.messages
            if m["type"] == "update"
            for e in m["events"]
            if e["type"] == "game_over"
        ]
        assert set(one.messages[0]["clock"]["remaining"]) == {"RED", "BLUE"}
        assert over and over[0]["reason"] == "timeout" and over[0]["loser"] == first
    log, st = _replayed(qapi, gid, "portable")
    assert log["actions"][-1]["action"]["type"] == "timeout"
    assert st.over and st.winner not in (None, first)
    assert qapi.get(f"/api/games/{gid}").json()["winner"] == st.winner


async def test_france1944_win_claimed_against_an_absent_player(
    quick: Server, qapi: httpx.Client
) -> None:
    gid, ta, tb = _game(qapi, "france1944")
    base = f"{quick.ws_base}/ws/games/{gid}"
    async with WS(base, tb) as two:
        one = WS(base, ta)
        await one.__aenter__()
        await one.close()  # the ALLIED player leaves
        states: list[str] = []
        while "gone" not in states:
            m = await two.expect("presence", timeout=10)
            states.append({s["seat"]: s["state"] for s in m["seats"]}["ALLIED"])
        r = await request(two, {"type": "claim_win"})
        assert r["type"] == "ack", r
        await two.wait_seq(r["seq"])
        assert two.view["game_over"] and two.view["winner"] == "GERMAN"
    log, st = _replayed(qapi, gid, "france1944")
    last = log["actions"][-1]
    assert last["action"]["type"] == "forfeit" and last["seat"] == "ALLIED"
    assert get("france1944").result(st)["winner"] == "GERMAN"
