"""The standard game's tutorial (issue 40, point 1), played by keyboard only with the
browser in French and in German: from the lobby's "Learn to play" to the medal that wins,
each step of the lesson shown in the page's language and no English text of the catalog
left on the way (app/tutorial.py, static/tutorial.js)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .test_a11y import audit, tab_to
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


def lesson_page(browser, live_server, locale: str, button: str, errors: list[str]) -> tuple:
    """A new player in ``locale`` starts a lesson from the lobby by keyboard: a name, then
    the lesson's button (``#tutorial-{button}``)."""
    ctx = browser.new_context(
        locale=locale, base_url=live_server.base, viewport={"width": 1500, "height": 1000}
    )
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("/")
    page.wait_for_selector("#identity-form[data-ready]")  # lobby.js handles the form now
    tab_to(page, "#identity-name")
    page.keyboard.type("Cadet")
    page.keyboard.press("Enter")
    expect(page.locator('[data-me="Cadet"]')).to_be_visible()
    tab_to(page, f"#tutorial-{button}")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/games/[^/?]+"))
    return ctx, page


@pytest.mark.parametrize(
    "locale,lang,victory", [("fr-FR", "fr", "Victoire !"), ("de-DE", "de", "Sieg!")]
)
def test_tutorial_by_keyboard_only(browser, live_server, locale, lang, victory) -> None:
    errors: list[str] = []
    # a name, then "Learn to play": Tab, type, Enter
    ctx, page = lesson_page(browser, live_server, locale, "start", errors)
    try:
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


def press(page: Page, selector: str) -> None:
    """Tab to a control and press Enter on it."""
    tab_to(page, selector)
    page.keyboard.press("Enter")


def cursor_on_unit(page: Page, hex_: str) -> None:
    """Focus the board and press N (the next unit) until the cursor is on ``hex_``."""
    board_keys(page)
    for _ in range(5):
        if cursor(page) == hex_:
            return
        page.keyboard.press("n")
    assert cursor(page) == hex_


def unit_at(page: Page, row: int, col: int) -> str:
    return f"window.__game.view.units.some(u => u.hex && u.hex[0] === {row} && u.hex[1] === {col})"


@pytest.mark.parametrize("locale,lang", [("fr-FR", "fr"), ("de-DE", "de")])
def test_overlord_lesson_by_keyboard_only(browser, live_server, locale, lang) -> None:
    """Overlord's first turn: the C-in-C gives "Attack Centre" to the Centre Field
    General, visits him, confirms; the generals without a card do nothing; the Centre
    Field General plays the card in his right half, orders, moves and battles."""
    errors: list[str] = []
    ctx, page = lesson_page(browser, live_server, locale, "overlord", errors)
    try:
        step(page, 1)
        assert english_left(page, lang) == []
        press(page, '#ol-hand .card[data-name="Attack Centre"]')  # select the card
        expect(page.locator(".ol-slot button[data-give]")).to_have_count(1)  # only Centre
        assert audit(page) == []
        press(page, '.ol-slot[data-to="centre"] button[data-give]')
        step(page, 2)
        assert english_left(page, lang) == []
        press(page, 'button[data-visit="centre"]')
        step(page, 3)
        press(page, "#ol-confirm")
        # the page shows the Left Field General: no card, nothing to do
        step(page, 4)
        assert english_left(page, lang) == []
        press(page, "#ol-pass")
        step(page, 5)
        assert english_left(page, lang) == []
        assert audit(page) == []  # the Field General's desk
        press(page, '#ol-my-cards button[data-play-half="1"]')
        step(page, 6)
        assert english_left(page, lang) == []
        board_keys(page, "n", "Enter")
        for n in (2, 3):
            page.wait_for_function(
                f"window.__game.view.units.filter(u => u.ordered).length === {n - 1}"
            )
            page.keyboard.press("n")
            page.keyboard.press("Enter")
        # step 7: the unit at (6,28) to (5,29), then done moving
        step(page, 7)
        assert english_left(page, lang) == []
        cursor_on_unit(page, "6,28")
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowUp")  # (5,27)
        page.keyboard.press("ArrowRight")  # (5,29)
        assert cursor(page) == "5,29"
        page.keyboard.press("Enter")
        page.wait_for_function(unit_at(page, 5, 29))
        press(page, '#actions button[data-action="end_movement"]')
        # the Right Field General: nothing to do either
        step(page, 4)
        press(page, "#ol-pass")
        # step 8: battle the German unit at (3,29) from (5,29)
        step(page, 8)
        assert english_left(page, lang) == []
        cursor_on_unit(page, "5,29")
        page.keyboard.press("ArrowUp")  # (4,28)
        page.keyboard.press("ArrowRight")  # (4,30)
        page.keyboard.press("ArrowUp")  # (3,29)
        assert cursor(page) == "3,29"
        page.keyboard.press("Enter")
        step(page, 9)
        # the battle: 2 dice at 2 hexes, 2 hits with the lesson's seed (then the Axis play)
        expect(page.locator('#log .entry[data-type="unit_hit"]').first).to_be_visible()
        assert english_left(page, lang) == []
    finally:
        ctx.close()
    assert not errors, errors


@pytest.mark.parametrize("locale,lang", [("fr-FR", "fr"), ("de-DE", "de")])
def test_fastplay_lesson_by_keyboard_only(browser, live_server, locale, lang) -> None:
    """Fast Play's first turn: 2 Command Points, one unit moves, the other takes an
    OpFire marker; the German unit moves into its range (the lesson's scripted bot) and
    the player fires on opportunity."""
    errors: list[str] = []
    ctx, page = lesson_page(browser, live_server, locale, "fastplay", errors)
    try:
        step(page, 1)
        assert english_left(page, lang) == []
        expect(page.locator("#fp-cp")).to_have_attribute("data-cp", "2")
        cursor_on_unit(page, "6,10")
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowUp")  # (5,9)
        page.keyboard.press("ArrowRight")  # (5,11)
        assert cursor(page) == "5,11"
        page.keyboard.press("Enter")  # the first hex of the path
        page.keyboard.press("Enter")  # again: move along it
        page.wait_for_function(unit_at(page, 5, 11))
        # step 2: the OpFire marker on the unit at (5,13)
        step(page, 2)
        assert english_left(page, lang) == []
        expect(page.locator("#fp-cp")).to_have_attribute("data-cp", "1")
        cursor_on_unit(page, "5,13")
        page.keyboard.press("Enter")
        press(page, '#actions button[data-action="opfire_marker"]')
        # the Germans move into its range: step 4, fire
        step(page, 4)
        assert english_left(page, lang) == []
        expect(page.locator("#fp-prompt")).to_have_attribute("data-pending", "opportunity_fire")
        expect(page.locator("#fp-timer")).to_have_text("")  # a lesson waits: no auto-pass
        assert audit(page) == []
        press(page, '#fp-prompt button[data-fp-action="opportunity_fire"]')
        step(page, 5)
        expect(page.locator("#dice .die")).to_have_count(2)
        assert english_left(page, lang) == []
    finally:
        ctx.close()
    assert not errors, errors
