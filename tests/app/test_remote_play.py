"""Remote play (issue 15): resign, undo, presence and the absence policy of 1v1 games,
against a real uvicorn and the real engine.  Every outcome is a log entry that a replay
folds exactly as the live game did (engine.meta)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from engine import load_scenario

from .conftest import Server, backend
from .helpers import WS, auth, two_player_game


@pytest.fixture(scope="module", params=["sqlite", "pg"])
def quick(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A server whose absence grace is 1.5 s: SQLite (one worker) or PostgreSQL + Redis
    (two workers: presence, undo and clocks across workers)."""
    with backend(
        request.param, tmp_path_factory.mktemp("remote"), {"BOT_GRACE_SECONDS": "1.5"}
    ) as srv:
        yield srv


@pytest.fixture
def qapi(quick: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=quick.base, timeout=20) as c:
        c.event_hooks["response"] = [lambda r: c.cookies.clear()]
        yield c


def url(server: Server, gid: str) -> str:
    return f"{server.ws_base}/ws/games/{gid}"


async def request(ws: WS, msg: dict[str, Any]) -> dict[str, Any]:
    ws._n += 1
    mid = f"r{ws._n}"
    await ws.send({**msg, "id": mid})
    while True:
        m = await ws.expect("ack", "reject", "error")
        if m.get("id") == mid or m["type"] == "__closed__":
            return m


def replayed(api: httpx.Client, gid: str) -> Any:
    """The exported log folded by the engine (``engine.meta.fold``), as any verifier would."""
    from engine import get_ruleset
    from engine.meta import fold

    log = api.get(f"/api/games/{gid}/log").json()
    rs = get_ruleset(log["ruleset"])
    scn = load_scenario(log["scenario"])
    entries = [(a["seq"], a["seat"], a["action"]) for a in log["actions"]]
    st = rs.new_game(log["rng_seed"], log["options"], scn, log["mode"])
    return log, fold(st, entries, rs.apply).state


async def test_resign_ends_the_game_in_the_log(quick: Server, qapi: httpx.Client) -> None:
    gid, toks = two_player_game(qapi, seed=None)  # committed dice: verifiable
    async with (
        WS(url(quick, gid), toks["AXIS"]) as ax,
        WS(url(quick, gid), toks["ALLIES"]) as al,
        WS(url(quick, gid)) as spec,
    ):
        assert spec.messages[0]["presence"]["spectators"] == 1
        r = await request(ax, {"type": "resign"})
        assert r["type"] == "ack", r
        await al.wait_seq(r["seq"])
        await spec.wait_seq(r["seq"])
        upd = [m for m in al.messages if m["type"] == "update"][-1]
        over = [e for e in upd["events"] if e["type"] == "game_over"]
        assert over and over[0]["winner"] == "ALLIES" and over[0]["reason"] == "resign"
        assert upd["status"] == "finished" and al.view["game_over"]
        again = await request(al, {"type": "resign"})
        assert again["type"] == "reject" and again["code"] == "game_over"
    g = qapi.get(f"/api/games/{gid}").json()
    assert g["status"] == "finished" and g["winner"] == "ALLIES"
    log, st = replayed(qapi, gid)
    assert log["actions"][-1]["action"]["type"] == "resign"
    assert st.game_over and st.winner == "ALLIES"
    # the dice verification folds the resign entry too (engine.fairdice.verify)
    from engine import verify_log

    assert verify_log(log).ok, verify_log(log).to_dict()


async def test_spectator_cannot_resign(quick: Server, qapi: httpx.Client) -> None:
    gid, _ = two_player_game(qapi, seed=7)
    async with WS(url(quick, gid)) as spec:
        r = await request(spec, {"type": "resign"})
        assert r["type"] == "reject" and r["code"] == "not_seated"


