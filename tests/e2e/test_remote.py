"""Remote play in the browser (issue 15): spectators who chat and are counted, the header
after a claim, wording, favicon, the side panels after a flip, undo and resign with a
confirmation, presence and clocks, the ambush countdown, and a battle log that a reload
rebuilds exactly as it was shown live."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .contrast import low_contrast
from .shots import shot

SEED = 1


def new_game(page: Page, name: str, **body) -> str:
    assert page.request.post("/api/identity", data={"name": name}).ok
    r = page.request.post(
        "/api/games", data={"scenario_id": "2-PegasusBridge", "mode": "1v1", "seed": SEED, **body}
    )
    assert r.ok, r.text()
    return str(r.json()["id"])


def two_players(new_page, **body) -> tuple[Page, Page, str]:
    allies, axis = new_page("allies"), new_page("axis")
    gid = new_game(allies, "Howard", seat="ALLIES", **body)
    assert axis.request.post("/api/identity", data={"name": "Rommel"}).ok
    assert axis.request.post(f"/api/games/{gid}/seats/AXIS/claim", data={}).ok
    allies.goto(f"/games/{gid}")
    axis.goto(f"/games/{gid}")
    expect(allies.locator("#my-seat")).to_have_text("You play Allies")
    expect(axis.locator("#my-seat")).to_have_text("You play Axis")
    return allies, axis, gid


def test_spectator_lands_on_spectator_chat_names_himself_and_is_counted(new_page) -> None:
    allies, axis, gid = two_players(new_page)
    spec = new_page("spectator")
    spec.goto(f"/games/{gid}")
    expect(spec.locator("#my-seat")).to_have_text("Spectating")
    expect(spec.locator(".chat-tabs button.active")).to_have_attribute("data-channel", "spectators")
    expect(allies.locator("#spectator-count")).to_have_attribute("data-count", "1")
    expect(spec.locator("#spectator-count")).to_contain_text("1 spectator")
    spec.locator("#chat-name").fill("Kibitzer")
    spec.locator(".chat-identify button").click()
    expect(spec.locator("#whoami")).to_contain_text("Kibitzer")
    box = spec.locator('.chat-pane[data-channel="spectators"] input[aria-label="chat message"]')
    box.fill("nice bridge")
    box.press("Enter")
    expect(spec.locator(".chat-pane .msg")).to_contain_text("nice bridge")
    expect(allies.locator("#spectator-count")).to_have_attribute("data-count", "1")
    spec.close()
    expect(allies.locator("#spectator-count")).to_have_attribute("data-count", "0")


def test_header_names_the_player_who_claimed_on_the_game_page(new_page) -> None:
    host, guest = new_page("host"), new_page("guest")
    gid = new_game(host, "Howard", seat="ALLIES")
    guest.goto(f"/games/{gid}")
    expect(guest.locator("#whoami")).to_have_text("Not signed in")
    guest.locator("#seat-name").fill("Rommel")
    guest.locator('#seat-bar button[data-claim="AXIS"]').click()
    expect(guest.locator("#my-seat")).to_have_text("You play Axis")
    expect(guest.locator("#whoami")).to_have_text("Playing as Rommel")


def test_wording_before_anyone_joined_and_no_console_errors(new_page, live_server) -> None:
    page = new_page("creator")
    bad: list[str] = []
    page.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto("/")  # anonymous lobby: no 401
    expect(page.locator("#identity-submit")).to_have_text("Enter")
    page.wait_for_load_state("networkidle")
    assert not bad, bad
    icon = page.locator('link[rel="icon"]').get_attribute("href")
    assert page.request.get(icon).ok
    gid = new_game(page, "Howard", seat="ALLIES")
    page.goto(f"/games/{gid}")
    expect(page.locator("#prompt")).to_have_text("Waiting for an opponent to join…")
    expect(page.locator("#pending")).to_be_hidden()  # no "Allies must play a card"
    expect(page.locator("#seat-bar")).to_contain_text("Waiting for an opponent to join…")
    # one card: "1 card"
    page.evaluate("""() => { const v = structuredClone(window.__game.view);
        for (const s of Object.values(v.sides)) { s.hand_count = 1; delete s.hand; }
        window.__client.setView(v, []); }""")
    expect(page.locator("#sides")).to_contain_text("1 card ·")
    expect(page.locator("#sides")).not_to_contain_text("1 cards")
    # an Overlord game of eight seats
    r = page.request.post(
        "/api/games", data={"scenario_id": "2-PegasusBridge", "mode": "team", "seat": "ALLIES:cinc"}
    )
    assert r.ok, r.text()
    page.goto(r.json()["url"])
    expect(page.locator("#prompt")).to_contain_text(
        re.compile(r"Waiting for \d+ more players to join")
    )
    assert not bad, bad


def test_side_panels_follow_the_flipped_board(new_page) -> None:
    allies, axis, _ = two_players(new_page)
    pos = axis.locator('.side-box[data-side="AXIS"] [data-position]')
    expect(pos).to_have_attribute("data-position", "bottom")  # the Axis sees his side below
    axis.locator("#flip-btn").click()
    expect(pos).to_have_attribute("data-position", "top")
    expect(allies.locator('.side-box[data-side="ALLIES"] [data-position]')).to_have_attribute(
        "data-position", "bottom"
    )


def test_undo_a_card_then_resign_with_confirmation(new_page) -> None:
    allies, axis, gid = two_players(new_page)
    expect(allies.locator("#prompt")).to_have_attribute("data-mine", "1")
    expect(allies.locator("#undo-btn")).to_have_count(0)
    n = allies.locator(".hand .card").count()
    allies.locator('.hand .card.playable[data-name="Probe Left Flank"]').click()
    expect(allies.locator(".hand .card")).to_have_count(n - 1)
    allies.locator("#undo-btn").click()
    expect(allies.locator(".hand .card")).to_have_count(n)
    expect(allies.locator("#undo-btn")).to_have_count(0)
    expect(axis.locator('#log .entry[data-type="undone"]')).to_have_count(1)
    # resign: a confirmation first (dismissed: nothing happens; accepted: the game ends)
    axis.once("dialog", lambda d: d.dismiss())
    axis.locator("#resign-btn").click()
    axis.wait_for_timeout(300)
    expect(axis.locator("#banner")).to_be_hidden()
    axis.once("dialog", lambda d: d.accept())
    axis.locator("#resign-btn").click()
    expect(axis.locator("#banner")).to_contain_text("Allies win the battle")
    expect(allies.locator("#banner")).to_contain_text("Victory is yours")
    expect(allies.locator("#log")).to_contain_text("resign")


def test_presence_and_clock_on_the_side_panels(new_page, tmp_path) -> None:
    allies, axis, _ = two_players(
        new_page, clock={"kind": "bank", "initial_seconds": 600, "increment_seconds": 5}
    )
    clock = allies.locator('.clock[data-clock="ALLIES"]')
    expect(clock).to_have_class(re.compile("running"))
    shot(allies, tmp_path / "timed-game.png")
    first = clock.text_content()
    allies.wait_for_timeout(2200)
    assert clock.text_content() != first  # it ticks
    expect(axis.locator('.clock[data-clock="AXIS"]')).to_have_text("Clock 10:00")
    expect(allies.locator('.pres[data-seat="AXIS"]')).to_have_attribute("data-state", "online")
    url = axis.url
    axis.close()  # disconnects ...
    expect(allies.locator('.pres[data-seat="AXIS"]')).to_have_attribute("data-state", "away")
    back = new_page("axis-back")  # ... and returns (same cookie jar)
    back.context.add_cookies(axis.context.cookies())
    back.goto(url)
    expect(back.locator("#my-seat")).to_have_text("You play Axis")
    expect(allies.locator('.pres[data-seat="AXIS"]')).to_have_attribute("data-state", "online")


def test_a_player_out_of_time_loses(new_page) -> None:
    allies, axis, gid = two_players(new_page, clock={"kind": "move", "move_seconds": 5})
    expect(allies.locator('.clock[data-clock="ALLIES"]')).to_have_class(re.compile("running"))
    expect(allies.locator("#banner")).to_contain_text("Axis win the battle", timeout=12000)
    expect(axis.locator("#banner")).to_contain_text("Victory is yours")
    expect(axis.locator("#log")).to_contain_text("timeout")


def test_undo_a_move_but_not_after_the_dice(new_page) -> None:
    from .test_game import act, click_hex

    allies, axis, _ = two_players(new_page)
    expect(allies.locator("#prompt")).to_have_attribute("data-mine", "1")
    act(
        allies, lambda: allies.locator('.hand .card.playable[data-name="Probe Left Flank"]').click()
    )
    act(allies, lambda: click_hex(allies, "6,6"))
    act(allies, lambda: click_hex(allies, "5,5"))
    if "end_orders" in allies.evaluate("window.__game.legal.map(a => a.type)"):
        act(allies, lambda: allies.locator('#actions button[data-action="end_orders"]').click())
    click_hex(allies, "6,6")
    act(allies, lambda: click_hex(allies, "5,7"))
    expect(allies.locator('.unit[data-hex="5,7"]')).to_have_count(1)
    act(allies, lambda: allies.locator("#undo-btn").click())  # the move taken back
    expect(allies.locator('.unit[data-hex="6,6"]')).to_have_count(1)
    expect(axis.locator('.unit[data-hex="5,7"]')).to_have_count(0)
    act(allies, lambda: allies.locator('#actions button[data-action="end_movement"]').click())
    click_hex(allies, "5,5")
    act(allies, lambda: click_hex(allies, "3,7"))  # dice are rolled
    expect(allies.locator("#dice .die").first).to_be_visible()
    expect(allies.locator("#undo-btn")).to_have_count(0)


def test_ambush_prompt_passes_by_itself(new_page) -> None:
    allies, axis, _ = two_players(new_page)
    # the defender's ambush window (as the engine shows it), with or without the card:
    # a countdown, then the pass is sent for him
    axis.evaluate("""() => { window.__sent = [];
        const orig = window.__conn.send.bind(window.__conn);
        window.__conn.send = (m) => { window.__sent.push(m); return 'x'; };
        const v = structuredClone(window.__game.view);
        v.pending = { type: 'ambush', seat: 'AXIS', unit: v.units[0].id };
        window.__client.setView(v, [{ type: 'pass', seat: 'AXIS' }]); }""")
    expect(axis.locator("#ambush-countdown")).to_contain_text("no ambush in")
    # the attacker sees what is awaited and the same countdown (it passes nothing)
    allies.evaluate("""() => { const v = structuredClone(window.__game.view);
        v.pending = { type: 'ambush', seat: 'AXIS', unit: v.units[0].id }; v.to_act = ['AXIS'];
        window.__client.setView(v, []); }""")
    expect(allies.locator("#prompt")).to_contain_text("Axis may react with an Ambush card")
    expect(allies.locator("#ambush-countdown")).to_contain_text("the defender has")
    for page in (allies, axis):
        assert low_contrast(page, "#pending, .status-bar, #remote-bar, #actions") == []
    axis.wait_for_function(
        "window.__sent.some(m => m.type === 'action' && m.action.type === 'pass')", timeout=9000
    )


def _log(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#log .entry", "els => els.map(e => e.textContent).filter(t => !t.includes('— live —'))"
    )


def test_battle_log_and_dice_caption_are_the_same_after_a_reload(new_page) -> None:
    page = new_page("player")
    gid = new_game(page, "Howard", seat="ALLIES", bots=["AXIS"])
    page.goto(f"/games/{gid}")
    expect(page.locator("#my-seat")).to_have_text("You play Allies")
    # the Allies attack whenever they can; the bot answers (no clicking needed)
    for _ in range(400):
        done = page.evaluate("""() => { const S = window.__game;
            const rolls = document.querySelectorAll('#log .entry[data-type="unit_eliminated"], #log .entry[data-type="dice_rolled"]').length;
            if (S.view.game_over || rolls >= 8) return true;
            if (S.pendingSend || !S.legal.length) return false;
            const pick = ['battle', 'retreat', 'play_card', 'order', 'end_orders', 'end_movement', 'end_battles', 'choose_card', 'pass'];
            let a = null;
            for (const t of pick) { a = S.legal.find(x => x.type === t); if (a) break; }
            a = a || S.legal[0];
            S.pendingSend = window.__conn.send({ type: 'action', seq: S.seq, action: a });
            return false; }""")
        if done:
            break
        page.wait_for_timeout(60)
    page.wait_for_timeout(500)
    live = _log(page)
    caption = page.locator("#roll-caption").text_content()
    assert any("rolls" in t for t in live), live
    assert not re.search(r"\bu\d+\b", " ".join(live) + caption), caption  # no internal ids
    seq = page.evaluate("window.__game.seq")
    page.reload()
    page.wait_for_function(f"window.__game.seq === {seq} && window.__game.historyLoaded")
    again = _log(page)
    assert [re.sub(r"^#\d+", "", t) for t in again] == [re.sub(r"^#\d+", "", t) for t in live]
    assert again == live  # the numbers too
    assert page.locator("#roll-caption").text_content() == caption


def test_replay_page_and_return_match_with_summed_medals(new_page, tmp_path) -> None:
    allies, axis, gid = two_players(new_page)
    expect(allies.locator("#prompt")).to_have_attribute("data-mine", "1")
    allies.locator('.hand .card.playable[data-name="Probe Left Flank"]').click()
    allies.wait_for_function(
        "window.__game.legal.some(a => a.type === 'order' || a.type === 'end_orders')"
    )
    allies.locator('.hit[data-hex="6,6"]').click()
    allies.wait_for_function("window.__game.view.units.some(u => u.ordered)")
    allies.once("dialog", lambda d: d.accept())
    allies.locator("#resign-btn").click()
    expect(allies.locator("#banner")).to_contain_text("Axis win the battle")
    assert low_contrast(allies, "#banner, #remote-bar") == []
    # the replay, step by step, from its shareable link
    allies.locator("#replay-link").click()
    expect(allies.locator("#rp-pos")).to_have_attribute("data-step", "0")
    n = allies.evaluate("window.__replay.data.steps.length")
    assert n >= 4
    allies.locator("#rp-fwd").click()
    expect(allies.locator("#rp-pos")).to_have_attribute("data-step", "1")
    expect(allies.locator("#log .entry.current")).to_contain_text("Probe Left Flank")
    allies.locator("#rp-last").click()
    expect(allies.locator("#banner")).to_contain_text("Axis win the battle")
    expect(allies.locator("#log")).to_contain_text("resign")
    allies.locator("#rp-back").click()
    expect(allies.locator("#rp-pos")).to_have_attribute("data-step", str(n - 2))
    link = allies.locator("#rp-share").get_attribute("href")
    assert link.endswith(f"step={n - 2}")
    allies.locator("#rp-speed").select_option("400")
    allies.locator("#rp-first").click()
    allies.locator("#rp-play").click()
    expect(allies.locator("#rp-pos")).to_have_attribute("data-step", str(n - 1), timeout=8000)
    shot(allies, tmp_path / "replay.png", full_page=True)
    viewer = new_page("viewer")
    viewer.goto(link)
    expect(viewer.locator("#rp-pos")).to_have_attribute("data-step", str(n - 2))
    assert viewer.request.get(viewer.locator("#rp-export").get_attribute("href")).ok
    viewer.goto("/")
    expect(viewer.locator(f'#finished-games a[data-replay="{gid}"]')).to_have_count(1)
    # the return match: sides swapped, same players; offered by one, it starts when the
    # other accepts (his page shows the offer), and the offerer's page follows
    axis.locator("#rematch-btn").click()
    expect(axis.locator("#rematch-status")).to_have_attribute("data-status", "offered")
    allies.goto(f"/games/{gid}")
    expect(allies.locator("#rematch-status")).to_have_attribute("data-status", "received")
    allies.locator("#rematch-btn").click()
    expect(allies.locator("#my-seat")).to_have_text("You play Axis")
    expect(axis.locator("#my-seat")).to_have_text("You play Allies", timeout=10000)
    allies.once("dialog", lambda d: d.accept())
    allies.locator("#resign-btn").click()
    expect(allies.locator("#match-link")).to_be_visible()
    allies.locator("#match-link").click()
    expect(allies.locator("#match-result")).to_contain_text(re.compile("wins the match|drawn"))
    expect(allies.locator("#match-totals li")).to_have_count(2)
    expect(allies.locator('#match-totals li[data-player="Rommel"]')).to_contain_text("2 games won")
    expect(allies.locator("#match-result")).to_contain_text("Rommel wins the match")


HIDDEN_TAB = """
localStorage.setItem('overlord.notify', '1');
Object.defineProperty(document, 'hidden', { get: () => true, configurable: true });
window.__notes = [];
window.Notification = class { constructor(title, o) { window.__notes.push([title, (o || {}).body]); }
  static get permission() { return 'granted'; } static requestPermission() { return Promise.resolve('granted'); } };
