"""Phones and small screens (issue 15, point 7): the lobby and the game pages at 390x844
and 768x1024 — no sideways overflow, a board that fills the width, zooms (buttons and
pinch) and pans, near the top of the page, with the prompt and the hand reachable.
Screenshots are written to the test's tmp_path."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from .shots import shot

SIZES = [(390, 844), (768, 1024)]


def _page(browser, live_server, w: int, h: int):
    ctx = browser.new_context(
        viewport={"width": w, "height": h},
        base_url=live_server.base,
        has_touch=True,
        is_mobile=w < 500,
        device_scale_factor=2,
    )
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def _no_overflow(page) -> None:
    over = page.evaluate("""() => { const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll('body *')].filter(e => {
            const r = e.getBoundingClientRect();
            return r.width && r.right > w + 1 && !e.closest('.board-scroll'); })
          .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)); }""")
    assert not over, over
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )


@pytest.mark.parametrize("w,h", SIZES)
def test_lobby_fits(browser, live_server, tmp_path, w, h) -> None:
    ctx, page, errors = _page(browser, live_server, w, h)
    assert page.request.post("/api/identity", data={"name": "Pocket"}).ok
    r = page.request.post(
        "/api/games", data={"scenario_id": "2-PegasusBridge", "mode": "1v1", "seat": "ALLIES"}
    )
    assert r.ok
    page.goto("/")
    expect(page.locator("#create-submit")).to_be_enabled()
    expect(page.locator(f'#open-games [data-watch="{r.json()["id"]}"]')).to_have_count(1)
    page.locator("#options-box summary").click()
    expect(page.locator("#options-list")).to_be_visible()
    _no_overflow(page)
    shot(page, tmp_path / f"lobby-{w}x{h}.png", full_page=True)
    ctx.close()
    assert not errors, errors


@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize(
    "scenario,mode", [("2-PegasusBridge", "1v1"), ("13-OmahaBeachOverlord", "overlord")]
)
def test_game_page_fits_zooms_and_pans(
    browser, live_server, tmp_path, w, h, scenario, mode
) -> None:
    ctx, page, errors = _page(browser, live_server, w, h)
    assert page.request.post("/api/identity", data={"name": "Pocket"}).ok
    body = {"scenario_id": scenario, "mode": mode, "seed": 1}
    if mode == "1v1":
        body.update(seat="ALLIES", bots=["AXIS"])
    else:
        body.update(layout={"AXIS": "1", "ALLIES": "1"}, seat="ALLIES:cinc", bots=["AXIS:cinc"])
    r = page.request.post("/api/games", data=body)
    assert r.ok, r.text()
    page.goto(r.json()["url"])
    expect(page.locator(".board-svg")).to_be_visible()
    shot(page, tmp_path / f"game-{mode}-{w}x{h}-top.png")
    _no_overflow(page)
    scroll = page.locator(".board-scroll")
    box = scroll.bounding_box()
    assert box["width"] >= w * 0.94  # the board uses the width
    assert box["y"] < 0.55 * h, box  # near the top, not 875 px down
    svg_w = page.locator(".board-svg").bounding_box()["width"]
    hex_px = svg_w / (page.evaluate("window.__game.board.max_col") / 2 + 1)
    assert hex_px >= 26, hex_px  # figures readable
    # zoom with the buttons, pan by scrolling the board
    page.locator("#zoom-fit").click()
    svg_w = page.locator(".board-svg").bounding_box()["width"]
    page.locator("#zoom-in").click()
    wider = page.locator(".board-svg").bounding_box()["width"]
    assert wider > svg_w * 1.15
    scroll.evaluate("e => { e.scrollLeft = 120; }")
    assert scroll.evaluate("e => e.scrollLeft") > 0
    # pinch: two fingers spreading apart zoom in
    before = page.locator(".board-svg").bounding_box()["width"]
    page.evaluate("""() => { const el = document.querySelector('.board-scroll');
        const t = (id, x, y) => new Touch({ identifier: id, target: el, clientX: x, clientY: y });
        el.dispatchEvent(new TouchEvent('touchstart', { touches: [t(1, 100, 300), t(2, 140, 300)], bubbles: true, cancelable: true }));
        el.dispatchEvent(new TouchEvent('touchmove', { touches: [t(1, 60, 300), t(2, 200, 300)], bubbles: true, cancelable: true }));
        el.dispatchEvent(new TouchEvent('touchend', { touches: [], bubbles: true, cancelable: true })); }""")
    assert page.locator(".board-svg").bounding_box()["width"] > before * 1.3
    page.locator("#zoom-fit").click()
    assert (
        abs(page.locator(".board-svg").bounding_box()["width"] - scroll.bounding_box()["width"])
        < 20
    )
    # the prompt stays on screen while scrolling; the hand is reachable
    page.mouse.wheel(0, 1500)
    page.wait_for_timeout(200)
    pb = page.locator(".status-bar").bounding_box()
    assert pb["y"] >= -1 and pb["y"] < h, pb
    if mode == "1v1":
        page.locator("#hand-panel").scroll_into_view_if_needed()
        expect(page.locator("#hand .card").first).to_be_in_viewport()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, tmp_path / f"game-{mode}-{w}x{h}.png", full_page=True)
    ctx.close()
    assert not errors, errors


@pytest.mark.parametrize("w,h", SIZES)
@pytest.mark.parametrize("lesson", ["m44", "overlord", "fastplay"])
def test_lesson_pages_fit_a_phone_and_pass_the_audit(
    browser, live_server, tmp_path, lesson, w, h
) -> None:
    """Each lesson of "Learn to play" (app/tutorial.py) on a phone and a tablet: no overflow,
    the board across the width, the lesson's step readable and the control it asks for
    reachable; and axe-core finds no serious or critical violation on the page."""
    from .test_a11y import audit

    ctx, page, errors = _page(browser, live_server, w, h)
    assert page.request.post("/api/identity", data={"name": "Pocket"}).ok
    r = page.request.post(f"/api/tutorials/{lesson}")
    assert r.ok, r.text()
    g = r.json()
    mine = [s["seat"] for s in g["seats"] if s["mine"]]
    page.goto(g["url"] + (f"?as={mine[0]}" if len(mine) > 1 else ""))
    step = page.locator("#lesson")
    expect(step).to_have_attribute("data-step", "1")
    expect(page.locator(".board-svg")).to_be_visible()
    _no_overflow(page)
    assert page.locator(".board-scroll").bounding_box()["width"] >= w * 0.94
    box = step.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= w + 1, box
    assert (
        page.locator("#lesson .lesson-text").evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        >= 14
    )
    asked = {
        "m44": '.hand .card.playable[data-name="Probe Centre"]',
        "overlord": '#ol-hand .card[data-name="Attack Centre"]',
        "fastplay": "#fp-cp",
    }[lesson]
    control = page.locator(asked)
    control.scroll_into_view_if_needed()
    expect(control).to_be_in_viewport()
    cbox = control.bounding_box()
    assert cbox["x"] >= 0 and cbox["x"] + cbox["width"] <= w + 1, cbox
    shot(page, tmp_path / f"lesson-{lesson}-{w}.png", full_page=True)
    assert audit(page) == []
    ctx.close()
    assert not errors, errors
