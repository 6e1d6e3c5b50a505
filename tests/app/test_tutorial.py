"""The standard game's tutorial (issue 40, point 1): its dice seed gives the lesson as
written (scripts/tutorial_seed.py plays it through the engine), and the API starts it as
a game against the server's bot, in the lesson's seat, with that seed."""

from __future__ import annotations

import importlib.util

import httpx

from app.tutorial import TUTORIALS, tutorial_of

from .conftest import ROOT
from .helpers import auth, new_identity


def lesson_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "tutorial_seed", ROOT / "scripts" / "tutorial_seed.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_seed_gives_the_lesson() -> None:
    """One flag and one hit in the first battle (the German unit retreats to the only
    free hex, the Allied unit takes ground), the Axis without a card pass, the second
    battle eliminates the German unit: a medal and the battle won by the Allies."""
    events = lesson_script().run(TUTORIALS["m44"].seed)
    types = [e["type"] for e in events]
    assert types.count("unit_retreated") == 1 and "ground_taken" in types
    assert "turn_passed" in types
    over = next(e for e in events if e["type"] == "game_over")
    assert over["winner"] == "ALLIES"


def test_another_seed_may_not() -> None:
    """The search is needed: some seeds do not give the lesson (seed 0 does not)."""
    mod = lesson_script()
    try:
        mod.run(0)
    except mod.Off:
        return
    raise AssertionError("seed 0 gives the lesson too: the check above proves nothing")


def test_start_the_tutorial(api: httpx.Client) -> None:
    token = new_identity(api, "Cadet")
    r = api.post("/api/tutorials/m44", headers=auth(token))
    assert r.status_code == 201, r.text
    g = r.json()
    assert g["scenario_id"] == TUTORIALS["m44"].scenario_id
    seats = {s["seat"]: s for s in g["seats"]}
    assert seats["ALLIES"]["mine"] and seats["AXIS"]["is_bot"]
    assert tutorial_of(g["scenario_id"]) == "m44"
    page = api.get(f"/games/{g['id']}").text
    assert 'data-tutorial="m44"' in page
    bad = api.post("/api/tutorials/nope", headers=auth(token))
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "tutorial_not_found"
    # the lesson's board is not among the battles of the lobby
    listed = {s["id"]: s for s in api.get("/api/scenarios").json()}
    assert listed[TUTORIALS["m44"].scenario_id]["kind"] == "tutorial"