async def test_undo_a_card_until_dice(quick: Server, qapi: httpx.Client) -> None:
    gid, toks = two_player_game(qapi, seed=7)
    async with WS(url(quick, gid), toks["AXIS"]) as ax, WS(url(quick, gid), toks["ALLIES"]) as al:
        first = al if "ALLIES" in al.view["to_act"] else ax
        other = ax if first is al else al
        side = first.seat
        hand0 = [c["id"] for c in first.view["sides"][side]["hand"]]
        assert first.messages[0]["undo"] is None
        nothing = await request(first, {"type": "undo"})
        assert nothing["type"] == "reject" and nothing["code"] == "nothing_to_undo"
        play = next(a for a in first.legal if a["type"] == "play_card")
        r = await first.act(play)
        assert r["type"] == "ack"
        await first.wait_seq(r["seq"])
        upd = [m for m in first.messages if m["type"] == "update"][-1]
        assert upd["undo"] == r["seq"]  # the card play may be taken back
        assert len(first.view["sides"][side]["hand"]) == len(hand0) - 1
        # the opponent cannot undo it
        theirs = await request(other, {"type": "undo"})
        assert theirs["type"] == "reject" and theirs["code"] == "nothing_to_undo"
        u = await request(first, {"type": "undo"})
        assert u["type"] == "ack" and u["seq"] == r["seq"] + 1
        await first.wait_seq(u["seq"])
        await other.wait_seq(u["seq"])
        assert sorted(c["id"] for c in first.view["sides"][side]["hand"]) == sorted(hand0)
        upd = [m for m in other.messages if m["type"] == "update"][-1]
        assert any(e["type"] == "undone" and e["undoes"] == r["seq"] for e in upd["events"])
        # play on until dice are rolled: nothing before the roll can be taken back
        for _ in range(60):
            if any(
                m["type"] == "update"
                and any(e["type"] in ("dice_rolled", "roll") for e in m["events"])
                for m in first.messages
            ):
                break
            me = first if first.legal else other
            if not me.legal:
                await asyncio.sleep(0.05)
                continue
            kinds = [a for a in me.legal if a["type"] in ("battle", "play_card")] or me.legal
            rr = await me.act(kinds[0])
            assert rr["type"] == "ack", rr
            await first.wait_seq(rr["seq"])
            await other.wait_seq(rr["seq"])
        else:
            raise AssertionError("no dice were rolled")
        rolled_seq = first.seq
        for w in (first, other):
            assert [m for m in w.messages if m["type"] == "update"][-1]["undo"] is None
        late = await request(first, {"type": "undo"})
        assert late["type"] == "reject" and late["code"] == "nothing_to_undo"
    # a cold start (restart: the log without snapshots of undone steps) gives the same state
    ev = qapi.get(f"/api/games/{gid}/events?since=0").json()
    assert ev["seq"] == rolled_seq
    assert any(e["type"] == "undone" for en in ev["entries"] for e in en["events"])
    view_live = first.view
    quick.restart()
    async with WS(url(quick, gid), toks[side]) as again:
        assert again.seq == rolled_seq
        assert again.view["sides"][side]["hand"] == view_live["sides"][side]["hand"]
        assert again.view["units"] == view_live["units"]


async def test_presence_and_claim_win(quick: Server, qapi: httpx.Client) -> None:
    gid, toks = two_player_game(qapi, seed=7)
    async with WS(url(quick, gid), toks["ALLIES"]) as al:
        ax = WS(url(quick, gid), toks["AXIS"])
        await ax.__aenter__()
        pres = al.messages[0]["presence"]
        assert {s["seat"]: s["state"] for s in pres["seats"]}["ALLIES"] == "online"
        m = await al.expect("presence")
        while {s["seat"]: s["state"] for s in m["seats"]}["AXIS"] != "online":
            m = await al.expect("presence")
        early = await request(al, {"type": "claim_win"})
        assert early["type"] == "reject" and early["code"] == "opponent_present"
        await ax.close()  # the Axis player closes his tab
        states = []
        while "gone" not in states:
            m = await al.expect("presence", timeout=10)
            states.append({s["seat"]: s["state"] for s in m["seats"]}["AXIS"])
        assert states[0] == "away"
        # hand the seat to a bot; the absent player comes back and takes it again
        r = await request(al, {"type": "absent_bot"})
        assert r["type"] == "ack", r
        seats = await al.expect("seats")
        axis = next(s for s in seats["seats"] if s["seat"] == "AXIS")
        assert axis["is_bot"] and axis["bot_reason"] == "away" and axis["held_by"] == "Axis player"
        async with WS(url(quick, gid), toks["AXIS"]) as back:
            for _ in range(20):
                s2 = await al.expect("seats")
                if not next(s for s in s2["seats"] if s["seat"] == "AXIS")["is_bot"]:
                    break
            assert back.seat == "AXIS"
        # gone again: claim the win
        states = []
        while "gone" not in states:
            m = await al.expect("presence", timeout=10)
            states.append({s["seat"]: s["state"] for s in m["seats"]}["AXIS"])
        r = await request(al, {"type": "claim_win"})
        assert r["type"] == "ack", r
        await al.wait_seq(r["seq"])
        assert al.view["game_over"] and al.view["winner"] == "ALLIES"
    log, st = replayed(qapi, gid)
    last = log["actions"][-1]
    assert last["action"]["type"] == "forfeit" and last["seat"] == "AXIS"
    assert st.winner == "ALLIES"


