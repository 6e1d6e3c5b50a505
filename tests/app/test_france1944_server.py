"""A France 1944 referee session (ruleset ``france1944``, setup ``none``) played on the
server by its bots to the end: the finished log replays through the ruleset to the same
session, every die included (fair dice: the server rolls with ``sample_chance``)."""

from __future__ import annotations

import time

import httpx

import engine.rulesets  # noqa: F401  (fills the registry)
from engine.core.ruleset import get

from .helpers import auth, new_identity


def test_bots_play_a_session_to_the_end_and_the_log_replays(api: httpx.Client) -> None:
    token = new_identity(api, "Referee tester")
    r = api.post(
        "/api/games",
        json={
            "ruleset": "france1944",
            "seed": 5,
            "options": {"turns": 1},
            "bots": ["ALLIED", "GERMAN"],
        },
        headers=auth(token),
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    deadline = time.monotonic() + 60
    while api.get(f"/api/games/{gid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the session"
        time.sleep(0.2)
    log = api.get(f"/api/games/{gid}/log").json()
    assert log["ruleset"] == "france1944" and log["scenario_id"] is None
    rs = get("france1944")
    st = rs.new_game(log["rng_seed"], log["options"])  # the engine seed (test seed)
    for entry in log["actions"]:
        st, _ = rs.apply(st, entry["action"])
    assert rs.is_over(st)
    events = api.get(f"/api/games/{gid}/events").json()
    shown = [e for entry in events["entries"] for e in entry.get("events", [])]
    assert [e["type"] for e in shown] == [e["type"] for e in st["log"]]


def test_preview_of_a_declaration_before_it_is_made(api: httpx.Client) -> None:
    """The attacker sees the odds and shifts before a declaration that cannot be
    changed or cancelled: ``POST /api/rulesets/france1944/preview``, nothing applied."""
    decl = {
        "type": "declare_combat",
        "attackers": ["a"],
        "attack_hexes": ["0101"],
        "defenders": ["d"],
        "defence_hexes": ["0102"],
        "attack_strength": 9,
        "defence_strength": 6,
        "attacker_morale": 2,
        "defender_morale": 5,
    }
    r = api.post(
        "/api/rulesets/france1944/preview",
        json={"options": {"control_limits": {"2": 4}}, "action": decl},
    )
    assert r.status_code == 200, r.text
    a = r.json()["preview"]["assessment"]
    assert (a["odds"], a["combat_modifier"], a["final_odds"]) == ("3-2", -3, "1-2")
    r = api.post(
        "/api/rulesets/france1944/preview",
        json={"options": {}, "action": {**decl, "attack_strength": 1}},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "odds_below_1_4"
    r = api.post("/api/rulesets/m44/preview", json={"action": decl})
    assert r.status_code == 422 and r.json()["error"]["code"] == "no_preview"
