"""Trust (issue 9) against a real uvicorn: the server's seed commitment and its reveal,
verification of a finished game's log (CLI and page), canonical actions in the log, and a
game stored by an older release (pickle snapshot, raw actions) loading after the upgrade;
a log that no longer replays is reported ``unplayable``, never a 500."""

from __future__ import annotations

import asyncio
import hashlib
import json
import pickle
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from app.error_text import ERROR_TEXT
from app.i18n import gettext_for

from engine import (
    apply,
    is_chance,
    legal_actions,
    load_scenario,
    new_game,
    sample_chance,
    to_act,
    view_for,
)
from engine.rulesets.m44.action_schema import SCHEMA

from .conftest import BASE_ENV, PY, ROOT, Server, backend
from .helpers import WS, auth, new_identity, two_player_game

PEGASUS = ROOT / "scenarios" / "2-PegasusBridge.m44"


def url(server: Server, gid: str) -> str:
    return f"{server.ws_base}/ws/games/{gid}"


def sqlite_path(server: Server) -> Path:
    return Path(server.env["DATABASE_URL"].split("///", 1)[1])


def assert_canonical(action: dict[str, Any]) -> None:
    fields = {name for name, _, _ in SCHEMA[action["type"]]}
    assert set(action) <= {"type", "seat", *fields}, action


