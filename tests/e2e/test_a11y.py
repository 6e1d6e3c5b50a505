"""Keyboard and screen reader (issue 40, point 3): the board is played from the keyboard
(arrow keys move a cursor over the hexes, Enter acts, N/P jump to what can be done,
Escape cancels), the hex under the cursor is described in a live region, and an
axe-core audit (pinned npm package, `make axe`) finds no serious or critical violation
on the lobby, a game page and the replay page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .test_remote import new_game  # seed 1: the Allied hand holds "Probe Left Flank"

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / ".venv" / "npm" / "node_modules" / "axe-core" / "axe.min.js"


def audit(page: Page) -> list[str]:
    """axe-core's serious and critical violations of the page as it stands."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed (make axe)")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
        .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    }""")
    return list(found)


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focus is on an element matching `selector` (keyboard only)."""
    seen = []
    for _ in range(limit):
        if page.evaluate(
            "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
        page.keyboard.press("Tab")
        seen.append(
            page.evaluate(
                "() => { const a = document.activeElement; return a ? `${a.tagName}#${a.id}.${a.className}` : '-'; }"
            )
        )
    raise AssertionError(f"Tab never reached {selector}: {seen}")


def test_board_by_keyboard_with_descriptions(new_page) -> None:
    allies, axis = new_page("allies"), new_page("axis")
    gid = new_game(allies, "Howard", seat="ALLIES")
    assert axis.request.post("/api/identity", data={"name": "Rommel"}).ok
    assert axis.request.post(f"/api/games/{gid}/seats/AXIS/claim", data={}).ok
    allies.goto(f"/games/{gid}")
    expect(allies.locator("#prompt")).to_have_attribute("data-mine", "1")
    # the prompt and the dice are live regions; the log is a log
    assert allies.locator("#prompt").get_attribute("aria-live") == "polite"
    assert allies.locator("#roll-caption").get_attribute("aria-live") == "polite"
    assert allies.locator("#log").get_attribute("role") == "log"

    # a card, from the keyboard
    tab_to(allies, '.hand .card.playable[data-name="Probe Left Flank"]')
    allies.keyboard.press("Enter")
    allies.wait_for_function("window.__game.legal.some(a => a.type === 'order')")

    # the board takes the focus; the cursor goes to the first hex with something to do
    tab_to(allies, "[role=application]")
    desc = allies.locator("#hex-description")
    allies.keyboard.press("n")
    expect(desc).to_contain_text("Hex")
    first = allies.locator(".kbd-cursor").get_attribute("data-hex")
    assert allies.evaluate("(h) => window.__hex.model.units.size > 0", first)
    # the arrows move the cursor and describe the hex (terrain, unit, strength)
    allies.keyboard.press("ArrowRight")
    second = allies.locator(".kbd-cursor").get_attribute("data-hex")
    r1, c1 = map(int, first.split(","))
    r2, c2 = map(int, second.split(","))
    assert (r2, abs(c2 - c1)) == (r1, 2)
    allies.keyboard.press("ArrowLeft")
    expect(allies.locator(".kbd-cursor")).to_have_attribute("data-hex", first)
    expect(desc).to_contain_text("figures")
    # Enter orders the unit under the cursor, as a click would
    allies.keyboard.press("Enter")
    allies.wait_for_function("window.__game.view.units.some(u => u.ordered)")
    # every ordered unit, then "Done ordering" from the keyboard
    for _ in range(3):
        if not allies.evaluate("window.__game.legal.some(a => a.type === 'order')"):
            break
        allies.keyboard.press("n")
        allies.keyboard.press("Enter")
        allies.wait_for_timeout(300)
    assert not allies.evaluate("window.__game.legal.some(a => a.type === 'order')")


def test_audit_lobby_game_and_replay(new_page) -> None:
    page = new_page("audit")
    page.goto("/")
    expect(page.locator("#scenario-select option[value='2-PegasusBridge']")).to_have_count(1)
    assert audit(page) == []

    other = new_page("other")
    gid = new_game(page, "Howard", seat="ALLIES")
    assert other.request.post("/api/identity", data={"name": "Rommel"}).ok
    assert other.request.post(f"/api/games/{gid}/seats/AXIS/claim", data={}).ok
    page.goto(f"/games/{gid}")
    expect(page.locator("#hand .card").first).to_be_visible()
    assert audit(page) == []

    page.once("dialog", lambda d: d.accept())
    page.locator("#resign-btn").click()
    expect(page.locator("#banner")).to_be_visible()
    page.goto(f"/games/{gid}/replay")
    expect(page.locator("#rp-pos")).to_have_attribute("data-step", "0")
    assert audit(page) == []
