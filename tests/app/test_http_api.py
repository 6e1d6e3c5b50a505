"""HTTP API against a real uvicorn (sqlite and PostgreSQL+Redis backends)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from .helpers import SCENARIO, auth, claim, create_game, new_identity

ROOT = Path(__file__).resolve().parents[2]
PEGASUS = (ROOT / "scenarios" / f"{SCENARIO}.m44").read_text("utf-8")


def err(r: httpx.Response) -> str:
    return str(r.json()["error"]["code"])


def test_identity_token_cookie_and_bearer(api: httpx.Client) -> None:
    r = api.post("/api/identity", json={"name": "  Monty  "})
    assert r.status_code == 201
    body = r.json()
    assert body["name"] == "Monty" and len(body["token"]) >= 43
    assert r.cookies.get("overlord_token") == body["token"]
    assert api.get("/api/identity/me", headers=auth(body["token"])).json()["name"] == "Monty"
    with httpx.Client(base_url=str(api.base_url), cookies={"overlord_token": body["token"]}) as c:
        assert c.get("/api/identity/me").json()["id"] == body["id"]
    assert err(api.get("/api/identity/me")) == "unauthenticated"
    assert api.get("/api/identity/me", headers=auth("nope")).status_code == 401
    r = api.post("/api/identity", json={"name": "   "})
    assert r.status_code == 422 and err(r) == "validation_error"


def test_bundled_scenarios(api: httpx.Client) -> None:
    listed = api.get("/api/scenarios").json()
    bundled = {s["id"]: s for s in listed if s["source"] == "bundled"}
    assert len(bundled) == 11  # with WOTW-FallOfLondon1940 and the three lessons' boards
    peg = bundled[SCENARIO]
    assert peg["name"] and peg["starting_side"] == "ALLIES" and peg["modes"] == ["1v1", "team"]
    assert bundled["13-OmahaBeachOverlord"]["modes"][0] == "overlord"
    detail = api.get(f"/api/scenarios/{SCENARIO}").json()
    assert detail["board"]["rows"] == 9 and detail["board"]["hexes"]
    assert err(api.get("/api/scenarios/nope")) == "scenario_not_found"


def test_scenario_summaries_name_battles_and_rules_examples(api: httpx.Client) -> None:
    """Issue 40, point 4: each scenario says whether it is a battle or a rules example (no
    victory conditions and no briefing in its text: a board drawn to show a rule), and
    what the lobby's one-line summary needs: date, front, medals to win, subtitle."""
    bundled = {s["id"]: s for s in api.get("/api/scenarios").json() if s["source"] == "bundled"}
    assert bundled["1096-HillsExamplesOfLineOfSight"]["kind"] == "rules_example"
    assert {k for k, s in bundled.items() if s["kind"] == "tutorial"} == {
        "tutorial-m44-first-battle",
        "tutorial-overlord-first-turn",
        "tutorial-fastplay-first-turn",
    }
    assert {s["kind"] for k, s in bundled.items() if not k.startswith(("1096-", "tutorial-"))} == {
        "battle"
    }
    peg = bundled[SCENARIO]
    assert (peg["date"], peg["front"], peg["victory"]) == (
        "1944-06-06",
        "western",
        {"AXIS": 4, "ALLIES": 4},
    )
    assert bundled["5913-BattleOfProkhorovka"]["subtitle"] == "Unternehmen Zitadelle"