"""


def test_your_turn_in_title_favicon_and_a_notification(new_page) -> None:
    from .test_game import finish_turn

    allies, axis = new_page("allies"), new_page("axis")
    gid = new_game(allies, "Howard", seat="ALLIES")
    assert axis.request.post("/api/identity", data={"name": "Rommel"}).ok
    assert axis.request.post(f"/api/games/{gid}/seats/AXIS/claim", data={}).ok
    axis.add_init_script(HIDDEN_TAB)  # a hidden tab, notifications on
    allies.goto(f"/games/{gid}")
    axis.goto(f"/games/{gid}")
    expect(allies.locator("#prompt")).to_have_attribute("data-mine", "1")
    assert allies.title().startswith("▶ Your turn")
    assert allies.locator('link[rel="icon"]').get_attribute("href").endswith("favicon-turn.svg")
    assert not axis.title().startswith("▶")
    assert axis.locator('link[rel="icon"]').get_attribute("href").endswith("favicon.svg")
    expect(axis.locator("#notify-toggle")).to_be_checked()
    allies.locator('.hand .card.playable[data-name="Probe Left Flank"]').click()
    allies.wait_for_function(
        "window.__game.legal.some(a => a.type === 'order' || a.type === 'end_orders')"
    )
    finish_turn(allies, axis, "AXIS")
    expect(axis.locator("#prompt")).to_have_attribute("data-mine", "1")
    assert axis.title().startswith("▶ Your turn")
    axis.wait_for_function("window.__notes.length === 1")
    assert axis.evaluate("window.__notes[0][0]") == "Your turn"
    assert not allies.title().startswith("▶")
