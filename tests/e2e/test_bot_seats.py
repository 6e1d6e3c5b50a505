"""Friends and bots in one Overlord game, from its page (issue 35 #6): the creator gives a
seat to a bot while the game is open and friends have joined; a second friend takes the
bot's seat back; the creator starts the game and bots take only the seats still free."""

from __future__ import annotations

from playwright.sync_api import Page, expect

SCENARIO = "13-OmahaBeachOverlord"


def joined(page: Page, name: str, gid: str) -> None:
    page.goto("/")
    page.wait_for_selector("#identity-form[data-ready]")
    page.fill("#identity-name", name)
    page.click("#identity-submit")
    expect(page.locator(f'[data-me="{name}"]')).to_be_visible()
    page.goto(f"/games/{gid}")
    expect(page.locator("#conn")).not_to_have_text("connecting…")


def test_creator_gives_seats_to_bots_and_friends_take_them_back(new_page) -> None:
    host = new_page("host")
    host.goto("/")
    host.wait_for_selector("#identity-form[data-ready]")
    host.fill("#identity-name", "Ike")
    host.click("#identity-submit")
    expect(host.locator('[data-me="Ike"]')).to_be_visible()
    host.select_option("#ruleset-select", "overlord")  # the rule systems: one list
    expect(host.locator(f"#scenario-select option[value='{SCENARIO}']")).to_have_count(1)
    host.select_option("#scenario-select", SCENARIO)
    expect(host.locator("#layout-label")).to_be_visible()
    # no box that would fill every seat with bots at creation (the game would start live)
    expect(host.locator("#bots-check")).to_be_hidden()
    expect(host.locator("#bots-note")).to_be_visible()
    host.select_option("#seat-select", "ALLIES:cinc")
    host.click("#create-submit")
    host.wait_for_url("**/games/**")
    gid = host.url.split("/games/")[1].split("?")[0]
    expect(host.locator("#start-with-bots")).to_have_attribute("data-free", "7")

    monty = new_page("monty")
    joined(monty, "Monty", gid)
    expect(monty.locator("#start-with-bots")).to_have_count(0)  # not his game
    monty.locator('#seat-bar button[data-claim="AXIS:cinc"]').click()
    expect(monty.locator("#my-seat")).to_contain_text("Axis C-in-C")

    # the creator gives a seat to a bot after a friend joined: still open
    expect(host.locator("#start-with-bots")).to_have_attribute("data-free", "6")
    host.locator('#seat-desk button[data-give-bot="AXIS:left"]').click()
    expect(host.locator('#seat-desk [data-slot="AXIS:left"]')).to_contain_text("bot")
    expect(host.locator("#start-with-bots")).to_have_attribute("data-free", "5")

    # a second friend takes the bot's seat back
    brad = new_page("brad")
    joined(brad, "Brad", gid)
    take = brad.locator('#seat-bar button[data-claim="AXIS:left"]')
    expect(take).to_contain_text("in place of the bot")
    take.click()
    expect(brad.locator("#my-seat")).to_contain_text("Left FG")
    expect(host.locator('#seat-desk [data-slot="AXIS:left"]')).to_contain_text("Brad")

    # start: bots take the five seats nobody holds, the game is live
    host.locator("#start-with-bots").click()
    expect(host.locator("#seat-desk")).to_have_count(0)
    host.wait_for_function("window.__game.status === 'live'")
    seats = {s["seat"]: s for s in host.evaluate("window.__game.seats")}
    assert seats["AXIS:left"]["name"] == "Brad" and not seats["AXIS:left"]["is_bot"]
    assert seats["AXIS:cinc"]["name"] == "Monty"
    assert [s for s, x in seats.items() if x["is_bot"]] == [
        "AXIS:centre",
        "AXIS:right",
        "ALLIES:left",
        "ALLIES:centre",
        "ALLIES:right",
    ]