def test_upload_valid_and_unknown_codes(api: httpx.Client) -> None:
    data = json.loads(PEGASUS)
    data["text"] = {"en": {"name": "Pegasus (uploaded copy)"}}
    raw = json.dumps(data).encode()
    tok = new_identity(api, "uploader")  # uploads need a signed-in identity
    r = api.post("/api/scenarios", files={"file": ("copy.m44", raw)})
    assert r.status_code == 401 and err(r) == "unauthenticated"
    r = api.post("/api/scenarios", files={"file": ("copy.m44", raw)}, headers=auth(tok))
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    assert sid.startswith("up-") and r.json()["source"] == "uploaded"
    assert (
        api.post("/api/scenarios", files={"file": ("copy.m44", raw)}, headers=auth(tok)).json()[
            "id"
        ]
        == sid
    )
    assert sid in {s["id"] for s in api.get("/api/scenarios").json()}
    g = create_game(api, tok, scenario_id=sid)
    assert g["scenario_id"] == sid

    bad = json.loads(PEGASUS)
    bad["board"]["hexagons"][0]["terrain"] = {"name": "lavaXYZ"}
    bad["board"]["hexagons"][1]["unit"] = {"name": "zorg"}
    before = len(api.get("/api/scenarios").json())
    r = api.post(
        "/api/scenarios", files={"file": ("bad.m44", json.dumps(bad).encode())}, headers=auth(tok)
    )
    assert r.status_code == 422
    e = r.json()["error"]
    assert e["code"] == "unknown_codes"
    unknown = {(u["slot"], u["code"]): u["hexes"] for u in e["details"]["unknown"]}
    assert unknown[("terrain", "lavaXYZ")] == [[0, 0]]
    assert unknown[("unit", "zorg")] == [[0, 2]]
    assert "lavaXYZ" in e["message"]
    r = api.post("/api/scenarios", files={"file": ("x.m44", b"{not json")}, headers=auth(tok))
    assert r.status_code == 422 and err(r) == "invalid_json"
    assert len(api.get("/api/scenarios").json()) == before


def test_games_seats_invites(api: httpx.Client) -> None:
    a, b, c = (new_identity(api, n) for n in ("A", "B", "C"))
    r = api.post("/api/games", json={"scenario_id": SCENARIO, "mode": "3v5"}, headers=auth(a))
    assert r.status_code == 422 and err(r) == "unknown_mode"
    r = api.post("/api/games", json={"scenario_id": "nope"}, headers=auth(a))
    assert r.status_code == 404 and err(r) == "scenario_not_found"
    assert err(api.post("/api/games", json={"scenario_id": SCENARIO})) == "unauthenticated"

    g = create_game(api, a, seat="AXIS")
    gid = g["id"]
    assert g["status"] == "open" and g["to_act"] == ["ALLIES"]  # first side from the scenario
    assert {s["seat"] for s in g["seats"]} == {"AXIS", "ALLIES"}
    assert [s["mine"] for s in g["seats"] if s["seat"] == "AXIS"] == [True]
    assert gid in {x["id"] for x in api.get("/api/games?status=open").json()}
    assert err(claim(api, b, gid, "AXIS")) == "seat_taken"
    assert err(claim(api, b, gid, "RUSSIANS")) == "seat_not_found"
    r = claim(api, b, gid, "ALLIES")
    assert r.status_code == 200 and r.json()["status"] == "live"
    assert gid in {x["id"] for x in api.get("/api/games?status=live").json()}
    assert gid not in {x["id"] for x in api.get("/api/games?status=open").json()}
    # leave and re-join
    assert err(api.post(f"/api/games/{gid}/seats/ALLIES/leave", headers=auth(c))) == "not_seated"
    r = api.post(f"/api/games/{gid}/seats/ALLIES/leave", headers=auth(b))
    assert r.json()["status"] == "live"  # a game that started stays live (issue 34)
    assert claim(api, b, gid, "ALLIES").json()["status"] == "live"
    # a finished game's log only
    r = api.get(f"/api/games/{gid}/log")
    assert r.status_code == 409 and err(r) == "game_not_finished"
    assert err(api.get("/api/games/g_nope")) == "game_not_found"
    assert err(api.get("/api/games?status=weird")) == "bad_request"

    # private game: the invite is needed; /join redirects to the game page
    p = create_game(api, a, private=True)
    assert err(claim(api, c, p["id"], "ALLIES")) == "invite_required"
    assert err(claim(api, c, p["id"], "ALLIES", invite="wrong")) == "invite_required"
    assert claim(api, c, p["id"], "ALLIES", invite=p["invite"]).status_code == 200
    assert api.get(f"/api/invites/{p['invite']}").json() == {"game_id": p["id"]}
    r = api.get(p["invite_url"], follow_redirects=False)
    assert (
        r.status_code == 303 and r.headers["location"] == f"/games/{p['id']}?invite={p['invite']}"
    )
    assert api.get("/join/not-a-code").status_code == 404


