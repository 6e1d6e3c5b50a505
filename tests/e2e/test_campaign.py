"""Campaign battles as a player sees them (issue 35 #13): battles listed by scenario name,
a finished battle leads back to its campaign (no return match: the campaign goes on), and
the pre-battle roll of 004 "Simplified Campaign Rules" logged with what each die does."""

from __future__ import annotations

from playwright.sync_api import expect


def test_campaign_battle_leads_back_to_the_campaign(new_page) -> None:
    page = new_page("campaigner")
    assert page.request.post("/api/identity", data={"name": "Montgomery"}).ok
    r = page.request.post(
        "/api/campaigns",
        data={
            "name": "Normandy",
            "scenario_ids": ["2-PegasusBridge", "2-PegasusBridge"],
            "seat": "ALLIES",
            "bots": ["AXIS"],
        },
    )
    assert r.ok, r.text()
    c = r.json()
    name = next(
        s["name"] for s in page.request.get("/api/scenarios").json() if s["id"] == "2-PegasusBridge"
    )
    page.goto(f"/campaigns/{c['id']}")
    cells = page.locator('#campaign-battles td[data-scenario="2-PegasusBridge"]')
    expect(cells).to_have_count(2)
    expect(cells.first).to_have_text(name)
    gid = c["battles"][0]["game_id"]
    page.goto(f"/games/{gid}")
    expect(page.locator("#my-seat")).to_have_text("You play Allies")
    page.once("dialog", lambda d: d.accept())
    page.locator("#resign-btn").click()
    expect(page.locator("#banner")).to_contain_text("Axis win the battle")
    back = page.locator("#campaign-link")
    expect(back).to_have_text("Back to the campaign")
    expect(page.locator("#rematch-btn")).to_have_count(0)
    r = page.request.post(f"/api/games/{gid}/rematch")
    assert r.status == 422 and r.json()["error"]["code"] == "rematch_unavailable"
    back.click()
    page.wait_for_url(f"**/campaigns/{c['id']}")
    expect(page.locator("#campaign-next-button")).to_contain_text(name)


def test_the_pre_battle_roll_says_what_each_die_does(new_page) -> None:
    page = new_page("roller")
    assert page.request.post("/api/identity", data={"name": "Rommel"}).ok
    r = page.request.post(
        "/api/games",
        data={
            "scenario_id": "2-PegasusBridge",
            "seed": 3,
            "seat": "AXIS",
            "bots": ["ALLIES"],
            "options": {"campaign": {"AXIS": 2, "ALLIES": 0}},
        },
    )
    assert r.ok, r.text()
    page.goto(f"/games/{r.json()['id']}")
    line = page.locator("#log").get_by_text("Axis rolls 2 pre-battle dice (campaign)")
    expect(line).to_have_count(1)
    text = line.text_content() or ""
    assert "hit" not in text and "—" in text, text
    assert "Allies must" in text or "Axis must remove" in text, text
