"""Where things are (issue 35 #11): on a phone (390x844) the dice, medals, clocks,
Resign / Undo and the log sit next to the board (after a battle the dice show without
scrolling the board away); on a 1500x1000 desktop the hand is above the fold.
Screenshots in the test's tmp_path."""

from __future__ import annotations

from playwright.sync_api import expect

from .contrast import low_contrast
from .shots import shot


def _game(page, clock: bool = True) -> str:
    assert page.request.post("/api/identity", data={"name": "Pocket"}).ok
    body = {
        "scenario_id": "2-PegasusBridge",
        "mode": "1v1",
        "seed": 1,
        "seat": "ALLIES",
        "bots": ["AXIS"],
    }
    if clock:
        body["clock"] = {"kind": "bank", "initial_seconds": 900, "increment_seconds": 5}
    r = page.request.post("/api/games", data=body)
    assert r.ok, r.text()
    return str(r.json()["url"])


def _in_view(page, selector: str, h: int) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= -1 and box["y"] + min(box["height"], 40) <= h + 1, (selector, box)
    return box


def test_phone_keeps_dice_medals_clock_resign_and_log_by_the_board(
    browser, live_server, tmp_path
) -> None:
    w, h = 390, 844
    ctx = browser.new_context(
        viewport={"width": w, "height": h},
        base_url=live_server.base,
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(_game(page))
    expect(page.locator(".board-svg")).to_be_visible()
    expect(page.locator("#resign-btn")).to_be_visible()
    shot(page, tmp_path / "phone-top.png")
    board = _in_view(page, ".board-scroll", h)
    # scrolled so that the dice show: the board is still on screen above them
    page.locator("#dice-panel").scroll_into_view_if_needed()
    shot(page, tmp_path / "phone-dice.png")
    board = page.locator(".board-scroll").bounding_box()
    dice = _in_view(page, "#dice-panel", h)
    resign = _in_view(page, "#resign-btn", h)  # between the board and the dice
    assert board["y"] + board["height"] <= resign["y"] <= dice["y"], (board, resign, dice)
    assert board["y"] + board["height"] > 60 and dice["y"] >= board["y"] + board["height"] - 1, (
        board,
        dice,
    )
    # the medals and the clocks follow right after the dice, then the log
    page.locator("#sides").scroll_into_view_if_needed()
    _in_view(page, "#sides .medals", h)
    _in_view(page, "#sides [data-clock]", h)
    page.locator("#log-panel").scroll_into_view_if_needed()
    _in_view(page, "#log-panel", h)
    order = page.evaluate("""() => ['.board-scroll', '#remote-bar', '#dice-panel', '#sides', '#log-panel', '#chat']
        .map((s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY)""")
    assert order == sorted(order), order
    # everything the player needs sits within two screens of the board's top
    assert order[4] - order[0] < 2 * h, order
    shot(page, tmp_path / "phone-full.png", full_page=True)
    ctx.close()


def test_desktop_shows_the_hand_above_the_fold(new_page, tmp_path) -> None:
    page = new_page("desk")  # 1500x1000
    page.goto(_game(page, clock=False))
    expect(page.locator("#hand .card").first).to_be_visible()
    shot(page, tmp_path / "desktop.png")
    assert low_contrast(page, "header, main") == []  # every text of the page reads
    for sel in ("#hand .card", ".board-scroll", "#sides .medals", "#dice-panel", "#resign-btn"):
        _in_view(page, sel, 1000)
    ctx_cards = page.locator("#hand .card").count()
    assert ctx_cards >= 4
    box = page.locator("#hand .card").nth(ctx_cards - 1).bounding_box()
    assert box["y"] + box["height"] <= 1000, box  # the whole hand
