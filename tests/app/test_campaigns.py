"""Campaigns (004 Simplified Campaign Rules) through the API: a campaign creates its
first battle as an ordinary game, records the result when the game ends, starts the next
battle with the pre-battle dice as the game's option ``campaign``, and survives a
server restart."""

from __future__ import annotations

import time

import httpx

from tests.app.conftest import Server
from tests.app.helpers import auth, new_identity


def _wait_finished(api: httpx.Client, game_id: str, timeout: float = 120.0) -> dict:
    end = time.time() + timeout
    while time.time() < end:
        g = api.get(f"/api/games/{game_id}").json()
        if g["status"] == "finished":
            return g
        time.sleep(0.3)
    raise AssertionError(f"game {game_id} did not finish")


def test_campaign_battles_results_dice_and_restart(api: httpx.Client, server: Server) -> None:
    token = new_identity(api, "Campaigner")
    r = api.post(
        "/api/campaigns",
        headers=auth(token),
        json={
            "name": "Normandy",
            "scenario_ids": ["2-PegasusBridge", "2-PegasusBridge"],
            "bots": ["AXIS", "ALLIES"],
        },
    )
    assert r.status_code == 201, r.text
    c = r.json()
    assert [b["index"] for b in c["battles"]] == [0] and c["next"] is None
    first = c["battles"][0]["game_id"]
    assert api.get(f"/api/games/{first}").json()["options"] == {}
    r = api.post(f"/api/campaigns/{c['id']}/next", headers=auth(token))
    assert r.status_code == 409 and r.json()["error"]["code"] == "battle_not_finished"
    g = _wait_finished(api, first)
    c = api.get(f"/api/campaigns/{c['id']}").json()
    b0 = c["battles"][0]
    assert b0["medals"] is not None and b0["winner"] == g["winner"]
    wins = c["wins"]
    want = {s: b0["medals"][s] + wins[s] for s in ("AXIS", "ALLIES")}
    assert c["next"]["dice"] == want and c["next"]["index"] == 1
    server.restart()  # the campaign is stored
    with httpx.Client(base_url=server.base, timeout=30) as api2:
        c2 = api2.get(f"/api/campaigns/{c['id']}").json()
        assert c2["battles"] == c["battles"] and c2["next"] == c["next"]
        r = api2.post(f"/api/campaigns/{c['id']}/next", headers=auth(token))
        assert r.status_code == 200, r.text
        c3 = r.json()
        second = c3["battles"][1]
        assert second["dice"] == want
        opts = api2.get(f"/api/games/{second['game_id']}").json()["options"]
        assert opts.get("campaign") == (want if any(want.values()) else None)
        assert api2.get("/api/campaigns").json()[0]["id"] == c["id"]
        assert api2.get(f"/campaigns/{c['id']}").status_code == 200


def test_campaign_refused_bodies(api: httpx.Client) -> None:
    token = new_identity(api, "Campaigner 2")
    r = api.post(
        "/api/campaigns",
        headers=auth(token),
        json={"name": "x", "scenario_ids": ["2-PegasusBridge"], "seat": "AXIS", "bots": ["AXIS"]},
    )
    assert r.status_code == 422
    r = api.post("/api/campaigns", headers=auth(token), json={"name": "x", "scenario_ids": []})
    assert r.status_code == 422
    assert api.get("/api/campaigns/c_nothing").status_code == 404


def test_campaign_takes_the_rulesets_that_declare_campaigns(api: httpx.Client) -> None:
    """The campaign's ruleset is any ruleset whose entry says ``campaign`` (the ruleset's
    ``supports_campaign``); another one is refused and nothing is created."""
    token = new_identity(api, "Campaigner 3")
    listed = {r["name"]: r["campaign"] for r in api.get("/api/rulesets").json()}
    assert listed["m44"] is True and listed["fastplay"] is False
    before = len(api.get("/api/campaigns").json())
    r = api.post(
        "/api/campaigns",
        headers=auth(token),
        json={"name": "x", "ruleset": "fastplay", "scenario_ids": ["2-PegasusBridge"]},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_options"
    assert len(api.get("/api/campaigns").json()) == before
    r = api.post(
        "/api/campaigns",
        headers=auth(token),
        json={"name": "y", "ruleset": "m44", "scenario_ids": ["2-PegasusBridge"]},
    )
    assert r.status_code == 201 and r.json()["ruleset"] == "m44"
