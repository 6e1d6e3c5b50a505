"""The browser shows the 004 Appendix 3 variants and campaigns: the lobby offers the
variant options, the game page draws the new unit kinds (zombies: more units than the
scenario had, letter Z) with the variant's status box and town markers, and the campaign
page shows the standings and the first battle's game."""

from __future__ import annotations

from playwright.sync_api import expect


def test_zombie_game_page(new_page, live_server):
    page = new_page("living")
    assert page.request.post("/api/identity", data={"name": "Living"}).ok
    r = page.request.post(
        "/api/games",
        data={
            "scenario_id": "2-PegasusBridge",
            "mode": "1v1",
            "seat": "ALLIES",
            "options": {"variant": "ZOMBIE"},
        },
    )
    assert r.ok, r.text()
    page.goto(f"/games/{r.json()['id']}")
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")
    page.wait_for_function("window.__game && window.__game.view && window.__game.view.variant")
    view = page.evaluate("window.__game.view")
    zombies = [u for u in view["units"] if u["kind"] == "zombie"]
    assert zombies and all(u["side"] == "AXIS" for u in zombies)
    letters = page.locator(".unit .unit-letter").all_text_contents()
    assert letters.count("Z") == len(zombies)
    box = page.locator("#variant-box")
    expect(box).to_have_attribute("data-variant", "ZOMBIE")
    expect(box).to_contain_text("Achtung! Zombie!")
    assert page.locator('.variant-mark[data-mark="Z"]').count() == len(view["variant"]["markers"])


def test_lobby_offers_the_variants(new_page, live_server):
    page = new_page("lobby")
    assert page.request.post("/api/identity", data={"name": "Chooser"}).ok
    page.goto("/")
    sel = page.locator('#options-list select[data-option="variant"]')
    expect(sel).to_have_count(1)
    values = sel.locator("option").all_text_contents()
    assert any("ZOMBIE" in v.upper() for v in values)
    expect(page.locator('#options-list [data-option="young_generals"]')).to_have_count(1)
    page.locator("#options-box summary").click()
    sel.select_option("WAR_OF_THE_WORLDS")
    expect(page.locator('[data-summary-for="variant"]')).to_contain_text("Common Cold")
    page.locator('#options-list [data-option="young_generals"]').check()  # the preset
    expect(sel).to_be_disabled()
    assert sel.input_value() == ""
    page.locator('#options-list [data-option="young_generals"]').uncheck()
    expect(sel).to_be_enabled()


def test_campaign_page(new_page, live_server):
    page = new_page("campaign")
    assert page.request.post("/api/identity", data={"name": "General"}).ok
    r = page.request.post(
        "/api/campaigns",
        data={
            "name": "Normandy",
            "scenario_ids": ["2-PegasusBridge", "4-SwordBeach"],
            "seat": "ALLIES",
        },
    )
    assert r.ok, r.text()
    c = r.json()
    page.goto(f"/campaigns/{c['id']}")
    expect(page.locator("#campaign-name")).to_have_text("Normandy")
    rows = page.locator("#campaign-battles tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("a")).to_have_attribute(
        "href", f"/games/{c['battles'][0]['game_id']}"
    )
    expect(page.locator("#campaign-standings")).to_contain_text("Victories")
    page.goto("/campaigns")
    expect(page.locator("#campaign-list")).to_contain_text("Normandy")
