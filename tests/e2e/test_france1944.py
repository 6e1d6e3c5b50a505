"""Two browsers share a France 1944 referee session (ruleset ``france1944``, renderer
``referee``): turn entries, an Allied initiative phase, three combats declared then
resolved in the attacker's order with server dice; the German player and a spectator see
every declaration and result in the shared log; a German reaction segment (all or
nothing: 1 spent, 2 lost); the German player exports the log."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect


def seq_of(page: Page) -> int:
    return page.evaluate("window.__game.seq ?? -1")


def act(page: Page, fn) -> None:
    """A gesture that sends one action; wait until the update has come back."""
    before = seq_of(page)
    fn()
    page.wait_for_function(f"(window.__game.seq ?? -1) > {before}")


def fill(page: Page, values: dict[str, str]) -> None:
    for name, value in values.items():
        page.locator(f'#f44-act [name="{name}"]').fill(value)


def test_two_players_declare_three_combats_and_resolve_them(new_page, live_server, tmp_path):
    allied, german, spectator = new_page("allied"), new_page("german"), new_page("spectator")
    assert allied.request.post("/api/identity", data={"name": "Bradley"}).ok
    r = allied.request.post(
        "/api/games",
        data={
            "ruleset": "france1944",
            "seat": "ALLIED",
            "options": {
                "control_limits": {"4": 6, "5": 8},
                "result_meanings": {"C": "see your CRT"},
            },
        },
    )
    assert r.ok, r.text()
    gid = r.json()["id"]

    assert german.request.post("/api/identity", data={"name": "Rommel"}).ok
    german.goto(f"/games/{gid}")
    german.locator('#seat-bar button[data-claim="GERMAN"]').click()
    expect(german.locator("#f44-status")).to_contain_text("You are the German player")
    allied.goto(f"/games/{gid}")
    spectator.goto(f"/games/{gid}")
    expect(allied.locator("#f44-status")).to_contain_text("You are the Allied player")
    expect(spectator.locator("#f44-status")).to_contain_text("spectator")
    expect(spectator.locator("#f44-table table.f44-crt td")).to_have_count(54)

    # ---- turn entries -----------------------------------------------------------------
    fill(allied, {"reaction_points": "5", "initiative_markers": "2", "air_availability": "4"})
    act(allied, lambda: allied.get_by_role("button", name="Enter", exact=True).click())
    fill(german, {"reaction_points": "6", "initiative_markers": "2"})
    act(german, lambda: german.get_by_role("button", name="Enter", exact=True).click())

    # ---- Allied initiative phase, one combat increment ------------------------------
    expect(allied.locator("#f44-status")).to_contain_text("Your move")
    fill(allied, {"hq": "First Army"})
    act(allied, lambda: allied.get_by_role("button", name="Begin Initiative Phase").click())
    act(allied, lambda: allied.get_by_role("button", name="Open a combat increment").click())

    combats = [
        {
            "attackers": "1 US, 29 US",
            "hqs": "V Corps",
            "attack_hexes": "1907, 2007",
            "defenders": "352",
            "defence_hexes": "1908",
            "attack_strength": "9",
            "defence_strength": "6",
        },
        {
            "attackers": "3 Br",
            "hqs": "",
            "attack_hexes": "2310",
            "defenders": "716",
            "defence_hexes": "2311",
            "attack_strength": "8",
            "defence_strength": "2",
        },
        {
            "attackers": "4 US",
            "hqs": "",
            "attack_hexes": "1504",
            "defenders": "709",
            "defence_hexes": "1505, 1605",
            "attack_strength": "3",
            "defence_strength": "9",
        },
    ]
    for i, entries in enumerate(combats):
        fill(allied, entries)
        if i == 0:  # the server's assessment before the (final) declaration
            expect(allied.locator("#f44-preview")).to_contain_text("Odds 9 : 6 -> 3-2")
            expect(allied.locator("#f44-preview")).to_contain_text("Control modifier")
            expect(german.locator("#f44-combats .f44-combat")).to_have_count(0)
        act(allied, lambda: allied.get_by_role("button", name="Declare this combat").click())
    expect(german.locator("#f44-combats .f44-combat")).to_have_count(3)
    expect(german.locator('#f44-combats [data-combat="1"]')).to_contain_text("Odds 9 : 6 -> 3-2")
    expect(german.locator('#f44-combats [data-combat="3"]')).to_contain_text("1-3")
    act(allied, lambda: allied.get_by_role("button", name="All combats declared: resolve").click())

    # ---- resolved in the attacker's order: 3, 1, 2 (the server rolls) ----------------
    for number in (3, 1, 2):
        card = allied.locator(f'#f44-combats [data-combat="{number}"]')
        act(
            allied,
            lambda c=card: c.get_by_role(
                "button", name="Resolve this combat (roll the die)"
            ).click(),
        )
    expect(spectator.locator("#f44-log li.ev-combat_resolved")).to_have_count(3)
    expect(spectator.locator("#f44-log li.ev-combat_declared")).to_have_count(3)
    expect(german.locator("#f44-log li.ev-combat_resolved")).to_have_count(3)
    texts = spectator.locator("#f44-log li.ev-combat_resolved").all_inner_texts()
    assert [t.split(":")[0].split("· ")[-1] for t in texts] == ["Combat 2", "Combat 1", "Combat 3"]
    assert all("Table 1, roll" in t for t in texts)
    expect(spectator.locator("#f44-table td.cell-used")).to_have_count(1)

    # ---- the German reaction segment: one single-piece phase, all or nothing ------------
    act(allied, lambda: allied.get_by_role("button", name="End the phase").click())
    expect(german.locator("#f44-status")).to_contain_text("Your move")
    act(german, lambda: german.get_by_role("button", name="Engage a Reaction Segment").click())
    fill(german, {"unit": "21 Pz"})
    act(
        german,
        lambda: german.get_by_role("button", name="Single-Piece Reaction Phase (1 point)").click(),
    )
    act(german, lambda: german.get_by_role("button", name="End the phase").click())
    act(german, lambda: german.get_by_role("button", name="End the Reaction Segment").click())
    expect(spectator.locator("#f44-log li.ev-reaction_segment_ended")).to_contain_text(
        "1 spent, 2 lost (all or nothing), 3 left"
    )
    expect(allied.locator("#f44-sides")).to_contain_text("3")

    # ---- the German player exports the shared log ------------------------------------
    with german.expect_download() as dl:
        german.locator("#f44-export").click()
    path = tmp_path / "log.json"
    dl.value.save_as(path)
    data = json.loads(path.read_text())
    assert data["ruleset"] == "france1944"
    assert sum(e["type"] == "combat_resolved" for e in data["log"]) == 3


def test_lobby_creates_a_session_with_the_control_limits_entered(new_page):
    """Issue: "the players enter the limits for their edition at session creation,
    prefilled with that one value" (Table 2: morale 5 -> 8)."""
    host = new_page("host")
    host.goto("/")
    host.wait_for_selector("#identity-form[data-ready]")
    host.fill("#identity-name", "Patton")
    host.click("#identity-submit")
    expect(host.locator('[data-me="Patton"]')).to_be_visible()
    host.select_option("#ruleset-select", "france1944")
    host.locator("#options-box summary").click()
    host.check("#opt-control_limits")
    area = host.locator("#opt-control_limits-map")
    assert json.loads(area.input_value())["5"] == 8  # prefilled
    area.fill('{"3": 4, "4": 6, "5": 8, "6": 8}')
    host.click("#create-submit")
    host.wait_for_url(re.compile(r"/games/[^/?]+"))
    host.locator('#seat-bar button[data-claim="ALLIED"]').click()  # seats: on the game page
    expect(host.locator("#f44-status")).to_contain_text("You are the Allied player")
    assert host.evaluate("window.__game.view.options.control_limits") == {
        "3": 4,
        "4": 6,
        "5": 8,
        "6": 8,
    }
