"""The standard game's tutorial (issue 40, point 1), played by keyboard only with the
browser in French and in German: from the lobby's "Learn to play" to the medal that wins,
each step of the lesson shown in the page's language and no English text of the catalog
left on the way (app/tutorial.py, static/tutorial.js)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .test_a11y import tab_to
from .test_i18n import english_left


def step(page: Page, n: int) -> None:
    expect(page.locator("#lesson")).to_have_attribute("data-step", str(n), timeout=15000)


def board_keys(page: Page, *keys: str) -> None:
    """Keys pressed on the board (focused by Tab, as a keyboard user does)."""
    tab_to(page, "[role=application]")
    for k in keys:
        page.keyboard.press(k)


def cursor(page: Page) -> str | None:
    return page.locator(".kbd-cursor").get_attribute("data-hex")


@pytest.mark.parametrize(
    "locale,lang,victory", [("fr-FR", "fr", "Victoire !"), ("de-DE", "de", "Sieg!")]
)
def test_tutorial_by_keyboard_only(browser, live_server, locale, lang, victory) -> None:
    ctx = browser.new_context(
        locale=locale, base_url=live_server.base, viewport={"width": 1500, "height": 1000}
    )
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.set_default_timeout(15000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/")
        # a name, then "Learn to play": Tab, type, Enter
        tab_to(page, "#identity-name")
        page.keyboard.type("Cadet")
        page.keyboard.press("Enter")
        expect(page.locator('[data-me="Cadet"]')).to_be_visible()
        tab_to(page, "#tutorial-start")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/games/[^/?]+"))

        # step 1: the section card
        step(page, 1)
        expect(page.locator("#prompt")).to_have_attribute("data-mine", "1")
        assert english_left(page, lang) == []
        tab_to(page, '.hand .card.playable[data-name="Probe Centre"]')
        page.keyboard.press("Enter")
        # step 2: order both units (N: the next unit to order, Enter)
        step(page, 2)
        assert english_left(page, lang) == []
        board_keys(page, "n", "Enter")
        page.wait_for_function("window.__game.view.units.filter(u => u.ordered).length === 1")
        page.keyboard.press("n")
        page.keyboard.press("Enter")
        # step 3: move the unit at (6,12) next to the enemy, (5,13)
        step(page, 3)
        assert english_left(page, lang) == []
        page.keyboard.press("n")
        if cursor(page) != "6,12":
            page.keyboard.press("n")
        assert cursor(page) == "6,12"
        page.keyboard.press("Enter")  # select it
        page.keyboard.press("ArrowUp")  # (5,11)
        page.keyboard.press("ArrowRight")  # (5,13)
        assert cursor(page) == "5,13"
        expect(page.locator("#hex-description")).not_to_have_text("")
        page.keyboard.press("Enter")  # move there
        page.wait_for_function(
            "window.__game.view.units.some(u => u.hex && u.hex[0] === 5 && u.hex[1] === 13)"
        )
        tab_to(page, '#actions button[data-action="end_movement"]')
        page.keyboard.press("Enter")
        # step 4: battle the German unit at (4,12)
        step(page, 4)
        assert english_left(page, lang) == []
        board_keys(page)
        if cursor(page) != "5,13":
            page.keyboard.press("p")
        page.keyboard.press("ArrowUp")  # (4,12)
        assert cursor(page) == "4,12"
        page.keyboard.press("Enter")
        # step 5: read the dice (one hit, one flag: it retreated), take ground
        step(page, 5)
        assert english_left(page, lang) == []
        expect(page.locator("#dice .die")).to_have_count(3)
        assert page.locator("#dice").get_attribute("aria-label").count(",") == 2
        page.keyboard.press("Enter")  # the cursor stands on the vacated hex
        # the Axis pass; step 6: the new card
        step(page, 6)
        assert english_left(page, lang) == []
        tab_to(page, '.hand .card.playable[data-name="Assault Centre"]')
        page.keyboard.press("Enter")
        step(page, 7)
        tab_to(page, '#actions button[data-action="end_movement"]')
        page.keyboard.press("Enter")
        expect(page.locator("#lesson h3")).not_to_have_text(
            re.compile("7.*:.*[Bb]ewegung|7.*bouger")
        )
        # step 7: battle again from (4,12) at the German unit, now at (3,11)
        board_keys(page)
        if cursor(page) != "4,12":
            page.keyboard.press("p")
        page.keyboard.press("ArrowUp")  # (3,11)
        assert cursor(page) == "3,11"
        page.keyboard.press("Enter")
        step(page, 8)
        expect(page.locator("#lesson h3")).to_have_text(victory)
        expect(page.locator("#banner")).to_be_visible()
        assert english_left(page, lang) == []
    finally:
        ctx.close()
    assert not errors, errors
