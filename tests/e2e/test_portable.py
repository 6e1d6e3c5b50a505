"""The 3x3 Portable Wargame in the browser.

``test_square_renderer_plays_a_whole_battle_by_clicking``: the renderer module
static/renderers/square.js on a bare page, driven through its interface (mount/render,
sendAction captured) by the real engine in this process: every decision of a whole
battle, from the attacker throw to the result, is made by clicking (seeded random
choices among the legal actions), for whichever seat is to act; chance steps are sampled
as the server does.  Screenshots under the test's tmp dir."""

from __future__ import annotations

import json
import random

from playwright.sync_api import expect

import engine.rulesets  # noqa: F401
from engine.core.ruleset import get
from .shots import shot

R = get("portable")

HARNESS = """<!doctype html><html><head><meta charset="utf-8"></head>
<body style="background:#222"><div id="board"></div>
<script type="module">
import * as M from '/static/renderers/square.js';
window.__sent = [];
M.mount(document.getElementById('board'), {ruleset: 'portable', renderer: 'square',
  seat: null, seats: [], sendAction: (a) => window.__sent.push(a), say: () => {}});
window.__render = (s) => M.render(s);
window.__ready = true;
</script></body></html>"""


def corner(page, selector):
    """Click an area where no piece stands: its top-right corner."""
    loc = page.locator(selector).first
    box = loc.bounding_box()
    while box is None:  # the board was just drawn again (the bot's update): the new one
        loc.wait_for(state="visible")
        box = loc.bounding_box()
    loc.click(position={"x": box["width"] - 10, "y": 10})


def gesture(page, a):
    """The clicks that should make the renderer send ``a``."""
    t = a["type"]
    if t in ("deploy",):
        page.locator(f'[data-tray-unit="{a["unit"]}"]').click()
        corner(page, f'g[data-area="{a["to"]}"]')
    elif t in ("redeploy", "move"):
        page.locator(f'g[data-unit="{a["unit"]}"]').click()
        corner(page, f'g[data-area="{a["to"]}"]')
    elif t == "fire":
        page.locator(f'g[data-unit="{a["unit"]}"]').click()
        corner(page, f'g[data-area="{a["target"]}"]')
    elif t == "attack":
        page.locator(f'g[data-unit="{a["unit"]}"]').click()
        page.locator(f'g[data-unit="{a["target"]}"]').click()
    elif t == "place_terrain" and "-" not in a["at"]:
        corner(page, f'g[data-area="{a["at"]}"]')
    else:
        value = a.get("first") or a.get("at") or ""
        page.locator(f'#sq-actions button[data-action="{t}"][data-value="{value}"]').click()


def test_square_renderer_plays_a_whole_battle_by_clicking(new_page, live_server, tmp_path):
    page = new_page("portable")
    page.goto("/healthz")
    page.set_content(HARNESS)
    page.wait_for_function("window.__ready === true")
    rnd = random.Random(3)
    st = R.new_game(3)
    events: list = []
    seq = 0
    shots = 0
    kinds_done = set()
    while not R.is_over(st):
        if R.is_chance(st):
            st, ev = R.apply(st, R.sample_chance(st))
            events += ev
            continue
        seat = R.to_act(st)[0]
        legal = R.legal_actions(st, seat)
        s = {
            "view": R.view_for(st, seat),
            "board": R.board(st),
            "legal": legal,
            "seq": seq,
            "status": "active",
            "seat": seat,
            "seats": [seat],
            "events": events,
        }
        page.evaluate("s => window.__render(s)", json.loads(json.dumps(s)))
        want = rnd.choice(legal)
        gesture(page, want)
        sent = page.evaluate("window.__sent.splice(0)")
        assert sent == [want], (want, sent)
        kinds_done.add(want["type"])
        if (
            shots < 6
            and want["type"] in ("place_terrain", "redeploy", "attack", "fire")
            or seq == 0
        ):
            shot(page, tmp_path / f"portable-{seq:03d}-{want['type']}.png")
            shots += 1
        st, events = R.apply(st, want)
        seq += 1
    s = {
        "view": R.view_for(st, None),
        "board": R.board(st),
        "legal": [],
        "seq": seq,
        "status": "finished",
        "seat": None,
        "seats": [],
        "events": events,
    }
    page.evaluate("s => window.__render(s)", json.loads(json.dumps(s)))
    result = page.locator("#sq-result")
    assert result.get_attribute("data-winner") == (st.winner or "draw")
    shot(page, tmp_path / "portable-result.png")
    assert {"deploy", "move", "attack"} <= kinds_done
    assert page.locator("#sq-dice .sq-die").count() > 0


