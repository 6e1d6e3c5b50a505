"""Remote-play endings for rulesets other than Memoir '44 (engine/meta.py through each
ruleset's ``conclude``), on the real server: a portable battle and a france1944 session
resigned over the websocket end with the other side winning, the exported log folds to
the same result, and an undo is refused with ``undo_not_supported``."""
from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

import engine.rulesets  # noqa: F401
from engine.core.ruleset import get
from engine.meta import fold

from .conftest import Server
from .helpers import WS, auth, claim, new_identity
from .test_remote_play import request

CASES = {"portable": ("RED", "BLUE", {"turn_limit": "8"}),
         "france1944": ("ALLIED", "GERMAN", {"turns": 1})}


@pytest.fixture
def sapi(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=20) as c:
        c.event_hooks["response"] = [lambda r: c.cookies.clear()]
        yield c


@pytest.mark.parametrize("name", sorted(CASES))
async def test_resign_over_the_websocket(server: Server, sapi: httpx.Client, name: str) -> None:
    first, second, options = CASES[name]
    ta, tb = new_identity(sapi, f"{name} one"), new_identity(sapi, f"{name} two")
    r = sapi.post("/api/games", json={"ruleset": name, "seed": 9, "options": options,
                                      "seat": first}, headers=auth(ta))
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert claim(sapi, tb, gid, second).status_code == 200
    assert sapi.get(f"/api/games/{gid}").json()["status"] == "live"
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
    g = sapi.get(f"/api/games/{gid}").json()
    assert g["status"] == "finished" and g["winner"] == second
    log = sapi.get(f"/api/games/{gid}/log").json()
    assert log["actions"][-1]["action"]["type"] == "resign"
    rs = get(name)
    entries = [(a["seq"], a["seat"], a["action"]) for a in log["actions"]]
    st = fold(rs.new_game(log["rng_seed"], log["options"]), entries, rs.apply, ruleset=rs).state
    assert rs.is_over(st) and rs.result(st)["winner"] == second
    replay = sapi.get(f"/api/games/{gid}/replay").json()
    assert replay["winner"] == second and replay["steps"][-1]["view"]["game_over"]