def test_pages_docs_static(api: httpx.Client) -> None:
    tok = new_identity(api, "Pagey")
    g = create_game(api, tok, seat="AXIS")
    assert api.get("/").status_code == 200
    with httpx.Client(base_url=str(api.base_url), cookies={"overlord_token": tok}) as c:
        r = c.get(f"/games/{g['id']}")
    assert r.status_code == 200 and g["id"] in r.text
    assert tok not in r.text  # the token travels only in the cookie
    assert api.get("/docs").status_code == 200
    paths = api.get("/openapi.json").json()["paths"]
    assert "/api/games/{game_id}/seats/{seat}/claim" in paths
    assert api.get("/static/does-not-exist.js").status_code == 404
    # the client's modules are asked again on every load (no old module beside a new one)
    js = api.get("/static/lobby.js")
    assert js.status_code == 200 and js.headers["cache-control"] == "no-cache"
    again = api.get("/static/lobby.js", headers={"If-None-Match": js.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"


def test_optional_rules_listed_chosen_and_refused(api: httpx.Client) -> None:
    """GET /api/options is the engine's registry; a game created with options carries them;
    a bad value or an unknown rule is refused with its code and no game is created."""
    rules = {r["name"]: r for r in api.get("/api/options").json()}
    assert rules["infantry_charge"]["implemented"] is True
    assert rules["blitzkrieg"]["values"] == ["AXIS", "ALLIES"]
    assert "heavy_armour" in rules["extra_unit_types"]["unit_types"]
    assert all(r["implemented"] for r in rules.values())  # army_manoeuvres was the last
    tok = new_identity(api, "Options")
    assert rules["demoralisation"]["example"] and "example" not in rules["infantry_charge"]
    g = create_game(api, tok, options={"infantry_charge": True, "blitzkrieg": "AXIS"})
    assert g["options"] == {"infantry_charge": True, "blitzkrieg": "AXIS"}
    g = create_game(api, tok, options={"demoralisation": {"AXIS": 1}, "weather": "FOG"})
    assert g["options"] == {"demoralisation": {"AXIS": 1}, "weather": "FOG"}
    before = len(api.get("/api/games?status=open,live,finished").json())
    for options, code in (
        ({"blitzkrieg": "nobody"}, "invalid_option_value"),
        ({"extra_unit_types": {"tankger": "flying_tank"}}, "invalid_option_value"),
        ({"demoralisation": True}, "invalid_option_value"),
        ({"weather": "SUNNY"}, "invalid_option_value"),
        ({"no_such_rule": True}, "unknown_option"),
    ):
        r = api.post(
            "/api/games",
            json={"scenario_id": SCENARIO, "mode": "1v1", "options": options},
            headers=auth(tok),
        )
        assert r.status_code in (400, 422) and err(r) == code, (options, r.text)
    assert len(api.get("/api/games?status=open,live,finished").json()) == before


def test_upload_without_units_is_refused(api: httpx.Client) -> None:
    """A board without hexagons, without units, or with one side without units is not a
    battle: 422 ``scenario_no_units`` at upload (it used to load and end at turn 1 as a
    win for the side with units)."""
    before = len(api.get("/api/scenarios").json())
    no_axis = json.loads(PEGASUS)
    no_axis["board"]["hexagons"] = [
        h
        for h in no_axis["board"]["hexagons"]
        if not (h.get("unit") or {}).get("name", "").endswith("ger")
    ]
    no_units = json.loads(PEGASUS)
    for h in no_units["board"]["hexagons"]:
        h.pop("unit", None)
    no_hexes = json.loads(PEGASUS)
    no_hexes["board"]["hexagons"] = []
    tok = new_identity(api, "uploader")  # uploads need a signed-in identity
    for data, sides in (
        (no_axis, ["AXIS"]),
        (no_units, ["AXIS", "ALLIES"]),
        (no_hexes, ["AXIS", "ALLIES"]),
    ):
        r = api.post(
            "/api/scenarios",
            files={"file": ("empty.m44", json.dumps(data).encode())},
            headers=auth(tok),
        )
        assert r.status_code == 422, r.text
        e = r.json()["error"]
        assert e["code"] == "scenario_no_units" and sorted(e["details"]["sides"]) == sorted(sides)
        assert "units" in e["message"] or "hexagons" in e["message"]
    assert len(api.get("/api/scenarios").json()) == before