def timed_game(
    api: httpx.Client, clock: dict[str, Any], seed: int = 7
) -> tuple[str, dict[str, str]]:
    from .helpers import claim, create_game, new_identity

    ta, tb = new_identity(api, "Axis player"), new_identity(api, "Allied player")
    g = create_game(api, ta, seed=seed, seat="AXIS", clock=clock)
    assert g["clock"]["kind"] == clock["kind"]
    assert claim(api, tb, g["id"], "ALLIES").status_code == 200
    return g["id"], {"AXIS": ta, "ALLIES": tb}


def test_clock_settings_are_validated(quick: Server, qapi: httpx.Client) -> None:
    from .helpers import new_identity

    tok = new_identity(qapi, "Clockmaker")
    r = qapi.post(
        "/api/games",
        json={"scenario_id": "2-PegasusBridge", "clock": {"kind": "hourglass"}},
        headers=auth(tok),
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    r = qapi.post(
        "/api/games",
        json={"scenario_id": "2-PegasusBridge", "clock": {"kind": "move", "move_seconds": 1}},
        headers=auth(tok),
    )
    assert r.status_code == 422


async def test_move_clock_time_out_loses(quick: Server, qapi: httpx.Client) -> None:
    gid, toks = timed_game(qapi, {"kind": "move", "move_seconds": 5, "on_timeout": "lose"})
    async with WS(url(quick, gid), toks["ALLIES"]) as al, WS(url(quick, gid), toks["AXIS"]) as ax:
        clock = al.messages[0]["clock"]
        first = al.view["to_act"][0]
        assert clock["kind"] == "move" and clock["running"] == [first]
        assert 0 < clock["remaining"][first] <= 5
        for _ in range(200):
            if al.view.get("game_over"):
                break
            await asyncio.sleep(0.05)
        over = [
            e
            for m in al.messages
            if m["type"] == "update"
            for e in m["events"]
            if e["type"] == "game_over"
        ]
        assert over and over[0]["reason"] == "timeout" and over[0]["loser"] == first
        assert al.messages[-1]["clock"]["running"] == [] or al.view["game_over"]
    log, st = replayed(qapi, gid)
    assert log["actions"][-1]["action"]["type"] == "timeout"
    assert st.winner != first and st.winner is not None


async def test_bank_clock_survives_a_restart_and_bot_on_timeout(
    quick: Server, qapi: httpx.Client
) -> None:
    gid, toks = timed_game(
        qapi, {"kind": "bank", "initial_seconds": 10, "increment_seconds": 2, "on_timeout": "bot"}
    )
    async with WS(url(quick, gid), toks["ALLIES"]) as al, WS(url(quick, gid), toks["AXIS"]) as ax:
        first = al.view["to_act"][0]
        me = al if first == "ALLIES" else ax
        await asyncio.sleep(1.0)
        r = await me.act(next(a for a in me.legal if a["type"] == "play_card"))
        assert r["type"] == "ack"
        await me.wait_seq(r["seq"])
        left = [m for m in me.messages if m["type"] == "update"][-1]["clock"]["remaining"][first]
        assert 7.0 < left < 9.5
    quick.restart()
    async with WS(url(quick, gid), toks["ALLIES"]) as al:
        clock = al.messages[0]["clock"]
        assert clock["running"] == [first]
        assert clock["remaining"][first] < left  # still running, from the log
        seq0 = al.seq
        # out of time: the bot decides for the seat; the game goes on
        for _ in range(300):
            if any(m["type"] == "update" and m.get("actor") == first for m in al.messages):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the bot did not play for the seat out of time")
        assert al.seq > seq0 and not al.view["game_over"]


async def test_replay_steps_end_where_the_live_game_did(quick: Server, qapi: httpx.Client) -> None:
    gid, toks = two_player_game(qapi, seed=7)
    assert qapi.get(f"/api/games/{gid}/replay").json()["error"]["code"] == "game_not_finished"
    async with (
        WS(url(quick, gid), toks["AXIS"]) as ax,
        WS(url(quick, gid), toks["ALLIES"]) as al,
        WS(url(quick, gid)) as spec,
    ):
        first = al if "ALLIES" in al.view["to_act"] else ax
        r = await first.act(next(a for a in first.legal if a["type"] == "play_card"))
        await first.wait_seq(r["seq"])
        u = await request(first, {"type": "undo"})
        assert u["type"] == "ack"
        await first.wait_seq(u["seq"])
        r = await first.act(next(a for a in first.legal if a["type"] == "play_card"))
        await first.wait_seq(r["seq"])
        res = await request(first, {"type": "resign"})
        await spec.wait_seq(res["seq"])
        final = spec.view
    rp = qapi.get(f"/api/games/{gid}/replay").json()
    steps = rp["steps"]
    assert [s["seat"] for s in steps][1:] == [first.seat] * 4
    assert steps[-1]["view"] == final  # replay == live
    assert steps[2]["events"][0]["type"] == "undone"
    assert steps[2]["view"] == steps[0]["view"]  # the card play taken back
    assert rp["board"]["name"] and rp["winner"] != first.seat


async def test_return_match_swaps_sides_and_sums_medals(quick: Server, qapi: httpx.Client) -> None:
    gid, toks = two_player_game(qapi, seed=7)
    a, b = toks["AXIS"], toks["ALLIES"]
    async with WS(url(quick, gid), a) as ax:
        assert (await request(ax, {"type": "resign"}))["type"] == "ack"
    # b offers the return match; a's own "return match" accepts it: the game starts
    r = qapi.post(f"/api/games/{gid}/rematch", headers=auth(b))
    assert r.status_code == 201, r.text
    assert r.json()["status"] == "pending" and r.json()["game_id"] is None
    again = qapi.post(f"/api/games/{gid}/rematch", headers=auth(a))
    assert again.status_code == 200 and again.json()["status"] == "accepted"
    g2 = qapi.get(f"/api/games/{again.json()['game_id']}").json()
    assert g2["rematch_of"] == gid and g2["status"] == "live"
    names = {s["seat"]: s["held_by"] for s in g2["seats"]}
    assert names == {"AXIS": "Allied player", "ALLIES": "Axis player"}
    m = qapi.get(f"/api/games/{g2['id']}/match").json()
    assert m["first"] == gid and m["second"] == g2["id"] and not m["finished"]
    async with WS(url(quick, g2["id"]), b) as bx:  # b now plays the Axis
        assert bx.seat == "AXIS"
        assert (await request(bx, {"type": "resign"}))["type"] == "ack"
    m = qapi.get(f"/api/games/{gid}/match").json()
    assert m["finished"]
    per = {p["name"]: p for p in m["players"]}
    assert per["Axis player"]["wins"] == 1 and per["Allied player"]["wins"] == 1
    v1 = m["games"][0]["sides"]["ALLIES"]["medals"]  # b won game 1 as the Allies
    v2 = m["games"][1]["sides"]["ALLIES"]["medals"]  # a won game 2 as the Allies
    assert per["Allied player"]["medals"] == v1 and per["Axis player"]["medals"] == v2
    if v1 == v2:
        assert m["winner"] is None and m["decided_by"] == "draw"
    else:
        assert m["winner"] == ("Allied player" if v1 > v2 else "Axis player")
    bad = qapi.post(f"/api/games/{g2['id']}/rematch", headers=auth(a))
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "rematch_unavailable"
