"""Eight generals play Omaha Beach Overlord by clicking: per side a Commander-in-Chief
who dispatches cards and visits one Field General, and three Field Generals who play
them (order, move, battle) or act on initiative.  A spectator watches and sees no hand.

One browser, one context per identity (nine pages).  The game is created through the API
with a fixed seed so that hands and dice are the same on every run."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from .shots import shot

SEED = 5
SCENARIO = "13-OmahaBeachOverlord"
ROLES = ("cinc", "left", "centre", "right")


def g(page: Page, expr: str):
    return page.evaluate(f"(() => {{ const g = window.__game; return {expr}; }})()")


def legal(page: Page) -> list[dict]:
    return g(page, "g.legal")


def seq_of(page: Page) -> int:
    return g(page, "g.seq")


def act(page: Page, fn) -> None:
    """A gesture that sends one action; wait until it is applied."""
    before = seq_of(page)
    fn()
    page.wait_for_function(f"window.__game.seq > {before} && !window.__game.pendingSend")


def click_hex(page: Page, hex_) -> None:
    k = hex_ if isinstance(hex_, str) else f"{hex_[0]},{hex_[1]}"
    page.locator(f'.hit[data-hex="{k}"]').click()


def unit_hex(page: Page, unit: str) -> list[int]:
    return g(page, f"g.view.units.find(u => u.id === {unit!r}).hex")


def click_button(page: Page, action_type: str) -> None:
    act(page, lambda: page.locator(f'#actions button[data-action="{action_type}"]').first.click())


def wait_all_seq(pages: list[Page], seq: int) -> None:
    for p in pages:
        p.wait_for_function(f"window.__game.seq >= {seq}")


def hex_distance(a, b) -> int:
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + max(0, (dc - dr) // 2)


def enemy_distance(page: Page, hex_, side: str) -> int:
    """Distance from a hex to the nearest unit of the other side (the test's own
    heuristic for picking units that may get into a fight)."""
    units = g(page, "g.view.units.filter(u => u.hex)")
    return min((hex_distance(hex_, u["hex"]) for u in units if u["side"] != side), default=99)


class Driver:
    """Finishes whatever a seat has to do by clicking, with small quotas per turn
    (order up to two units, move one, battle once)."""

    def __init__(self) -> None:
        self.done: dict[tuple[str, int, str], int] = {}
        self.battles = 0

    def count(self, page: Page, what: str) -> int:
        k = (g(page, "g.seat"), g(page, "g.view.turn"), what)
        return self.done.get(k, 0)

    def bump(self, page: Page, what: str) -> None:
        k = (g(page, "g.seat"), g(page, "g.view.turn"), what)
        self.done[k] = self.done.get(k, 0) + 1

    def step(self, page: Page) -> bool:
        acts = legal(page)
        if not acts:
            return False
        types = [a["type"] for a in acts]
        first = {t: next(a for a in acts if a["type"] == t) for t in types}
        pending = g(page, "g.view.pending && g.view.pending.type")
        if "retreat" in types:
            a = first["retreat"]
            act(page, lambda: click_hex(page, a["to"]))
        elif pending == "ambush" and "pass" in types:
            click_button(page, "pass")
        elif "take_ground" in types:
            click_button(page, "take_ground")
        elif "initiative_unit" in types:
            a = first["initiative_unit"]
            if "to" in a:
                click_hex(page, unit_hex(page, a["unit"]))
                act(page, lambda: click_hex(page, a["to"]))
            else:
                act(page, lambda: click_hex(page, unit_hex(page, a["unit"])))
        elif "order" in types and self.count(page, "order") < 2:
            side = g(page, "g.side")
            a = min(
                (x for x in acts if x["type"] == "order"),
                key=lambda x: enemy_distance(page, unit_hex(page, x["unit"]), side),
            )
            act(page, lambda: click_hex(page, unit_hex(page, a["unit"])))
            self.bump(page, "order")
        elif "end_orders" in types:
            click_button(page, "end_orders")
        elif "move" in types and self.count(page, "move") < 1:
            side = g(page, "g.side")
            a = min(
                (x for x in acts if x["type"] == "move"),
                key=lambda x: enemy_distance(page, x["to"], side),
            )
            click_hex(page, unit_hex(page, a["unit"]))
            expect(page.locator(f'.hl-move[data-hex="{a["to"][0]},{a["to"][1]}"]')).to_have_count(1)
            act(page, lambda: click_hex(page, a["to"]))
            self.bump(page, "move")
        elif "end_movement" in types:
            click_button(page, "end_movement")
        elif "battle" in types and self.count(page, "battle") < 1:
            a = first["battle"]
            click_hex(page, unit_hex(page, a["unit"]))
            expect(
                page.locator(f'.hl-battle[data-hex="{a["target"][0]},{a["target"][1]}"]')
            ).to_have_count(1)
            act(page, lambda: click_hex(page, a["target"]))
            self.bump(page, "battle")
            self.battles += 1
        elif "end_battles" in types:
            click_button(page, "end_battles")
        elif "end_targets" in types:
            click_button(page, "end_targets")
        elif "pass" in types:
            click_button(page, "pass")
        else:
            raise AssertionError(f"don't know how to go on: {types}")
        return True

    def finish(self, pages: list[Page], until_active: str, limit: int = 80) -> None:
        """Click through every page until the side `until_active` is to play."""
        for _ in range(limit):
            ref = pages[0]
            if (
                g(ref, "g.view.active") == until_active
                and g(ref, "g.view.overlord.step") == "dispatch"
            ):
                return
            progressed = False
            for p in pages:
                p.wait_for_function("!window.__game.pendingSend")
                if self.step(p):
                    progressed = True
                    break
            if not progressed:
                ref.wait_for_timeout(150)
        raise AssertionError("the turn did not end")


def dispatch_turn(cinc: Page, side: str, fgs: dict[str, Page], shots, name: str):
    """The C-in-C gives two section cards to two Field Generals by clicking (the second by
    drag and drop), tries one refused dispatch (explained before confirming), undoes and
    redoes one, visits one of them and confirms.  Returns (given {fg: card}, visited)."""
    expect(cinc.locator("#ol-desk")).to_be_visible()
    expect(cinc.locator("#hand-panel")).to_be_hidden()
    hand = g(cinc, f"g.view.sides[{side!r}].hand")
    dispatch = [a for a in legal(cinc) if a["type"] == "dispatch"]
    # two cards for two different Field Generals, each card going to one general only
    targets: dict[int, list[str]] = {}
    for a in dispatch:
        targets.setdefault(a["card"], []).append(a["to"])
    given: dict[str, int] = {}
    for card in hand:
        ts = targets.get(card["id"], [])
        if len(ts) == 1 and ts[0] != "cinc" and ts[0] not in given:
            given[ts[0]] = card["id"]
        if len(given) == 2:
            break
    assert len(given) == 2, (hand, dispatch)
    (fg1, c1), (fg2, c2) = list(given.items())
    # a general who may not take card 1: his slot is struck through and explains why
    wrong = next(t for t in ("left", "centre", "right") if t not in targets[c1])
    cinc.locator(f'#ol-hand .card[data-card="{c1}"]').click()
    expect(cinc.locator(f'.ol-slot[data-to="{fg1}"]')).to_have_attribute("data-can-take", "1")
    expect(cinc.locator(f'.ol-slot[data-to="{wrong}"]')).to_have_attribute("data-can-take", "0")
    assert "cannot be given" in cinc.locator(f'.ol-slot[data-to="{wrong}"]').get_attribute("title")
    cinc.locator(f'.ol-slot[data-to="{wrong}"]').click()
    expect(cinc.locator("#ol-explain")).to_be_visible()
    expect(cinc.locator("#ol-explain")).to_have_attribute("data-code", "section_card_wrong_general")
    shots(cinc, f"{name}-1-refused-dispatch-explained")
    # card 1 by clicking, card 2 by drag and drop
    cinc.locator(f'#ol-hand .card[data-card="{c1}"]').click()
    act(cinc, lambda: cinc.locator(f'.ol-slot[data-to="{fg1}"]').click())
    expect(cinc.locator(f'.ol-slot[data-to="{fg1}"] .ol-mini[data-card="{c1}"]')).to_have_count(1)
    expect(cinc.locator(f'#ol-hand .card[data-card="{c1}"]')).to_have_count(0)  # in its slot only
    expect(cinc.locator(".ol-waiting")).to_contain_text("act once he confirms his orders")
    act(
        cinc,
        lambda: cinc.locator(f'#ol-hand .card[data-card="{c2}"]').drag_to(
            cinc.locator(f'.ol-slot[data-to="{fg2}"]')
        ),
    )
    expect(cinc.locator(f'.ol-slot[data-to="{fg2}"] .ol-mini[data-card="{c2}"]')).to_have_count(1)
    # undo the second one and give it again
    act(cinc, lambda: cinc.locator(f'.ol-undo[data-undo="{c2}"]').click())
    expect(cinc.locator(f'#ol-hand .card[data-card="{c2}"]')).to_have_count(1)
    cinc.locator(f'#ol-hand .card[data-card="{c2}"]').click()
    act(cinc, lambda: cinc.locator(f'.ol-slot[data-to="{fg2}"]').click())
    # visit the first general; the others learn it only from the chain of command
    act(cinc, lambda: cinc.locator(f'button[data-visit="{fg1}"]').click())
    expect(cinc.locator(f'.ol-slot[data-to="{fg1}"] [data-visited]')).to_have_count(1)
    shots(cinc, f"{name}-2-dispatch-ready")
    act(cinc, lambda: cinc.locator("#ol-confirm").click())
    expect(cinc.locator("#ol-desk")).to_be_hidden()
    return given, fg1


def test_overlord_eight_generals(new_page, live_server, tmp_path):
    names = {
        "AXIS": ["Rundstedt", "Kraiss", "Meyer", "Goth"],
        "ALLIES": ["Bradley", "Gerow", "Cota", "Huebner"],
    }
    pages: dict[str, Page] = {}
    for side in ("AXIS", "ALLIES"):
        for role, nm in zip(ROLES, names[side]):
            p = new_page(f"{side}:{role}")
            assert p.request.post("/api/identity", data={"name": nm}).ok
            pages[f"{side}:{role}"] = p
    host = pages["AXIS:cinc"]
    r = host.request.post(
        "/api/games",
        data={"scenario_id": SCENARIO, "mode": "overlord", "seat": "AXIS:cinc", "seed": SEED},
    )
    assert r.ok, r.text()
    gid = r.json()["id"]
    for seat, p in pages.items():
        if seat == "AXIS:cinc":
            continue
        if seat == "ALLIES:cinc":  # one general takes his seat by clicking on the game page
            p.goto(f"/games/{gid}")
            p.locator(f'#seat-bar button[data-claim="{seat}"]').click()
            expect(p.locator("#my-seat")).to_have_text("You play Allies C-in-C")
        else:
            assert p.request.post(f"/api/games/{gid}/seats/{seat}/claim", data={}).ok
    spectator = new_page("spectator")
    for seat, p in pages.items():
        if seat != "ALLIES:cinc":
            p.goto(f"/games/{gid}")
    spectator.goto(f"/games/{gid}")
    every = [*pages.values(), spectator]
    for p in every:
        expect(p.locator("#conn")).to_have_attribute("data-state", "ok")
    expect(spectator.locator("#my-seat")).to_have_text("Spectating")
    wait_all_seq(every, 0)

    n = [0]

    def snap(page: Page, label: str) -> None:
        n[0] += 1
        shot(page, tmp_path / f"{n[0]:02d}-{label}.png", full_page=True)

    axis = {r: pages[f"AXIS:{r}"] for r in ROLES}
    allies = {r: pages[f"ALLIES:{r}"] for r in ROLES}
    first = g(host, "g.view.active")
    order = [("AXIS", axis), ("ALLIES", allies)]
    if first == "ALLIES":
        order.reverse()

    # ---- the spectator sees the board and nothing of either hand -----------------------
    expect(spectator.locator(".board-svg")).to_be_visible()
    expect(spectator.locator(".layer-units .unit").first).to_be_visible()
    hands = {side: g(roles["cinc"], f"g.view.sides[{side!r}].hand") for side, roles in order}
    html = spectator.content()
    for side, hand in hands.items():
        assert len(hand) >= 3
        for c in hand:
            assert f'data-card="{c["id"]}"' not in html
            assert c["name"] not in html, f"{c['name']} of the {side} hand leaks to the spectator"
    expect(spectator.locator("#ol-desk")).to_be_hidden()
    expect(spectator.locator("#hand-panel")).to_be_hidden()
    # the FGs see no hand either; the other side's C-in-C sees no desk
    for side, roles in order:
        for r in ("left", "centre", "right"):
            assert g(roles[r], f"'hand' in g.view.sides[{side!r}]") is False

    drv = Driver()
    for turn_i, (side, roles) in enumerate(order):
        other_side = order[1 - turn_i][0]
        cinc = roles["cinc"]
        expect(cinc.locator("#prompt")).to_have_attribute("data-mine", "1")
        # everyone sees who acts: the C-in-C of the active side
        for p in (spectator, roles["left"], order[1 - turn_i][1]["centre"]):
            expect(p.locator(f'.ol-chip[data-seat="{side}:cinc"]')).to_have_attribute(
                "data-acting", "1"
            )
        given, visited = dispatch_turn(cinc, side, roles, shot, f"{side.lower()}-cinc")
        no_card = next(r for r in ("left", "centre", "right") if r not in given)
        not_visited = next(r for r in given if r != visited)

        # ---- everyone sees the dispatch (counts) and the Field Generals acting -------
        for p in (spectator, roles[no_card], order[1 - turn_i][1]["cinc"]):
            for r in ("left", "centre", "right"):
                expect(p.locator(f'.ol-chip[data-seat="{side}:{r}"]')).to_have_attribute(
                    "data-acting", "1"
                )
            for r in given:
                expect(
                    p.locator(f'.ol-chip[data-seat="{side}:{r}"] .ol-received')
                ).to_have_attribute("data-received", "1")
            expect(
                p.locator(f'.ol-chip[data-seat="{side}:{no_card}"] .ol-received')
            ).to_have_attribute("data-received", "0")
        expect(roles[no_card].locator("[data-dispatch-summary]")).to_contain_text("visits the")
        snap(spectator, f"{side.lower()}-spectator-fg-step")

        # ---- chain of command: the visited FG talks to the C-in-C, another FG cannot ----
        fgv = roles[visited]
        fgv.locator(f'#chat .chat-tabs button[data-channel="pair:{side}:{visited}"]').click()
        fgv.fill("#chat input", "Understood, moving up.")
        fgv.press("#chat input", "Enter")
        cinc.locator(f'#chat .chat-tabs button[data-channel="pair:{side}:{visited}"]').click()
        expect(cinc.locator("#chat .messages")).to_contain_text("Understood, moving up.")
        fgn = roles[not_visited]
        fgn.locator(f'#chat .chat-tabs button[data-channel="pair:{side}:{not_visited}"]').click()
        closed = fgn.locator('#chat [data-closed="1"]')
        expect(closed).to_be_visible()
        expect(closed).to_contain_text("visiting the")
        expect(closed).to_contain_text("opens when he visits you")
        expect(fgn.locator("#chat input")).to_have_count(0)
        # the C-in-C's line to a general he does not visit is closed too, with its reason
        cinc.locator(f'#chat .chat-tabs button[data-channel="pair:{side}:{not_visited}"]').click()
        expect(cinc.locator('#chat [data-closed="1"]')).to_contain_text("visit")
        # 002: his Field Generals read "All": closed to the C-in-C while the game is live
        cinc.locator('#chat .chat-tabs button[data-channel="all"]').click()
        expect(cinc.locator('#chat [data-closed="1"]')).to_contain_text("Field Generals read")
        snap(fgn, f"{side.lower()}-{not_visited}-chat-closed")

        # ---- the Field Generals with a card: section outlined, play it in a half ------
        for r, card in given.items():
            fg = roles[r]
            expect(fg.locator("#ol-fg")).to_be_visible()
            expect(fg.locator(".layer-zones .zone")).to_have_count(2)
            expect(fg.locator(f'#ol-my-cards .card[data-card="{card}"]')).to_have_count(1)
            half_btn = fg.locator(f'#ol-my-cards button[data-card="{card}"][data-play-half]').first
            half_btn.hover()
            expect(fg.locator(".layer-zones .zone.hot")).to_have_count(1)
            if r == visited:
                snap(fg, f"{side.lower()}-{r}-card-received")
            act(fg, lambda half_btn=half_btn: half_btn.click())
            expect(spectator.locator(".played-card").first).to_be_visible()
        # ---- the Field General without a card acts on initiative ----------------------
        fgi = roles[no_card]
        expect(fgi.locator("#ol-no-card")).to_be_visible()
        expect(fgi.locator("#ol-initiative")).to_be_visible()
        act(fgi, lambda: fgi.locator("#ol-initiative").click())
        expect(fgi.locator("#ol-roll")).to_be_visible()
        face = fgi.locator("#ol-roll").get_attribute("data-face")
        assert face in ("inf", "armor", "star", "flag", "grenade")
        expect(
            spectator.locator(f'.ol-chip[data-seat="{side}:{no_card}"] .ol-received')
        ).to_contain_text("initiative")
        snap(fgi, f"{side.lower()}-{no_card}-initiative")

        # ---- order, move, battle (and the other side's retreats) by clicking ------------
        battles_before = drv.battles
        moved_fg = roles[visited]
        for _ in range(12):  # the visited general: orders and a move first
            t = [a["type"] for a in legal(moved_fg)]
            if not t or "battle" in t or "end_battles" in t:
                break
            drv.step(moved_fg)
        # the command bar says what the side waits for: every general's moves, then battles
        expect(moved_fg.locator(".ol-waiting")).to_contain_text(
            re.compile("battles start once every .* Field General has moved|Battles: every")
        )
        snap(moved_fg, f"{side.lower()}-{visited}-after-moves")
        drv.finish(list(pages.values()), other_side)
        assert drv.battles > battles_before or side == "ALLIES", "no battle was fought"
        snap(spectator, f"{side.lower()}-turn-over-spectator")
        expect(spectator.locator(f'.ol-chip[data-seat="{other_side}:cinc"]')).to_have_attribute(
            "data-acting", "1"
        )

    # ---- at the end: the spectator still sees no hand card of anybody --------------------
    seq = seq_of(host)
    wait_all_seq([spectator], seq)
    html = spectator.content()
    played = set(
        g(
            spectator,
            "[...document.querySelectorAll('#log .entry')].map(e => e.textContent).join('\\n')",
        ).split("\n")
    )
    log_text = "\n".join(played)
    for side in ("AXIS", "ALLIES"):
        for c in g(pages[f"{side}:cinc"], f"g.view.sides[{side!r}].hand"):
            assert f'data-card="{c["id"]}"' not in html
            if c["name"] not in log_text:
                assert c["name"] not in html
    assert g(spectator, "Object.values(g.view.sides).every(s => !('hand' in s))")
    expect(spectator.locator(".card")).to_have_count(0)
    snap(spectator, "end-spectator")


def test_lobby_layout_one_player_per_side_with_bots(new_page, tmp_path):
    """The lobby creates an Overlord game where one player holds all four Axis role seats
    (Axis move first at Omaha) and bots hold the Allied ones; the seat switcher lets him
    act for each of his seats."""
    import re

    host = new_page("host")
    host.goto("/")
    host.wait_for_selector("#identity-form[data-ready]")
    host.fill("#identity-name", "Eisenhower")
    host.click("#identity-submit")
    expect(host.locator('[data-me="Eisenhower"]')).to_be_visible()
    host.select_option("#ruleset-select", "overlord")  # the rule systems: one list
    expect(host.locator(f"#scenario-select option[value='{SCENARIO}']")).to_have_count(1)
    host.select_option("#scenario-select", SCENARIO)
    expect(host.locator("#mode-select")).to_have_value("overlord")
    expect(host.locator("#layout-label")).to_be_visible()
    host.select_option("#layout-select", "1")
    mine = "AXIS:cinc,AXIS:left,AXIS:centre,AXIS:right"
    host.select_option("#seat-select", mine)
    shot(host, tmp_path / "lobby-overlord-layout.png", full_page=True)
    host.click("#create-submit")
    # no ?seat= pin: one connection plays all four Axis seats (hello.my_seats + views)
    host.wait_for_url(re.compile(r"/games/[^/?]+\?.*as=AXIS"))
    # bots take the Allied seats when he starts the game from its page
    host.locator("#start-with-bots").click()
    host.wait_for_function("window.__game.status === 'live'")
    expect(host.locator("#my-seat")).to_have_text("You play Axis C-in-C")
    switches = host.locator("#seat-bar button[data-switch]")
    expect(switches).to_have_count(4)
    assert g(host, "g.mySeats") == mine.split(",")
    assert sorted(g(host, "Object.keys(g.views)")) == sorted(mine.split(","))
    # every legal action names the seat it belongs to; the C-in-C's are shown first
    assert all(a["seat"] in mine.split(",") for a in legal(host))
    expect(host.locator('.ol-chip[data-seat="ALLIES:left"] .ol-who')).to_contain_text("(bot)")
    expect(host.locator("#ol-desk")).to_be_visible()
    acts = legal(host)
    a = next(x for x in acts if x["type"] == "dispatch" and x["to"] != "cinc")
    fg = a["to"]
    host.locator(f'#ol-hand .card[data-card="{a["card"]}"]').click()
    act(host, lambda: host.locator(f'.ol-slot[data-to="{fg}"]').click())
    act(host, lambda: host.locator(f'button[data-visit="{fg}"]').click())
    act(host, lambda: host.locator("#ol-confirm").click())
    # the C-in-C has nothing left to do: the page shows a Field General seat that has;
    # the one who got the card is marked as acting: switch to it (no reconnect)
    expect(host.locator("#my-seat")).not_to_have_text("You play Axis C-in-C")
    target = host.locator(f'#seat-bar button[data-switch="AXIS:{fg}"]')
    expect(target).to_have_class(re.compile("acting"))
    target.click()
    expect(host.locator("#my-seat")).to_contain_text(f"{fg.capitalize()} FG")
    assert f"as=AXIS%3A{fg}" in host.url or f"as=AXIS:{fg}" in host.url
    expect(host.locator(f'#actions [data-acting-seat="AXIS:{fg}"]')).to_have_count(1)
    assert g(host, "g.legal").__len__() > 0 and all(
        a["seat"] == f"AXIS:{fg}" for a in g(host, "g.legal")
    )
    expect(host.locator(f'#ol-my-cards .card[data-card="{a["card"]}"]')).to_have_count(1)
    act(host, lambda: host.locator("#ol-my-cards button[data-play-half]").first.click())
    shot(host, tmp_path / "switched-to-fg.png", full_page=True)
