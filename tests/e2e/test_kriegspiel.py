"""Two browsers play a Kriegspiel game (004 "Kriegspiel & The Fog Of War", option
``kriegspiel``): each board shows the player's own units and only the enemy units within
the battle range of his units (the engine's ``kriegspiel.shown`` of the same game,
replayed here from the scenario and seed), the fog legend counts them, the detection
range is drawn on demand, and a spectator (even one asking to watch a side) sees what
both sides see.  Then
the server's bots play on: at every update each page draws exactly its view, and no
enemy unit it has not detected nor an enemy card appears."""

from __future__ import annotations

from playwright.sync_api import expect

from engine import load_scenario
from engine.rulesets.m44.game import new_game
from engine.rulesets.m44.options.kriegspiel import detected, detection_range, shown
from tests.engine.paths import SCN_DIR
from .shots import shot

SEED = 11
KS = {"kriegspiel": True}


def board_units(page) -> set[str]:
    return set(
        page.eval_on_selector_all(".layer-units [data-unit]", "els => els.map(e => e.dataset.unit)")
    )


def check_page(page, side: str | None) -> None:
    """The page draws exactly its view; every enemy unit in it is a detected one; no card
    of the enemy in the log."""
    got = page.evaluate("""() => ({view: window.__game.view, drawn: [...document.querySelectorAll(
        '.layer-units [data-unit]')].map((e) => e.dataset.unit)})""")  # one JS turn
    view = got["view"]
    if view.get("game_over"):
        return
    assert set(got["drawn"]) == {u["id"] for u in view["units"]}
    enemy = {u["id"] for u in view["units"] if u["side"] != side}
    assert enemy <= set(view["fog"]["detected"]), (side, enemy, view["fog"])
    assert all(p["side"] == side for p in view["played"])


def test_kriegspiel_two_browsers(new_page, live_server, tmp_path):
    allies, axis, watcher = new_page("allies"), new_page("axis"), new_page("watcher")
    # the lobby offers the option with its rules summary (GET /api/options)
    allies.goto("/")
    box = allies.locator('input[data-option="kriegspiel"]')
    expect(box).to_be_enabled()
    assert "Kriegspiel & The Fog Of War" in box.get_attribute("title")
    assert allies.request.post("/api/identity", data={"name": "Montgomery"}).ok
    r = allies.request.post(
        "/api/games",
        data={
            "scenario_id": "2-PegasusBridge",
            "mode": "1v1",
            "seat": "ALLIES",
            "seed": SEED,
            "options": KS,
        },
    )
    assert r.ok, r.text()
    gid = r.json()["id"]
    assert axis.request.post("/api/identity", data={"name": "Rommel"}).ok
    assert axis.request.post(f"/api/games/{gid}/seats/AXIS/claim").ok
    for page, url in (
        (axis, f"/games/{gid}"),
        (allies, f"/games/{gid}"),
        (watcher, f"/games/{gid}?watch=AXIS"),
    ):
        page.goto(url)
    for p in (allies, axis, watcher):
        expect(p.locator("#conn")).to_have_attribute("data-state", "ok")

    # the engine's truth: the same game before any action
    st = new_game(load_scenario(SCN_DIR / "2-PegasusBridge.m44"), SEED, KS)
    for page, side in ((allies, "ALLIES"), (axis, "AXIS")):
        expect(page.locator("#fog-box")).to_have_attribute(
            "data-detected", str(len(detected(st, side)))
        )
        assert board_units(page) == set(shown(st, side)), side
    # a spectator of a live game, ?watch=AXIS or not, sees what both sides see (he may be
    # the Allied player on a second tab): docs/protocol.md "Kriegspiel spectators"
    expect(watcher.locator("#fog-box")).to_have_attribute(
        "data-detected", str(len(shown(st, None)))
    )
    assert board_units(watcher) == set(shown(st, None))
    hidden = {u.id for u in st.units.values()} - set(shown(st, "ALLIES"))
    assert hidden, "Pegasus Bridge starts with enemy units out of range"
    assert not hidden & board_units(allies)
    # no hand either
    assert watcher.evaluate("window.__game.view.sides.AXIS.hand") is None
    expect(watcher.locator('#fog-watch a[data-watch="ALLIES"]')).to_be_visible()
    shot(allies, tmp_path / "ks-allies.png", full_page=True)
    shot(axis, tmp_path / "ks-axis.png", full_page=True)

    # the player's detection range on demand: a veil over every hex none of his units sees
    expect(allies.locator(".fog-hex")).to_have_count(0)
    allies.locator("#fog-range").check()
    allies_units = [u for u in st.units.values() if u.side == "ALLIES"]
    board = st.scn.board
    unseen = [
        h
        for h in board.hexes
        if not any(board.distance(u.hex, h) <= detection_range(st, u) for u in allies_units)
    ]
    expect(allies.locator(".fog-hex")).to_have_count(len(unseen))
    shot(allies, tmp_path / "ks-allies-range.png", full_page=True)
    allies.locator("#fog-range").uncheck()
    expect(allies.locator(".fog-hex")).to_have_count(0)

    # bots play both sides; each page stays within its side's sight
    for seat, page in (("ALLIES", allies), ("AXIS", axis)):
        assert page.request.post(f"/api/games/{gid}/seats/{seat}/bot").ok
    last = -1
    for _ in range(40):
        seq = allies.evaluate("window.__game.seq")
        if seq != last:
            last = seq
            check_page(allies, "ALLIES")
            check_page(axis, "AXIS")
            check_page(watcher, None)
        allies.wait_for_timeout(150)
    assert last > 0