# ---------------------------------------------------------------- on the real server


def units_of(page):
    return page.evaluate(
        "Object.fromEntries(window.__game.view.units.map(u => [u.id, [u.area, u.sp, u.lost]]))"
    )


def test_two_browsers_play_a_portable_battle_and_a_spectator_watches(
    new_page, live_server, tmp_path
):
    """The lobby's ruleset list offers the Portable Wargame; RED creates a game (no
    scenario: the set-up is played), BLUE claims the other seat on the game page, a
    spectator watches.  Every decision from the attacker throw to the result is a click
    (seeded random choice among the seat's legal actions); the spectator reconnects
    half-way and sees the same battle."""
    red, blue, spectator = new_page("red"), new_page("blue"), new_page("spectator")
    listed = red.request.get("/api/rulesets").json()
    assert any(
        r["name"] == "portable" and r["setup"] == "none" and r["renderer"] == "square"
        for r in listed
    )
    assert red.request.post("/api/identity", data={"name": "Chelmsford"}).ok
    r = red.request.post(
        "/api/games", data={"ruleset": "portable", "mode": "1v1", "seat": "RED", "seed": 11}
    )
    assert r.ok, r.text()
    gid = r.json()["id"]
    assert blue.request.post("/api/identity", data={"name": "Cetshwayo"}).ok
    blue.goto(f"/games/{gid}")
    blue.locator('#seat-bar button[data-claim="BLUE"]').click()
    red.goto(f"/games/{gid}")
    spectator.goto(f"/games/{gid}")
    for p in (red, blue, spectator):
        p.wait_for_function("window.__game && window.__game.view && window.__game.seq !== null")
    expect_seat(blue, "BLUE")
    expect_seat(red, "RED")
    # chat: a player writes to everybody; the spectator reads but cannot write
    red.fill("#chat input", "The column will hold at the drift")
    red.press("#chat input", "Enter")
    expect(blue.locator("#chat .messages")).to_contain_text("The column will hold")
    # a spectator lands on the spectators' channel (issue 15): the All tab has it
    spectator.locator('#chat .chat-tabs button[data-channel="all"]').click()
    expect(spectator.locator("#chat .messages")).to_contain_text("The column will hold")
    expect(spectator.locator('#chat [data-closed="1"]')).to_be_visible()
    rnd = random.Random(11)
    pages = {"RED": red, "BLUE": blue}
    shots = 0
    reconnected = False
    for step in range(2000):
        view = red.evaluate("window.__game.view")
        if view["game_over"]:
            break
        seat = view["to_act"][0] if view["to_act"] else None
        page = pages.get(seat)
        if page is None:
            red.wait_for_timeout(100)
            continue
        page.wait_for_function("window.__game.legal.length > 0")
        legal = page.evaluate("window.__game.legal")
        want = rnd.choice(legal)
        before = page.evaluate("window.__game.seq")
        gesture(page, want)
        page.wait_for_function(f"window.__game.seq > {before}")
        red.wait_for_function(f"window.__game.seq >= {before + 1}")
        if shots < 5 and want["type"] in ("place_terrain", "redeploy", "attack", "fire"):
            shot(page, tmp_path / f"live-{step:03d}-{seat}-{want['type']}.png", full_page=True)
            shots += 1
        if not reconnected and view["turn"] >= 2:
            spectator.reload()
            spectator.wait_for_function("window.__game && window.__game.view")
            reconnected = True
    else:
        raise AssertionError("the battle did not end")
    seq = red.evaluate("window.__game.seq")
    for p in (blue, spectator):
        p.wait_for_function(f"window.__game.seq === {seq}")
    assert units_of(spectator) == units_of(red) == units_of(blue)
    assert reconnected
    winner = red.evaluate("window.__game.view.winner") or "draw"
    for p in (red, blue, spectator):
        assert p.locator("#sq-result").get_attribute("data-winner") == winner
    assert spectator.evaluate("window.__game.legal.length") == 0
    for name, p in (("red", red), ("blue", blue), ("spectator", spectator)):
        shot(p, tmp_path / f"live-end-{name}.png", full_page=True)


