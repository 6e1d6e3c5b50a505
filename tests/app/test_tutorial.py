"""The standard game's tutorial (issue 40, point 1): its dice seed gives the lesson as
written (scripts/tutorial_seed.py plays it through the engine), and the API starts it as
a game against the server's bot, in the lesson's seat, with that seed."""

from __future__ import annotations

import importlib.util

import httpx

from app.tutorial import TUTORIALS, lesson_move, tutorial_of

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


def play(rs, st, action):  # type: ignore[no-untyped-def]
    """Apply an action, then the dice it calls for (the state's own RNG)."""
    st, events = rs.apply(st, action)
    while rs.is_chance(st):
        st, more = rs.apply(st, rs.sample_chance(st))
        events += more
    return st, events


def lesson_game(name: str):  # type: ignore[no-untyped-def]
    from engine import get_ruleset, load_scenario

    lesson = TUTORIALS[name]
    rs = get_ruleset(lesson.ruleset)
    scn = load_scenario(ROOT / "scenarios" / f"{lesson.scenario_id}.m44")
    return rs, rs.new_game(lesson.seed, {}, scn, lesson.mode)


def test_the_overlord_lesson_deals_attack_centre() -> None:
    """The seed deals the Allied C-in-C "Attack Centre", which only the Centre Field
    General may take; played in his right half it orders the three Allied units, and
    the battle the lesson asks for hits the German unit."""
    rs, st = lesson_game("overlord")
    hand = rs.view_for(st, "ALLIES:cinc")["sides"]["ALLIES"]["hand"]
    card = next(c["id"] for c in hand if c["name"] == "Attack Centre")
    to = {a["to"] for a in rs.legal_actions(st, "ALLIES:cinc") if a.get("card") == card}
    assert to == {"centre"}
    for a in (
        {"type": "dispatch", "card": card, "to": "centre"},
        {"type": "visit", "fg": "centre"},
        {"type": "confirm_dispatch"},
    ):
        st, _ = play(rs, st, {**a, "seat": "ALLIES:cinc"})
    assert {"ALLIES:left", "ALLIES:centre", "ALLIES:right"} <= set(rs.to_act(st))
    st, _ = play(rs, st, {"type": "pass", "seat": "ALLIES:left"})
    c = "ALLIES:centre"
    st, _ = play(rs, st, {"type": "play_card", "seat": c, "card": card, "half": 1})
    ordered = [a["unit"] for a in rs.legal_actions(st, c) if a["type"] == "order"]
    assert len(ordered) == 3
    for u in ordered:
        st, _ = play(rs, st, {"type": "order", "seat": c, "unit": u})
    mover = next(u.id for u in st.units.values() if tuple(u.hex) == (6, 28))
    st, _ = play(rs, st, {"type": "move", "seat": c, "unit": mover, "to": [5, 29]})
    st, _ = play(rs, st, {"type": "end_movement", "seat": c})
    st, _ = play(rs, st, {"type": "pass", "seat": "ALLIES:right"})
    st, events = play(rs, st, {"type": "battle", "seat": c, "unit": mover, "target": [3, 29]})
    roll = next(e for e in events if e["type"] == "dice_rolled")
    assert len(roll["dice"]) == 2 and roll["hits"] >= 1
    assert any(e["type"] == "turn_started" and e["side"] == "AXIS" for e in events)


def test_the_fastplay_lesson_always_gives_its_opportunity_fire() -> None:
    """After the player's two Command Points (a move, an OpFire marker) the bot's
    scripted move takes the German unit into the marked unit's range: the opportunity
    fire is the player's to decide, whatever the bot would have thought."""
    rs, st = lesson_game("fastplay")
    st, _ = play(rs, st, {"type": "move", "seat": "ALLIES", "unit": "u1", "to": [5, 11]})
    st, events = play(rs, st, {"type": "opfire_marker", "seat": "ALLIES", "unit": "u2"})
    assert rs.to_act(st) == ["AXIS"]
    scn_id = TUTORIALS["fastplay"].scenario_id
    move = lesson_move(scn_id, lambda: rs.legal_actions(st, "AXIS"))
    assert move is not None and move["type"] == "move" and move["to"] == [3, 13]
    st, _ = play(rs, st, move)
    assert rs.to_act(st) == ["ALLIES"]
    fire = [a for a in rs.legal_actions(st, "ALLIES") if a["type"] == "opportunity_fire"]
    assert fire == [{"type": "opportunity_fire", "seat": "ALLIES", "unit": "u2", "target": [3, 13]}]
    # another game's bot is never scripted
    assert lesson_move("2-PegasusBridge", lambda: rs.legal_actions(st, "ALLIES")) is None


def test_start_the_other_lessons(api: httpx.Client) -> None:
    token = new_identity(api, "Cadet")
    listed = {s["id"]: s for s in api.get("/api/scenarios").json()}
    for name, ruleset, mode in (
        ("overlord", "overlord", "overlord"),
        ("fastplay", "fastplay", "1v1"),
    ):
        r = api.post(f"/api/tutorials/{name}", headers=auth(token))
        assert r.status_code == 201, r.text
        g = r.json()
        assert (g["ruleset"], g["mode"], g["scenario_id"]) == (
            ruleset,
            mode,
            TUTORIALS[name].scenario_id,
        )
        mine = {s["seat"] for s in g["seats"] if s["mine"]}
        side = "ALLIES"
        assert mine == {s["seat"] for s in g["seats"] if s["side"] == side}
        assert all(s["is_bot"] for s in g["seats"] if s["side"] != side)
        assert f'data-tutorial="{name}"' in api.get(f"/games/{g['id']}").text
        assert listed[g["scenario_id"]]["kind"] == "tutorial"
