"""The replay page of a finished game (issue 35 #12): a game with a dice commitment
offers "Verify dice"; the step buttons carry visible text and inline SVG icons, no
character from a font Debian's chromium may lack (the media-control glyphs U+23E9-23FA
rendered as empty boxes).  A finished Portable Wargame's replay is drawn by its own
renderer (static/renderers/square.js), through the renderer interface."""

from __future__ import annotations

import time

from playwright.sync_api import expect
from .shots import shot


def test_replay_verifies_the_dice_and_its_buttons_read(new_page, tmp_path) -> None:
    allies, axis = new_page("allies"), new_page("axis")
    assert allies.request.post("/api/identity", data={"name": "Howard"}).ok
    # no test seed: the server draws the seed and publishes its commitment
    r = allies.request.post("/api/games", data={"scenario_id": "2-PegasusBridge", "seat": "ALLIES"})
    assert r.ok and r.json()["fair_dice"]["commitment"]
    gid = r.json()["id"]
    assert axis.request.post("/api/identity", data={"name": "Rommel"}).ok
    assert axis.request.post(f"/api/games/{gid}/seats/AXIS/claim", data={}).ok
    allies.goto(f"/games/{gid}")
    expect(allies.locator("#my-seat")).to_have_text("You play Allies")
    allies.once("dialog", lambda d: d.accept())
    allies.locator("#resign-btn").click()
    expect(allies.locator("#banner")).to_contain_text("Axis win the battle")
    assert (
        allies.request.get(f"/api/games/{gid}/replay").json()["verify_url"]
        == f"/games/{gid}/verify"
    )
    allies.goto(f"/games/{gid}/replay")
    link = allies.locator("#rp-verify-link")
    expect(link).to_have_text("Verify dice")
    assert link.get_attribute("href") == f"/games/{gid}/verify"
    for bid, word in (
        ("rp-first", "First"),
        ("rp-back", "Back"),
        ("rp-play", "Play"),
        ("rp-fwd", "Next"),
        ("rp-last", "Last"),
    ):
        b = allies.locator(f"#{bid}")
        expect(b).to_contain_text(word)
        text = b.text_content() or ""
        assert all(ord(c) < 0x2000 for c in text), (bid, text)
        expect(b.locator("svg")).to_have_count(1)
        box = b.locator("svg").bounding_box()
        assert box and box["width"] > 0
    shot(allies.locator("#controls"), tmp_path / "replay-controls.png")
    allies.locator("#rp-play").click()
    expect(allies.locator("#rp-play")).to_contain_text("Pause")
    link.click()
    allies.wait_for_url(f"**/games/{gid}/verify")


def test_a_portable_replay_is_drawn_by_the_square_renderer(new_page, tmp_path) -> None:
    """A finished Portable Wargame (two bots play it to the end): the replay API names the
    ruleset and its renderer, and the replay page draws every step with the game page's
    renderer module (static/renderers/square.js), its log from the renderer's words."""
    page = new_page("umpire")
    assert page.request.post("/api/identity", data={"name": "Umpire"}).ok
    r = page.request.post(
        "/api/games",
        data={
            "ruleset": "portable",
            "seed": 44,
            "bots": ["RED", "BLUE"],
            "options": {"turn_limit": "8", "red_army": "mahdist"},
        },
    )
    assert r.ok, r.text()
    gid = r.json()["id"]
    deadline = time.monotonic() + 90
    while page.request.get(f"/api/games/{gid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.3)
    data = page.request.get(f"/api/games/{gid}/replay").json()
    assert (data["ruleset"], data["renderer"], data["panels"]) == ("portable", "square", [])
    last = data["steps_total"] - 1
    final = data["steps"][-1]["view"] if data["next_from"] is None else None
    page.goto(f"/games/{gid}/replay")
    board = page.locator('#board svg.sq-board[data-ruleset="portable"]')
    expect(board).to_have_count(1)
    expect(page.locator("#dice-panel")).to_be_hidden()
    expect(page.locator("#rp-pos")).to_have_attribute("data-step", "0")
    page.locator("#rp-fwd").click()
    expect(page.locator("#rp-pos")).to_have_attribute("data-step", "1")
    expect(page.locator("#log .entry").first).to_be_visible()
    page.locator("#rp-last").click()
    expect(page.locator("#rp-pos")).to_have_attribute("data-step", str(last))
    expect(board).to_have_count(1)
    winner = page.request.get(f"/api/games/{gid}").json()["winner"]
    expect(page.locator("#sq-result")).to_have_attribute("data-winner", winner or "draw")
    expect(page.locator("#banner")).to_be_visible()
    if final is not None:
        assert final["game_over"]
    # the log reads the renderer's words, not event types
    text = page.locator("#log").inner_text()
    assert "dice_rolled" not in text and text.strip()
    # back to the second step: the rolls of steps 0-1 shown (the set-up's), none of later steps
    early = [e for st in data["steps"][:2] for e in st["events"] if e["type"] == "dice_rolled"]
    later = [e for st in data["steps"][2:] for e in st["events"] if e["type"] == "dice_rolled"]
    assert early and later
    page.locator("#rp-first").click()
    page.locator("#rp-fwd").click()
    expect(page.locator("#rp-pos")).to_have_attribute("data-step", "1")
    shown = sum(len(e.get("dice") or []) for e in early[-8:])
    expect(page.locator("#sq-dice .sq-die")).to_have_count(shown)
    shot(page, tmp_path / "portable-replay.png", full_page=True)
