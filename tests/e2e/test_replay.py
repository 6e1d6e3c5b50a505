"""The replay page of a finished game (issue 35 #12): a game with a dice commitment
offers "Verify dice"; the step buttons carry visible text and inline SVG icons, no
character from a font Debian's chromium may lack (the media-control glyphs U+23E9-23FA
rendered as empty boxes)."""

from __future__ import annotations

from playwright.sync_api import expect


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
    allies.locator("#controls").screenshot(path=str(tmp_path / "replay-controls.png"))
    allies.locator("#rp-play").click()
    expect(allies.locator("#rp-play")).to_contain_text("Pause")
    link.click()
    allies.wait_for_url(f"**/games/{gid}/verify")
