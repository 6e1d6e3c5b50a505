"""The Portable Wargame and France 1944 pages (static/renderer_host.js) have what the hex
games have (issue 35 #10): resign, presence, the clocks, the "your turn" title, the
status in words and the sides by their proper names."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .contrast import low_contrast


def two_seats(new_page, body: dict, first: str, second: str) -> tuple[Page, Page, str]:
    a, b = new_page("first"), new_page("second")
    assert a.request.post("/api/identity", data={"name": "Ann"}).ok
    r = a.request.post("/api/games", data={"seat": first, **body})
    assert r.ok, r.text()
    gid = r.json()["id"]
    assert b.request.post("/api/identity", data={"name": "Bob"}).ok
    b.goto(f"/games/{gid}")
    expect(b.locator("#conn")).to_have_text("Waiting for players")
    return a, b, gid


def test_portable_page_names_sides_and_offers_resign_clock_presence(new_page) -> None:
    red, blue, gid = two_seats(
        new_page,
        {
            "ruleset": "portable",
            "seed": 44,
            "clock": {"kind": "bank", "initial_seconds": 600, "increment_seconds": 0},
        },
        "RED",
        "BLUE",
    )
    take = blue.locator('#seat-bar button[data-claim="BLUE"]')
    expect(take).to_have_text("Play the Zulu impi (blue)")
    take.click()
    expect(blue.locator("#my-seat")).to_have_text("You play the Zulu impi (blue)")
    red.goto(f"/games/{gid}")
    expect(red.locator("#my-seat")).to_have_text("You play the British column (red)")
    for p in (red, blue):
        expect(p.locator("#conn")).to_have_text("In play")
        expect(p.locator("#resign-btn")).to_be_visible()
        expect(p.locator('#host-sides [data-clock="RED"]')).to_contain_text("Clock")
        expect(p.locator('#host-sides .pres[data-seat="BLUE"]')).to_have_attribute(
            "data-state", "online"
        )
        expect(p.locator("#host-sides")).not_to_contain_text("RED")
    assert low_contrast(red, "main") == []
    mover = red if red.evaluate("window.__game.legal.length") else blue
    expect(mover).to_have_title(re.compile("Your turn"))
    assert low_contrast(red, "#remote-bar, #host-sides, .status-bar, #seat-bar") == []
    mover.once("dialog", lambda d: d.accept())
    mover.locator("#resign-btn").click()
    expect(mover.locator("#conn")).to_have_text("Game over")
    expect(mover.locator("#replay-link")).to_be_visible()


def test_france1944_page_says_the_allies_and_the_germans(new_page) -> None:
    allied, german, gid = two_seats(new_page, {"ruleset": "france1944"}, "ALLIED", "GERMAN")
    take = german.locator('#seat-bar button[data-claim="GERMAN"]')
    expect(take).to_have_text("Play the Germans")
    take.click()
    expect(german.locator("#my-seat")).to_have_text("You play the Germans")
    allied.goto(f"/games/{gid}")
    expect(allied.locator("#my-seat")).to_have_text("You play the Allies")
    expect(allied.locator("#conn")).to_have_text("In play")
    expect(allied.locator("#resign-btn")).to_be_visible()
    expect(allied.locator("#chat")).not_to_contain_text("ALLIED")
    assert low_contrast(allied, "main") == []  # the referee's own panels too
