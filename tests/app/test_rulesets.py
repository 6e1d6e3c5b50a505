"""The server drives every game through the engine's ruleset registry: the lobby lists the
rulesets, a game of each registered ruleset is created through the API, old clients'
``{scenario_id, mode}`` bodies still pick m44 / overlord, and the 0004 migration gives old
rows their ruleset."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import httpx

from engine.core import ruleset as registry

from tests.app.conftest import PY, ROOT, Server
from tests.app.helpers import WS, auth, new_identity


def _scenario_for(api: httpx.Client, name: str) -> tuple[str, str] | None:
    """A bundled scenario the ruleset accepts and its natural mode (None: none accepted)."""
    for s in api.get("/api/scenarios").json():
        modes = (s.get("rulesets") or {}).get(name)
        if modes:
            return s["id"], modes[0]
    return None


def test_rulesets_listed(api: httpx.Client) -> None:
    r = api.get("/api/rulesets")
    assert r.status_code == 200, r.text
    listed = {x["name"]: x for x in r.json()}
    assert set(listed) == set(registry.names())
    m44 = listed["m44"]
    assert m44["setup"] == "scenario" and m44["renderer"] == "hex" and m44["modes"] == ["1v1"]
    assert {o["name"] for o in m44["options"]} >= {"no_retreat", "weather"}
    assert listed["overlord"]["modes"] == ["overlord", "team"]
    for x in listed.values():
        assert x["title"] and x["summary"] and x["version"]
        assert x["setup"] in ("scenario", "none")


def test_scenarios_name_their_rulesets(api: httpx.Client) -> None:
    by_id = {s["id"]: s for s in api.get("/api/scenarios").json()}
    assert by_id["2-PegasusBridge"]["rulesets"] == {
        "m44": ["1v1"],
        "overlord": ["team"],
        "fastplay": ["1v1"],
    }
    assert by_id["2-PegasusBridge"]["modes"] == ["1v1", "team"]
    assert by_id["13-OmahaBeachOverlord"]["rulesets"] == {"overlord": ["overlord"]}


def test_create_a_game_of_every_ruleset(api: httpx.Client) -> None:
    token = new_identity(api, "Ruleset tester")
    for rs in api.get("/api/rulesets").json():
        body: dict[str, Any] = {"ruleset": rs["name"], "seed": 5, "bots": []}
        if rs["setup"] == "scenario":
            found = _scenario_for(api, rs["name"])
            assert found is not None, f"no bundled scenario for {rs['name']}"
            body["scenario_id"], body["mode"] = found
        r = api.post("/api/games", json=body, headers=auth(token))
        assert r.status_code == 201, (rs["name"], r.text)
        g = r.json()
        assert g["ruleset"] == rs["name"] and g["renderer"] == rs["renderer"]
        assert g["ruleset_version"] == rs["version"]
        assert g["seats"] and g["status"] == "open"
        if rs["setup"] == "none":
            assert g["scenario_id"] is None
        got = api.get(f"/api/games/{g['id']}").json()
        assert got["ruleset"] == rs["name"]
        page = api.get(f"/games/{g['id']}")
        assert page.status_code == 200
        assert f'data-renderer="{rs["renderer"]}"' in page.text


def test_old_clients_get_the_natural_ruleset(api: httpx.Client) -> None:
    token = new_identity(api, "Old client")
    cases = [
        ({"scenario_id": "2-PegasusBridge"}, "m44", "1v1"),
        ({"scenario_id": "2-PegasusBridge", "mode": "1v1"}, "m44", "1v1"),
        ({"scenario_id": "2-PegasusBridge", "mode": "team"}, "overlord", "team"),
        ({"scenario_id": "13-OmahaBeachOverlord"}, "overlord", "overlord"),
    ]
    for body, rs, mode in cases:
        r = api.post("/api/games", json={**body, "seed": 3}, headers=auth(token))
        assert r.status_code == 201, r.text
        assert (r.json()["ruleset"], r.json()["mode"]) == (rs, mode)
    bad = [
        ({"scenario_id": "13-OmahaBeachOverlord", "mode": "1v1"}, "unknown_mode"),
        ({"ruleset": "m44", "scenario_id": "13-OmahaBeachOverlord"}, "unknown_mode"),
        ({"ruleset": "m44"}, "scenario_required"),
        ({}, "invalid_options"),
        ({"ruleset": "no-such-rules", "scenario_id": "2-PegasusBridge"}, "unknown_ruleset"),
    ]
    for body, code in bad:
        r = api.post("/api/games", json=body, headers=auth(token))
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["code"] == code, (body, r.text)


def test_migration_0004_gives_old_rows_their_ruleset(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{db}"}

    def alembic(*args: str) -> None:
        subprocess.run(
            [PY, "-m", "alembic", *args], cwd=ROOT, env=env, check=True, capture_output=True
        )

    alembic("upgrade", "0003")
    con = sqlite3.connect(db)
    now = "2026-01-01 00:00:00"
    con.execute(
        "INSERT INTO scenarios (id, name, source, sha256, content, created_at) "
        "VALUES ('s', 'S', 'bundled', 'x', '{}', ?)",
        (now,),
    )
    for gid, mode in (("g1", "1v1"), ("g2", "team"), ("g3", "overlord")):
        con.execute(
            "INSERT INTO games (id, scenario_id, scenario_name, mode, engine_mode, "
            "options, seed, private, invite_code, status, seq, to_act, created_at, "
            "updated_at) VALUES (?, 's', 'S', ?, 'standard', '{}', 1, 0, ?, 'open', 0, "
            "'[]', ?, ?)",
            (gid, mode, "inv" + gid, now, now),
        )
    con.commit()
    con.close()
    alembic("upgrade", "head")
    con = sqlite3.connect(db)
    rows = dict(con.execute("SELECT id, ruleset FROM games").fetchall())
    assert rows == {"g1": "m44", "g2": "overlord", "g3": "overlord"}
    con.execute(
        "INSERT INTO games (id, ruleset, scenario_id, scenario_name, mode, options, "
        "seed, private, invite_code, status, seq, to_act, created_at, updated_at) "
        "VALUES ('g4', 'portable', NULL, 'P', '1v1', '{}', 1, 0, 'inv4', 'open', 0, "
        "'[]', ?, ?)",
        (now, now),
    )
    con.commit()
    con.close()


async def test_the_client_panels_are_the_rulesets_declaration(
    server: Server, api: httpx.Client
) -> None:
    """The hex page shows the Fast Play, Overlord, fog and variant panels because the
    ruleset declares them (``Ruleset.panels``, in ``GET /api/rulesets`` and in every
    ``hello``), not by guessing from the view."""
    listed = {x["name"]: x["panels"] for x in api.get("/api/rulesets").json()}
    assert listed == {rs.name: list(rs.panels) for rs in registry.all_rulesets()}
    assert listed["fastplay"] == ["fastplay"]
    assert "overlord" in listed["overlord"] and "overlord" not in listed["m44"]
    assert "fog" in listed["m44"] and "variants" in listed["m44"]
    assert listed["portable"] == [] and listed["france1944"] == []
    for name in ("m44", "fastplay", "portable"):
        body: dict[str, Any] = {"ruleset": name, "seed": 5, "bots": []}
        found = _scenario_for(api, name)
        if found:
            body["scenario_id"], body["mode"] = found
        r = api.post("/api/games", json=body, headers=auth(new_identity(api, f"Panels {name}")))
        assert r.status_code == 201, r.text
        async with WS(f"{server.ws_base}/ws/games/{r.json()['id']}") as spec:
            assert spec.messages[0]["type"] == "hello"
            assert spec.messages[0]["panels"] == listed[name]
            assert spec.messages[0]["bots_stand_in"] is False


def _scenario_in_mode(api: httpx.Client, name: str, mode: str) -> str:
    """A bundled scenario the ruleset accepts in ``mode``."""
    for s in api.get("/api/scenarios").json():
        if mode in ((s.get("rulesets") or {}).get(name) or []):
            return str(s["id"])
    raise AssertionError(f"no bundled scenario for {name} {mode}")


async def test_panels_and_stand_in_bots_per_mode(server: Server, api: httpx.Client) -> None:
    """The panels and the stand-in bots are the ruleset's declaration per mode
    (``Ruleset.panels_for`` / ``bots_stand_in``): Overlord's 004 Team Play has no C-in-C
    dispatch, so no ``overlord`` panel; its two modes share role seats among a team, so a
    bot stands in for a player who leaves; no other ruleset's mode does."""
    listed = {x["name"]: x for x in api.get("/api/rulesets").json()}
    for rs in registry.all_rulesets():
        got = listed[rs.name]
        assert got["mode_panels"] == {m: list(rs.panels_for(m)) for m in rs.modes}
        assert got["stand_in_modes"] == [m for m in rs.modes if rs.bots_stand_in(m)]
    assert listed["overlord"]["mode_panels"] == {
        "overlord": ["overlord", "fog", "variants"],
        "team": ["fog", "variants"],
    }
    assert listed["overlord"]["stand_in_modes"] == ["overlord", "team"]
    assert all(listed[n]["stand_in_modes"] == [] for n in listed if n != "overlord")
    for mode, panels in (
        ("overlord", ["overlord", "fog", "variants"]),
        ("team", ["fog", "variants"]),
    ):
        body = {
            "ruleset": "overlord",
            "mode": mode,
            "scenario_id": _scenario_in_mode(api, "overlord", mode),
            "seed": 5,
            "bots": [],
        }
        r = api.post("/api/games", json=body, headers=auth(new_identity(api, f"Panels {mode}")))
        assert r.status_code == 201, r.text
        async with WS(f"{server.ws_base}/ws/games/{r.json()['id']}") as spec:
            hello = spec.messages[0]
            assert hello["type"] == "hello" and hello["mode"] == mode
            assert hello["panels"] == panels and hello["bots_stand_in"] is True