async def test_commitment_reveal_and_verify(
    server: Server, api: httpx.Client, tmp_path: Path
) -> None:
    if server.kind != "sqlite":  # type: ignore[attr-defined]
        return  # one whole bot game is enough (the PG run checks the commitment below)
    tok = new_identity(api, "Fair")
    r = api.post("/api/games", json={"scenario_id": "2-PegasusBridge"}, headers=auth(tok))
    assert r.status_code == 201, r.text
    g = r.json()
    commit = g["fair_dice"]["commitment"]
    assert len(commit) == 64 and "seed" not in g["fair_dice"] and "salt" not in g["fair_dice"]
    assert g["ruleset_version"] and g["ruleset"] == "m44"
    assert api.get(f"/api/games/{g['id']}/log").json()["error"]["code"] == "game_not_finished"
    async with WS(url(server, g["id"])) as spec:
        hello = spec.messages[0]
        assert hello["fair_dice"] == {
            "commitment": commit,
            "verify_url": f"/games/{g['id']}/verify",
        }
        for seat in ("AXIS", "ALLIES"):
            assert (
                api.post(f"/api/games/{g['id']}/seats/{seat}/bot", headers=auth(tok)).status_code
                == 200
            )
        for _ in range(900):
            if spec.view.get("game_over"):
                break
            await asyncio.sleep(0.1)
        assert spec.view["game_over"]
    done = api.get(f"/api/games/{g['id']}").json()
    fd = done["fair_dice"]
    assert done["status"] == "finished" and fd["commitment"] == commit
    assert len(bytes.fromhex(fd["seed"])) >= 16  # >= 128 bits from secrets
    assert hashlib.sha256(bytes.fromhex(fd["seed"] + fd["salt"])).hexdigest() == commit
    log = api.get(f"/api/games/{g['id']}/log").json()
    assert (log["format"], log["commitment"], log["seed"], log["salt"]) == (
        "overlord-log/1",
        commit,
        fd["seed"],
        fd["salt"],
    )
    for e in log["actions"]:
        assert_canonical(e["action"])
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(log))
    out = subprocess.run(
        [PY, "-m", "engine", "verify", str(good)], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0 and "OK" in out.stdout, out.stdout + out.stderr
    roll = next(e for e in log["actions"] if e["seat"] == "chance" and e["seq"] > 3)
    roll["action"]["dice"] = ["flag" if f != "flag" else "star" for f in roll["action"]["dice"]]
    bad.write_text(json.dumps(log))
    out = subprocess.run(
        [PY, "-m", "engine", "verify", str(bad)], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 1 and f"seq {roll['seq']}" in out.stdout, out.stdout
    page = api.get(f"/games/{g['id']}/verify")
    assert page.status_code == 200 and 'data-ok="true"' in page.text and fd["seed"] in page.text
    # the verdict and the checks by their stable codes, in the reader's language
    fr = api.get(f"/games/{g['id']}/verify", headers={"Accept-Language": "fr"}).text
    assert 'data-code="ok"' in fr and "les dés et les tirages sont ceux" in fr
    assert "entrées du journal rejouées" in fr and "log entries replayed" not in fr


async def test_live_game_publishes_commitment_only(server: Server, api: httpx.Client) -> None:
    tok = new_identity(api, "Committed")
    g = api.post(
        "/api/games", json={"scenario_id": "2-PegasusBridge", "seat": "AXIS"}, headers=auth(tok)
    ).json()
    listed = [x for x in api.get("/api/games").json() if x["id"] == g["id"]]
    assert listed[0]["fair_dice"]["commitment"] == g["fair_dice"]["commitment"]
    assert "seed" not in json.dumps(listed[0]) and "seed" not in json.dumps(g)
    page = api.get(f"/games/{g['id']}/verify")
    assert page.status_code == 409 and "game_not_finished" in page.text
    de = api.get(f"/games/{g['id']}/verify", headers={"Accept-Language": "de"})
    assert de.status_code == 409 and "game_not_finished" in de.text
    assert str(gettext_for("de")(ERROR_TEXT["game_not_finished"])) in de.text
    again = api.post(
        "/api/games", json={"scenario_id": "2-PegasusBridge"}, headers=auth(tok)
    ).json()
    assert again["fair_dice"]["commitment"] != g["fair_dice"]["commitment"]


def test_a_client_seed_is_refused_in_production(tmp_path: Path) -> None:
    with (
        backend("sqlite", tmp_path, {"OVERLORD_TEST_SEEDS": "0"}) as srv,
        httpx.Client(base_url=srv.base, timeout=20) as api,
    ):
        tok = new_identity(api, "Cheater")
        r = api.post(
            "/api/games", json={"scenario_id": "2-PegasusBridge", "seed": 12345}, headers=auth(tok)
        )
        assert r.status_code == 403 and r.json()["error"]["code"] == "seed_not_allowed"
        r = api.post("/api/games", json={"scenario_id": "2-PegasusBridge"}, headers=auth(tok))
        assert r.status_code == 201 and len(r.json()["fair_dice"]["commitment"]) == 64


async def test_poisoned_actions_are_refused_and_the_log_is_canonical(
    server: Server, api: httpx.Client
) -> None:
    gid, toks = two_player_game(api, seed=7)
    async with WS(url(server, gid), toks["ALLIES"]) as al:
        legal = al.legal[0]
        assert legal["type"] == "play_card"
        deep: Any = 1
        for _ in range(200):
            deep = {"x": deep}
        for junk, code in [
            ({"junk": deep}, "unknown_field"),
            ({"note": "j" * 60000}, "unknown_field"),
            ({"card": 10**20}, "bad_value"),
            ({"card": "17"}, "bad_value"),
            ({"half": 7}, "bad_value"),
            ({"type": "rm_rf"}, "unknown_action"),
        ]:
            r = await al.act({**legal, **junk})
            assert r["type"] in ("reject", "error"), r
            if r["type"] == "reject":
                assert r["code"] == code, (junk.keys(), r)
        assert al.seq == 0
        r = await al.act({**legal, "half": None, "seat": "ALLIES"})  # null = absent
        assert r["type"] == "ack", r
    ev = api.get(f"/api/games/{gid}/events", headers=auth(toks["ALLIES"]))
    assert ev.status_code == 200
    if server.kind == "sqlite":  # type: ignore[attr-defined]
        with sqlite3.connect(sqlite_path(server)) as db:
            rows = db.execute("SELECT action FROM actions WHERE game_id = ?", (gid,)).fetchall()
        for (text,) in rows:
            assert len(text) < 300
            assert_canonical(json.loads(text))


# --------------------------------------------------------------- a game of an older release
def _old_release_game(
    scn_text: str, seed: int, steps: int, poison: bool
) -> tuple[list[tuple[str, dict[str, Any]]], Any, Any]:
    """The log an older release stored: raw actions as clients sent them (junk kept),
    the engine's rolls; returns (entries, state after them, state at seq 10)."""
    scn = load_scenario(scn_text)
    st = new_game(scn, seed)
    rnd = random.Random(seed)
    entries: list[tuple[str, dict[str, Any]]] = []
    at10 = None
    deep: Any = "bottom"
    for _ in range(970):
        deep = {"k": deep}
    while len(entries) < steps:
        if is_chance(st):
            a = sample_chance(st)
            raw = a
        else:
            a = rnd.choice(legal_actions(st, to_act(st)[0]))
            raw = dict(a)
            if poison and len(entries) < 4:
                raw["junk"] = deep if len(entries) % 2 else "J" * 60000
        st, _ = apply(st, a)
        entries.append((a["seat"], raw))
        if len(entries) == 10:
            at10 = st
    return entries, st, at10


def _insert_game(
    db: sqlite3.Connection,
    gid: str,
    ids: dict[str, str],
    scn_text: str,
    entries: list[tuple[str, dict[str, Any]]],
    state: Any,
) -> None:
    now = "2026-01-01 00:00:00.000000"
    view = view_for(state, None)
    db.execute(
        "INSERT INTO games (id, scenario_id, scenario_name, mode, engine_mode, options, seed,"
        " private, invite_code, status, seq, turn, to_act, winner, created_by, layout,"
        " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (
            gid,
            "2-PegasusBridge",
            "Pegasus Bridge",
            "1v1",
            "standard",
            "{}",
            7,
            0,
            "inv-" + gid,
            "live",
            len(entries),
            view["turn"],
            json.dumps(view["to_act"]),
            None,
            ids["AXIS"],
            json.dumps({"AXIS": "1", "ALLIES": "1"}),
            now,
            now,
        ),
    )
    for side in ("AXIS", "ALLIES"):
        db.execute(
            "INSERT INTO seats (game_id, seat, side, role, identity_id, is_bot, slot)"
            " VALUES (?,?,?,?,?,?,?)",
            (gid, side, side, "commander", ids[side], 0, side),
        )
    for i, (seat, action) in enumerate(entries):
        db.execute(
            "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?,?,?,?,?)",
            (gid, i + 1, seat, json.dumps(action), now),
        )


def test_game_of_an_older_release_loads_and_continues(tmp_path: Path) -> None:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    dbfile = tmp_path / "old.db"
    env = {**BASE_ENV, "DATABASE_URL": f"sqlite+aiosqlite:///{dbfile}"}
    srv = Server(env)
    subprocess.run(
        [PY, "-m", "alembic", "upgrade", "0003"],
        cwd=ROOT,
        env=srv.env,
        check=True,
        capture_output=True,
    )
    scn_text = PEGASUS.read_text(encoding="utf-8")
    toks = {"AXIS": "old-axis-token-" + "a" * 30, "ALLIES": "old-allies-token-" + "b" * 30}
    ids = {"AXIS": "i_oldaxis", "ALLIES": "i_oldallies"}
    entries, state, at10 = _old_release_game(scn_text, 7, 40, poison=True)
    broken, _, _ = _old_release_game(scn_text, 7, 12, poison=False)
    k = next(i for i, (seat, _) in enumerate(broken) if seat != "chance" and i > 2)
    wrong = "AXIS" if broken[k][0] == "ALLIES" else "ALLIES"
    broken[k] = (wrong, {**broken[k][1], "seat": wrong})  # no longer replays
    with sqlite3.connect(dbfile) as db:
        db.execute(
            "INSERT INTO scenarios (id, name, source, sha256, content, created_at) VALUES"
            " (?,?,?,?,?,?)",
            (
                "2-PegasusBridge",
                "Pegasus Bridge",
                "bundled",
                hashlib.sha256(scn_text.encode()).hexdigest(),
                scn_text,
                "2026-01-01 00:00:00.000000",
            ),
        )
        for side in ("AXIS", "ALLIES"):
            db.execute(
                "INSERT INTO identities (id, name, token_hash, created_at) VALUES (?,?,?,?)",
                (
                    ids[side],
                    side.title(),
                    hashlib.sha256(toks[side].encode()).hexdigest(),
                    "2026-01-01 00:00:00.000000",
                ),
            )
        _insert_game(db, "g_old", ids, scn_text, entries, state)
        _insert_game(db, "g_broken", ids, scn_text, broken, state)
        db.execute(
            "INSERT INTO snapshots (game_id, seq, state, created_at) VALUES (?,?,?,?)",
            ("g_old", 10, pickle.dumps(at10), "2026-01-01 00:00:00.000000"),
        )
    srv.migrate()  # -> head (0004_fairdice)
    with sqlite3.connect(dbfile) as db:
        assert db.execute("SELECT count(*) FROM snapshots").fetchone() == (0,)  # no pickle left
        sizes = [
            n for (n,) in db.execute("SELECT length(action) FROM actions WHERE game_id='g_old'")
        ]
        assert max(sizes) < 300
        assert db.execute(
            "SELECT ruleset, ruleset_version FROM games WHERE id='g_old'"
        ).fetchone() == ("m44", "1")
    srv.start()
    try:
        asyncio.run(_continue_old_game(srv, toks, len(entries)))
        snaps: list[Any] = []
        for _ in range(50):  # written after the broadcast
            with sqlite3.connect(dbfile) as db:  # the new snapshot is versioned JSON
                snaps = db.execute("SELECT state, seq FROM snapshots").fetchall()
            if snaps:
                break
            time.sleep(0.1)
        with sqlite3.connect(dbfile) as db:
            dbg = db.execute(
                "SELECT max(seq), count(*) FROM actions WHERE game_id='g_old'"
            ).fetchall()
        assert len(snaps) == 1, (srv.logs(), dbg)
        ((blob, snap_seq),) = snaps
        snap = json.loads(blob)
        assert (snap["format"], snap["ruleset"], snap["version"]) == (1, "m44", "1")
        # taken where nothing before it can be undone (issue 15: the state before the
        # current step's undoable entries), so at or before the boundary of 50
        assert snap_seq > 10
        srv.restart()  # a cold start from the JSON snapshot
        asyncio.run(_reconnect(srv, toks["AXIS"]))
        with httpx.Client(base_url=srv.base, timeout=20) as api:
            assert api.get("/api/games/g_old/events").status_code == 200
            assert api.get("/api/games/g_old/chat").status_code == 200
            r = api.get("/api/games/g_broken/events")
            assert r.status_code == 409, r.text
            err = r.json()["error"]
            assert err["code"] == "game_unplayable" and err["details"]["seq"] == k + 1
            assert err["details"]["reason"] == "not_your_turn"
            summary = api.get("/api/games/g_broken").json()
            assert summary["status"] == "unplayable" and summary["unplayable"]["seq"] == k + 1
            assert api.get("/api/games/g_broken/chat").json()["error"]["code"] == "game_unplayable"
            r = api.post(
                "/api/games/g_broken/seats/AXIS/leave",
                headers={"Authorization": f"Bearer {toks['AXIS']}"},
            )
            assert r.status_code == 409 and r.json()["error"]["code"] == "game_unplayable"
        asyncio.run(_unplayable_socket(srv))
    finally:
        srv.stop()
    assert "Traceback" not in srv.logs()


async def _continue_old_game(srv: Server, toks: dict[str, str], seq: int) -> None:
    ax = WS(url(srv, "g_old"), toks["AXIS"])
    al = WS(url(srv, "g_old"), toks["ALLIES"])
    async with ax, al:
        hello = ax.messages[0]
        assert hello["seq"] == seq and hello["ruleset_version"] == "1"
        assert hello["fair_dice"]["commitment"] is None  # older than fair dice
        while max(ax.seq, al.seq) < 56:  # past SNAPSHOT_EVERY (25) x 2
            lead = max((ax, al), key=lambda w: w.seq)
            me = ax if lead.view["to_act"][0] == "AXIS" else al
            await me.wait_seq(lead.seq)
            r = await me.act(me.legal[0])
            assert r["type"] == "ack", r
            await ax.wait_seq(r["seq"])
            await al.wait_seq(r["seq"])


async def _reconnect(srv: Server, tok: str) -> None:
    async with WS(url(srv, "g_old"), tok) as ax:
        assert ax.seq >= 56 and ax.legal is not None


async def _unplayable_socket(srv: Server) -> None:
    async with WS(url(srv, "g_broken")) as ws:  # no hello: an error, then close 4410
        await asyncio.sleep(0.2)
        assert [m["type"] for m in ws.messages] == ["error"]
        assert ws.messages[0]["code"] == "game_unplayable"
        assert ws.ws.close_code == 4410