def expect_seat(page, seat):
    page.wait_for_function(f"window.__game.seat === '{seat}'")


def test_the_lobby_offers_the_portable_wargame_against_the_bot(new_page, live_server, tmp_path):
    """Lobby: Rules "The Portable Wargame (3x3)" (no scenario asked), bots play the
    other seat; the creator plays RED on the game page while the server's bot plays BLUE."""
    page = new_page("solo")
    assert page.request.post("/api/identity", data={"name": "Wolseley"}).ok
    page.goto("/")
    page.select_option("#ruleset-select", "portable")
    expect(page.locator("#scenario-label")).to_be_hidden()
    expect(page.locator("#ruleset-info")).to_contain_text("3x3 square grid")
    expect(page.locator('#options-list [data-option="turn_limit"]')).to_have_count(1)
    page.locator("#bots-check").check()
    shot(page, tmp_path / "lobby-portable.png", full_page=True)
    page.locator("#create-submit").click()
    page.wait_for_url("**/games/**")
    page.wait_for_function("window.__game && window.__game.view && window.__game.seat === 'RED'")
    rnd = random.Random(5)
    for _ in range(400):
        page.wait_for_function(
            "window.__game.legal.length > 0 || window.__game.view.game_over"
            " || (window.__game.view.turn >= 2)"
        )
        view = page.evaluate("window.__game.view")
        if view["game_over"] or view["turn"] >= 2:
            break
        legal = page.evaluate("window.__game.legal")
        before = page.evaluate("window.__game.seq")
        gesture(page, rnd.choice(legal))
        page.wait_for_function(f"window.__game.seq > {before}")
    view = page.evaluate("window.__game.view")
    assert view["game_over"] or view["turn"] >= 2
    assert any(u["area"] for u in view["units"] if u["side"] == "BLUE")  # the bot deployed
    shot(page, tmp_path / "solo-vs-bot.png", full_page=True)


def test_a_private_game_is_watched_through_its_invite_link(new_page, live_server, tmp_path):
    """A spectator of a private Portable game (renderer ``square``) opens the invite link:
    the page's websocket carries ``invite`` (the server refuses a private game's watcher
    without it, close code 4403), so the board comes; a watcher without the code sees
    "not authorised" and the page stops knocking."""
    red, watcher, stranger = new_page("red"), new_page("watcher"), new_page("stranger")
    assert red.request.post("/api/identity", data={"name": "Red"}).ok
    r = red.request.post(
        "/api/games", data={"ruleset": "portable", "mode": "1v1", "seat": "RED", "private": True}
    )
    assert r.ok, r.text()
    gid, invite = r.json()["id"], r.json()["invite"]
    assert invite
    watcher.goto(f"/games/{gid}?invite={invite}")
    watcher.wait_for_function("window.__game && window.__game.seq !== null")
    expect(watcher.locator("#my-seat")).to_have_text("Spectating")
    expect(watcher.locator('#seat-bar [data-claim="BLUE"]')).to_have_count(1)
    stranger.goto(f"/games/{gid}")
    expect(stranger.locator("#conn")).to_have_text("not authorised")
    assert stranger.evaluate("window.__game.seq") is None
