"""Two browsers play the first turns of Pegasus Bridge by clicking; a third watches.

The game is created with a fixed seed so that the Allied hand holds "Probe Left Flank"
(seed 1: Allies Probe Centre, Assault Centre, Assault Right Flank, Attack Centre, Probe
Left Flank, Assault Left Flank; Axis Recon Right Flank, Counter-Attack)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from .shots import shot

SEED = 1


def units_on(page: Page) -> dict[str, str]:
    return page.eval_on_selector_all(
        ".layer-units .unit",
        "els => Object.fromEntries(els.map(e => [e.dataset.unit, e.dataset.hex + '/' + e.dataset.figures]))",
    )


def click_hex(page: Page, hex_: str) -> None:
    page.locator(f'.hit[data-hex="{hex_}"]').click()


def wait_my_turn(page: Page) -> None:
    expect(page.locator("#prompt")).to_have_attribute("data-mine", "1", timeout=15000)


def seq_of(page: Page) -> int:
    return page.evaluate("window.__game.seq")


def wait_seq_after(page: Page, seq: int) -> None:
    page.wait_for_function(f"window.__game.seq > {seq} && !window.__game.pendingSend")


def act(page: Page, fn) -> None:
    """Do a gesture that sends one action and wait until it has been applied."""
    before = seq_of(page)
    fn()
    wait_seq_after(page, before)


def finish_turn(page: Page, other: Page, side_other: str) -> None:
    """Resolve whatever is left of the current turn (retreats on the other page,
    end-of-phase buttons, recon card choice) until the other side is to act."""
    for _ in range(30):
        if (
            other.evaluate("window.__game.view.to_act").__contains__(side_other)
            and other.evaluate("window.__game.legal.length") > 0
            and other.evaluate("window.__game.view.pending && window.__game.view.pending.type")
            == "play_card"
        ):
            return
        legal_other = other.evaluate("window.__game.legal.map(a => a.type)")
        if "retreat" in legal_other:
            hx = other.locator(".hl-retreat").first.get_attribute("data-hex")
            act(other, lambda: click_hex(other, hx))
            continue
        legal = page.evaluate("window.__game.legal.map(a => a.type)")
        if not legal:
            page.wait_for_timeout(200)
            continue
        for t in ("end_battles", "end_movement", "end_orders", "end_targets"):
            if t in legal:
                act(page, lambda t=t: page.locator(f'#actions button[data-action="{t}"]').click())
                break
        else:
            if "choose_card" in legal:
                act(page, lambda: page.locator("#choice .card.playable").first.click())
            elif "take_ground" in legal:
                act(
                    page, lambda: page.locator('#actions button[data-action="take_ground"]').click()
                )
            elif "pass" in legal:
                act(page, lambda: page.locator('#actions button[data-action="pass"]').click())
            else:
                raise AssertionError(f"don't know how to finish the turn: {legal}")
    raise AssertionError("the turn did not pass")


def test_pegasus_bridge_first_turns(new_page, live_server, tmp_path):
    allies, axis, spectator = new_page("allies"), new_page("axis"), new_page("spectator")

    assert allies.request.post("/api/identity", data={"name": "Howard"}).ok
    r = allies.request.post(
        "/api/games",
        data={"scenario_id": "2-PegasusBridge", "mode": "1v1", "seat": "ALLIES", "seed": SEED},
    )
    assert r.ok, r.text()
    gid = r.json()["id"]

    # The Axis player arrives through the game page and claims the free seat by clicking.
    assert axis.request.post("/api/identity", data={"name": "Rommel"}).ok
    axis.goto(f"/games/{gid}")
    axis.locator('#seat-bar button[data-claim="AXIS"]').click()
    expect(axis.locator("#my-seat")).to_have_text("You play Axis")

    allies.goto(f"/games/{gid}")
    spectator.goto(f"/games/{gid}")
    expect(allies.locator("#my-seat")).to_have_text("You play Allies")
    expect(spectator.locator("#my-seat")).to_have_text("Spectating")
    expect(allies.locator("#conn")).to_have_attribute("data-state", "ok")

    # ---- Allied turn 1: play a card -------------------------------------------------
    wait_my_turn(allies)
    expect(allies.locator(".hand .card")).to_have_count(6)
    expect(axis.locator(".hand .card")).to_have_count(2)
    expect(axis.locator("#prompt")).to_have_attribute("data-mine", "0")
    # the board: the Axis seat sees its own baseline at the bottom
    assert allies.locator(".board-svg").get_attribute("data-flipped") == "0"
    assert axis.locator(".board-svg").get_attribute("data-flipped") == "1"
    shot(allies, tmp_path / "01-allies-start.png", full_page=True)

    act(
        allies, lambda: allies.locator('.hand .card.playable[data-name="Probe Left Flank"]').click()
    )
    expect(allies.locator(".played-card").first).to_contain_text("Probe Left Flank")
    expect(spectator.locator(".played-card").first).to_contain_text("Probe Left Flank")

    # ---- order two units of the left flank -----------------------------------------
    expect(allies.locator('.hl-select[data-hex="6,6"]')).to_have_count(1)
    expect(allies.locator('.hl-select[data-hex="7,9"]')).to_have_count(0)  # centre: not orderable
    act(allies, lambda: click_hex(allies, "6,6"))
    expect(allies.locator('.unit[data-hex="6,6"]')).to_have_class(re.compile("ordered"))
    act(allies, lambda: click_hex(allies, "5,5"))
    if "end_orders" in allies.evaluate("window.__game.legal.map(a => a.type)"):
        act(allies, lambda: allies.locator('#actions button[data-action="end_orders"]').click())

    # ---- move: select the unit, click a highlighted hex ------------------------------
    click_hex(allies, "6,6")
    expect(allies.locator('.hl-move[data-hex="5,7"]')).to_have_count(1)
    shot(allies, tmp_path / "02-allies-move-targets.png", full_page=True)
    act(allies, lambda: click_hex(allies, "5,7"))
    expect(allies.locator('.unit[data-hex="5,7"]')).to_have_count(1)
    expect(spectator.locator('.unit[data-hex="5,7"]')).to_have_count(1)
    expect(axis.locator('.unit[data-hex="5,7"]')).to_have_count(1)
    act(allies, lambda: allies.locator('#actions button[data-action="end_movement"]').click())

    # ---- battle: Howard's unit at (5,5) fires at the German unit on (3,7) ----------
    expect(allies.locator("#turn")).to_contain_text("Battle")
    click_hex(allies, "5,5")
    expect(allies.locator('.hl-battle[data-hex="3,7"]')).to_have_count(1)
    shot(allies, tmp_path / "03-allies-battle-targets.png", full_page=True)
    act(allies, lambda: click_hex(allies, "3,7"))
    expect(allies.locator("#dice .die").first).to_be_visible()
    expect(spectator.locator("#dice .die").first).to_be_visible()
    n_dice = allies.locator("#dice .die").count()
    assert n_dice >= 1
    expect(allies.locator('#log .entry[data-type="dice_rolled"]')).to_have_count(1)
    shot(allies, tmp_path / "04-allies-after-battle.png", full_page=True)

    finish_turn(allies, axis, "AXIS")

    # ---- Axis turn 2: Recon, order, move, keep one of two drawn cards -----------------
    wait_my_turn(axis)
    expect(axis.locator("#pending")).to_contain_text("Axis must play a command card")
    act(axis, lambda: axis.locator('.hand .card.playable[data-name="Recon Right Flank"]').click())
    first = axis.locator(".hl-select").first.get_attribute("data-hex")
    act(axis, lambda: click_hex(axis, first))
    if "end_orders" in axis.evaluate("window.__game.legal.map(a => a.type)"):
        act(axis, lambda: axis.locator('#actions button[data-action="end_orders"]').click())
    if "move" in axis.evaluate("window.__game.legal.map(a => a.type)"):
        click_hex(axis, first)
        target = axis.locator(".hl-move").first.get_attribute("data-hex")
        act(axis, lambda: click_hex(axis, target))
    shot(axis, tmp_path / "05-axis-turn.png", full_page=True)
    finish_turn(axis, allies, "ALLIES")
    wait_my_turn(allies)

    # ---- the spectator sees the same units as the players, and no cards -------------
    spectator.wait_for_function(f"window.__game.seq === {seq_of(allies)}")
    assert units_on(spectator) == units_on(allies) == units_on(axis)
    expect(spectator.locator("#hand-panel")).to_be_hidden()
    expect(spectator.locator(".card")).to_have_count(0)
    expect(spectator.locator("#actions button")).to_have_count(0)
    assert spectator.evaluate("Object.values(window.__game.view.sides).every(s => !('hand' in s))")
    assert spectator.locator("#log .entry").count() > 5
    shot(spectator, tmp_path / "06-spectator.png", full_page=True)
    shot(allies, tmp_path / "07-allies-turn3.png", full_page=True)

    # ---- chat: a player writes to everybody; the spectator reads but cannot write ----
    allies.fill("#chat input", "Ham and jam!")
    allies.press("#chat input", "Enter")
    expect(axis.locator("#chat .messages")).to_contain_text("Ham and jam!")
    # a spectator lands on the spectators' channel (issue 15); the All tab counts unread
    all_tab = spectator.locator('#chat .chat-tabs button[data-channel="all"]')
    expect(all_tab).to_contain_text("(1)")
    all_tab.click()
    expect(spectator.locator("#chat .messages")).to_contain_text("Ham and jam!")
    expect(spectator.locator('#chat [data-closed="1"]')).to_be_visible()
    axis.locator('#chat .chat-tabs button[data-channel="side:AXIS"]').click()
    axis.fill("#chat input", "Hold the bridge")
    axis.press("#chat input", "Enter")
    expect(axis.locator("#chat .messages")).to_contain_text("Hold the bridge")
    expect(allies.locator('#chat .chat-tabs button[data-channel="side:AXIS"]')).to_have_count(0)

    # ---- reconnect: the spectator loses its connection while the Allies play ---------
    seen = seq_of(spectator)
    spectator.evaluate("window.__conn.backoff = 2500; window.__conn.ws.close()")
    expect(spectator.locator("#conn")).to_have_attribute("data-state", "down")
    act(allies, lambda: allies.locator(".hand .card.playable").first.click())
    expect(spectator.locator("#conn")).to_have_attribute("data-state", "ok", timeout=15000)
    assert f"since={seen}" in spectator.evaluate("window.__conn.lastUrl")
    spectator.wait_for_function(f"window.__game.seq === {seq_of(allies)}")
    expect(spectator.locator("#log .entry").last).to_contain_text("plays")
    assert units_on(spectator) == units_on(allies)
    shot(spectator, tmp_path / "08-spectator-after-reconnect.png", full_page=True)

    # ---- a late joiner's battle log is filled from GET /api/games/{id}/events --------
    late = new_page("late")
    late.goto(f"/games/{gid}")
    expect(late.locator("#conn")).to_have_attribute("data-state", "ok")
    expect(late.locator('#log .entry[data-type="card_played"]').first).to_contain_text(
        "Probe Left Flank"
    )
    expect(late.locator('#log .entry[data-type="dice_rolled"]').first).to_be_visible()
    assert late.locator("#log .entry").count() >= spectator.locator("#log .entry").count() - 2
    late_log = late.locator("#log").inner_text()
    for c in allies.evaluate("window.__game.view.sides.ALLIES.hand"):
        if c["name"] != "Probe Left Flank":
            assert c["name"] not in late_log or c["name"] in spectator.locator("#log").inner_text()
    shot(late, tmp_path / "08b-late-joiner-log.png", full_page=True)

    # ---- client rendering of engine features (a given view, the client's part only) ----
    # mines hidden/revealed, night visibility, a Recon card playable also as Air Power
    card = allies.evaluate("window.__game.view.sides.ALLIES.hand[0]")
    allies.evaluate(
        """(c) => window.__client.setView(Object.assign({}, window.__game.view, {
        mines: [{hex: [4, 4], side: 'AXIS', value: null}, {hex: [4, 10], side: 'AXIS', value: 2}],
        visibility: 3, pending: {type: 'play_card', seat: 'ALLIES'}}),
      [{type: 'play_card', seat: 'ALLIES', card: c.id}, {type: 'play_card', seat: 'ALLIES', card: c.id, as: 'air_power'}])""",
        card,
    )
    expect(allies.locator(".mine-marker.hidden-mine")).to_have_count(1)
    expect(allies.locator('.mine-marker.revealed[data-value="2"]')).to_have_count(1)
    expect(allies.locator("#visibility")).to_have_attribute("data-visibility", "3")
    allies.locator(f'.hand .card.playable[data-card="{card["id"]}"]').click()
    buttons = allies.locator('#actions button[data-action="play_card"]')
    expect(buttons).to_have_count(2)
    labels = buttons.all_inner_texts()
    assert len(set(labels)) == 2 and any("as Air Power" in x for x in labels), labels
    shot(allies, tmp_path / "08c-air-power-choice-mines-night.png", full_page=True)
    allies.evaluate("""() => window.__client.setView(Object.assign({}, window.__game.view, {
        pending: {type: 'battle_back', seat: 'AXIS', unit: 'u1', attacker: 'u2'}}), [])""")
    expect(allies.locator("#pending")).to_contain_text("battle back")

    # ---- the result banner (rendered from a finished view: the client's part only) ---
    allies.evaluate(
        "window.__client.setView(Object.assign({}, window.__game.view, {game_over: true, winner: 'ALLIES'}), [])"
    )
    expect(allies.locator("#banner")).to_contain_text("Allies win the battle")
    expect(allies.locator("#banner")).to_contain_text("Victory is yours")
    expect(allies.locator("#actions button")).to_have_count(0)
    shot(allies, tmp_path / "09-banner.png")
