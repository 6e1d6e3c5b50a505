"""Fast Play '44 in two browsers: the first turns of Pegasus Bridge by clicking, with a
defensive fire and an opportunity fire decided by the waiting player through the
interrupt prompt; a spectator follows; a move's path laid hex by hex (000 4.2).

Seed 2 (the server rolls from the state RNG): the Allied ranged fire (5,5) -> (3,7)
misses, the Axis defensive fire answers; the Axis unit at (3,7) takes an OpFire marker
and fires at the Allied unit moving (6,6) -> (5,7)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .contrast import low_contrast
from .shots import shot

SEED = 2


def click_hex(page: Page, hex_: str) -> None:
    page.locator(f'.hit[data-hex="{hex_}"]').click()


def seq_of(page: Page) -> int:
    return page.evaluate("window.__game.seq")


def act(page: Page, fn, watch: Page | None = None) -> None:
    """Do a gesture that sends one action; wait until it has been applied."""
    w = watch or page
    before = seq_of(w)
    fn()
    w.wait_for_function(f"window.__game.seq > {before} && !window.__game.pendingSend")


def wait_settled(page: Page, side: str) -> None:
    """Wait until ``side`` is to act (no dice left to roll)."""
    page.wait_for_function(
        f"window.__game.view && (window.__game.view.to_act || []).includes('{side}')"
    )


def test_fastplay_pegasus_first_turns(new_page, live_server, tmp_path):
    allies, axis, spectator = new_page("allies"), new_page("axis"), new_page("spectator")
    names = [r["name"] for r in allies.request.get("/api/rulesets").json()]
    assert "fastplay" in names

    assert allies.request.post("/api/identity", data={"name": "Howard"}).ok
    # the lobby offers the ruleset for any standard scenario
    allies.goto("/")
    expect(allies.locator('#ruleset-select option[value="fastplay"]')).to_have_count(1)
    allies.locator("#ruleset-select").select_option("fastplay")
    expect(allies.locator("#ruleset-info")).to_contain_text("Command Points")
    r = allies.request.post(
        "/api/games",
        data={
            "ruleset": "fastplay",
            "scenario_id": "2-PegasusBridge",
            "mode": "1v1",
            "seat": "ALLIES",
            "seed": SEED,
        },
    )
    assert r.ok, r.text()
    gid = r.json()["id"]
    assert axis.request.post("/api/identity", data={"name": "Rommel"}).ok
    axis.goto(f"/games/{gid}")
    axis.locator('#seat-bar button[data-claim="AXIS"]').click()
    expect(axis.locator("#my-seat")).to_have_text("You play Axis")
    allies.goto(f"/games/{gid}")
    spectator.goto(f"/games/{gid}")
    expect(allies.locator("#my-seat")).to_have_text("You play Allies")
    expect(spectator.locator("#my-seat")).to_have_text("Spectating")

    # ---- Allied turn: CP counter, ranged fire at (3,7) ---------------------------------
    expect(allies.locator("#fp-cp")).to_have_attribute("data-cp", "6")
    expect(spectator.locator("#fp-cp")).to_contain_text("6 CP")
    allies.locator("#fp-help-btn").click()
    expect(allies.locator("#fp-help")).to_contain_text("Suppression")
    click_hex(allies, "5,5")  # select the unit
    act(allies, lambda: click_hex(allies, "3,7"), watch=axis)

    # ---- the waiting Axis player decides the defensive fire ---------------------------
    expect(axis.locator("#fp-prompt")).to_have_attribute("data-pending", "defensive_fire")
    expect(axis.locator("#fp-timer")).to_contain_text("Auto-pass in")
    expect(allies.locator("#fp-prompt")).to_have_count(0)
    expect(allies.locator("#fp-status")).to_contain_text("defensive fire")
    # the prompt reads (WCAG AA on the page's theme), its choices are shown once, and the
    # active player is told what is awaited
    assert low_contrast(axis, "#fp-panel, #pending, .status-bar, #actions") == []
    for a in axis.eval_on_selector_all(
        "#fp-prompt button[data-fp-action]", "bs => bs.map(b => b.dataset.fpAction)"
    ):
        expect(axis.locator(f'#actions button[data-action="{a}"]')).to_have_count(0)
    expect(allies.locator("#prompt")).to_contain_text("Axis decides on defensive fire")
    # no Command cards in Fast Play: nothing of them on the page
    for page in (allies, axis):
        expect(page.locator("#played-panel")).to_be_hidden()
        expect(page.locator("#sides")).not_to_contain_text("card")
        expect(page.locator("#sides")).not_to_contain_text("Deck")
    act(axis, lambda: axis.locator('#fp-prompt button[data-fp-action="defensive_fire"]').click())
    wait_settled(allies, "ALLIES")
    expect(spectator.locator("#log")).to_contain_text("defensive fire")
    shot(allies, tmp_path / "fp-01-after-defensive-fire.png", full_page=True)

    # ---- the Allies end their turn; the Axis unit takes an OpFire marker -----------------
    act(allies, lambda: allies.locator('#actions button[data-action="end_turn"]').click())
    wait_settled(axis, "AXIS")
    expect(axis.locator("#fp-cp")).to_have_attribute("data-cp", "2")
    click_hex(axis, "3,7")
    act(axis, lambda: axis.locator('#actions button[data-action="opfire_marker"]').click())
    expect(allies.locator('.unit[data-hex="3,7"] .fp-opfire')).to_have_count(1)
    act(axis, lambda: axis.locator('#actions button[data-action="end_turn"]').click())

    # ---- the Allied move is interrupted: the Axis player decides the opportunity fire ---
    wait_settled(allies, "ALLIES")
    click_hex(allies, "6,6")
    # 4.2: the player lays the path hex by hex (the hex numbered 1), then moves along it
    click_hex(allies, "5,7")
    expect(allies.locator("#board .hl-label", has_text="1")).to_have_count(1)
    expect(allies.locator('#actions button[data-action="move-path"]')).to_contain_text("(5,7)")
    act(allies, lambda: click_hex(allies, "5,7"), watch=axis)
    expect(axis.locator("#fp-prompt")).to_have_attribute("data-pending", "opportunity_fire")
    expect(allies.locator("#fp-status")).to_contain_text("opportunity fire")
    expect(allies.locator("#prompt")).to_contain_text("Axis decides on opportunity fire")
    assert low_contrast(axis, "#fp-panel") == []
    act(axis, lambda: axis.locator('#fp-prompt button[data-fp-action="opportunity_fire"]').click())
    wait_settled(allies, "ALLIES")
    expect(spectator.locator("#log")).to_contain_text("opportunity fire")
    expect(spectator.locator('.unit[data-hex="3,7"] .fp-opfire')).to_have_count(0)
    expect(spectator.locator('.unit[data-hex="5,7"]')).to_have_attribute("data-figures", "2")
    shot(spectator, tmp_path / "fp-02-spectator.png", full_page=True)
