"""The 3x3 Portable Wargame on the real server: a game without a scenario, two bots play
it to the end (set-up included), the finished log replays through the ruleset to the same
result, and snapshots (SNAPSHOT_EVERY) of the portable state survive the round trip."""

from __future__ import annotations

import time

import httpx

import engine.rulesets  # noqa: F401
from engine.core.ruleset import get

from .helpers import auth, new_identity

R = get("portable")


def test_two_bots_play_a_portable_battle_and_the_log_replays(api: httpx.Client) -> None:
    tok = new_identity(api, "Umpire")
    r = api.post(
        "/api/games",
        json={
            "ruleset": "portable",
            "seed": 44,
            "bots": ["RED", "BLUE"],
            "options": {"turn_limit": "8", "red_army": "mahdist"},
        },
        headers=auth(tok),
    )
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["scenario_id"] is None and g["renderer"] == "square"
    assert sorted(s["seat"] for s in g["seats"]) == ["BLUE", "RED"]
    deadline = time.monotonic() + 90
    while (summary := api.get(f"/api/games/{g['id']}").json())["status"] != "finished":
        assert time.monotonic() < deadline, f"the bots did not finish: {summary}"
        time.sleep(0.3)
    log = api.get(f"/api/games/{g['id']}/log").json()
    assert log["ruleset"] == "portable" and log["scenario"] is None
    st = R.new_game(log["rng_seed"], log["options"])
    for entry in log["actions"]:
        st, _ = R.apply(st, entry["action"])
    assert R.is_over(st)
    assert summary["winner"] == log["winner"] == st.winner
    assert {e["action"]["type"] for e in log["actions"]} >= {"roll", "deploy"}
