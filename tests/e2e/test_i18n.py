"""Translations in a real browser (issue 40): with the browser's language set to French
or German, the lobby and a game page show no English text of the catalog; the header's
switch changes the language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]

# every visible text node (but the scenario's own words: its labels on the board), and the texts a screen reader reads (title, placeholder,
# aria-label), of the page as it stands
VISIBLE_TEXTS = """() => {
  const out = [];
  const visible = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length)
    && getComputedStyle(e).visibility !== 'hidden';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    const p = n.parentElement;
    if (!p || ['SCRIPT', 'STYLE'].includes(p.tagName) || !visible(p)) continue;
    if (p.closest('.scenario-label, [data-scenario-text]')) continue;   // the scenario's own words
    const s = n.textContent.trim();
    if (s) out.push(s);
  }
  for (const e of document.querySelectorAll('[title], [placeholder], [aria-label]')) {
    if (!visible(e)) continue;
    for (const a of ['title', 'placeholder', 'aria-label']) if (e.getAttribute(a)) out.push(e.getAttribute(a).trim());
  }
  for (const o of document.querySelectorAll('option')) out.push(o.textContent.trim());
  return out;
}"""


def english_messages(lang: str) -> set[str]:
    """The English texts that the language translates differently (a text that is the
    same in both, such as a game's name, proves nothing)."""
    with open(ROOT / "app" / "locales" / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        cat = read_po(f, locale=lang)
    return {m.id for m in cat if isinstance(m.id, str) and m.id and m.string and m.string != m.id}


def english_left(page, lang: str) -> list[str]:
    english = english_messages(lang)
    whole = {x for x in english if "{" not in x and "%(" not in x}
    long_ = [(x, re.compile(rf"(?<!\w){re.escape(x)}(?!\w)")) for x in whole if len(x) >= 16]
    found = []
    for text in page.evaluate(VISIBLE_TEXTS):
        if text in whole:
            found.append(text)
        else:
            found += [x for x, pat in long_ if pat.search(text)]
    return sorted(set(found))


@pytest.mark.parametrize(
    "locale,lang,new_game", [("fr-FR", "fr", "Nouvelle partie"), ("de-DE", "de", "Neue Partie")]
)
def test_no_english_left_on_lobby_and_game(browser, live_server, locale, lang, new_game):
    ctx = browser.new_context(
        locale=locale, base_url=live_server.base, viewport={"width": 1500, "height": 1000}
    )
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#create-panel h2")).to_have_text(new_game)
        page.fill("#identity-name", "Leclerc")
        page.click("#identity-submit")
        expect(page.locator('[data-me="Leclerc"]')).to_be_visible()
        expect(page.locator("#scenario-select option[value='2-PegasusBridge']")).to_have_count(1)
        page.wait_for_timeout(300)
        assert english_left(page, lang) == []

        # a game against the bot: the game page, the Allied hand, the prompt, the log
        r = page.request.post(
            "/api/games", data={"scenario_id": "2-PegasusBridge", "seat": "ALLIES"}
        )
        assert r.ok, r.text()
        game = r.json()
        assert page.request.post(f"/api/games/{game['id']}/seats/AXIS/bot").ok
        page.goto(f"/games/{game['id']}")
        expect(page.locator("#hand .card").first).to_be_visible()
        expect(page.locator("#prompt")).not_to_have_text("")
        page.wait_for_timeout(500)
        assert english_left(page, lang) == []
        # play a card: the order prompt and the action bar are translated too
        page.locator("#hand .card.playable").first.click()
        page.wait_for_timeout(800)
        assert english_left(page, lang) == []

        # the replay page of the game, resigned
        page.once("dialog", lambda d: d.accept())
        page.locator("#resign-btn").click()
        expect(page.locator("#banner")).to_be_visible()
        page.goto(f"/games/{game['id']}/replay")
        expect(page.locator("#rp-pos")).to_have_attribute("data-step", "0")
        page.locator("#rp-last").click()
        assert english_left(page, lang) == []
        # the rules help
        page.goto("/help/m44")
        assert english_left(page, lang) == []

        # the header's switch: English, kept by the cookie
        page.click("nav.lang-switch a[data-lang='en']")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        page.goto("/")
        expect(page.locator("#create-panel h2")).to_have_text("New game")
    finally:
        ctx.close()
    assert not errors, errors


def test_english_scan_catches_english(browser, live_server):
    """The scan itself: an English page has the catalog's texts."""
    ctx = browser.new_context(locale="en-GB", base_url=live_server.base)
    try:
        page = ctx.new_page()
        page.goto("/")
        expect(page.locator("#create-panel h2")).to_have_text("New game")
        assert "New game" in english_left(page, "fr")
        assert re.search("Recent finished games", " ".join(english_left(page, "de")))
    finally:
        ctx.close()


@pytest.mark.parametrize("locale,lang", [("fr-FR", "fr"), ("de-DE", "de")])
def test_no_english_left_on_the_other_pages(browser, live_server, locale, lang):
    """The account, inbox, profile, leaderboard and campaign pages, the match page, the
    Fast Play (with its rules help), Overlord, Portable and France 1944 game pages."""
    import secrets

    ctx = browser.new_context(
        locale=locale, base_url=live_server.base, viewport={"width": 1500, "height": 1000}
    )
    errors: list[str] = []
    left: dict[str, list[str]] = {}

    def check(page, what: str) -> None:
        page.wait_for_timeout(400)
        found = english_left(page, lang)
        if found:
            left[what] = found

    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        name = f"Leclerc{secrets.token_hex(2)}"
        r = page.request.post("/api/accounts", data={"name": name, "password": "liberation 1944"})
        assert r.ok, r.text()
        page.goto("/account")
        expect(page.locator("#settings-panel")).to_be_visible()
        expect(page.locator("#session-list li").first).to_be_visible()
        check(page, "account")
        page.goto("/inbox")
        expect(page.locator("#challenge-scenario option").first).to_be_attached()
        check(page, "inbox")
        page.goto("/leaderboard")
        check(page, "leaderboard")
        page.goto("/campaigns")
        expect(page.locator("#campaign-scenarios option").first).to_be_attached()
        check(page, "campaigns")
        r = page.request.post(
            "/api/campaigns",
            data={
                "name": "Cobra",
                "scenario_ids": ["2-PegasusBridge"],
                "seat": "ALLIES",
                "bots": ["AXIS"],
            },
        )
        assert r.ok, r.text()
        page.goto(f"/campaigns/{r.json()['id']}")
        expect(page.locator("#campaign-battles tbody tr").first).to_be_visible()
        check(page, "campaign")

        # Fast Play against the bot, its rules help open; its match page
        r = page.request.post(
            "/api/games",
            data={
                "ruleset": "fastplay",
                "scenario_id": "2-PegasusBridge",
                "mode": "1v1",
                "seat": "ALLIES",
                "bots": ["AXIS"],
            },
        )
        assert r.ok, r.text()
        fp = r.json()["id"]
        page.goto(f"/games/{fp}")
        expect(page.locator("#fp-cp")).to_be_visible()
        page.click("#fp-help-btn")
        expect(page.locator("#fp-help")).to_be_visible()
        check(page, "fast play")
        page.goto(f"/players/{name}")
        expect(page.locator("#profile-name")).to_have_text(name)
        check(page, "profile")
        page.goto(f"/matches/{fp}")
        expect(page.locator("#match-result")).to_be_visible()
        check(page, "match")

        # Overlord: one player holds the four Axis seats, the bot the Allied ones
        r = page.request.post(
            "/api/games",
            data={
                "ruleset": "overlord",
                "scenario_id": "13-OmahaBeachOverlord",
                "mode": "overlord",
                "layout": {"AXIS": "1", "ALLIES": "1"},
                "seat": "AXIS:cinc",
                "bots": ["ALLIES:cinc"],
            },
        )
        assert r.ok, r.text()
        page.goto(f"/games/{r.json()['id']}")
        expect(page.locator(".ol-step")).to_be_visible()
        check(page, "overlord")

        # the Portable Wargame and France 1944, each against nobody yet
        for ruleset in ("portable", "france1944"):
            r = page.request.post("/api/games", data={"ruleset": ruleset})
            assert r.ok, r.text()
            page.goto(f"/games/{r.json()['id']}")
            expect(page.locator("#conn")).not_to_have_text("")
            if ruleset == "portable":
                expect(page.locator("#seat-bar button[data-claim]").first).to_be_visible()
            else:
                expect(page.locator("#f44-status")).to_be_visible()
            check(page, ruleset)
    finally:
        ctx.close()
    assert not left, left
    assert not errors, errors


@pytest.mark.parametrize(
    "locale,lang,odds,lands",
    [
        ("fr-FR", "fr", "Rapport 9 : 6 -> 3-2", "porte"),
        ("de-DE", "de", "Verhältnis 9 : 6", "trifft"),
    ],
)
def test_the_engines_words_in_the_readers_language(browser, live_server, locale, lang, odds, lands):
    """What the engines send in words is shown in the page's language: a France 1944
    combat's steps (from the engine's own assessment and resolution), a Portable Wargame
    roll and its unit names, the chat's closed-line reasons, the lobby's optional rules,
    the rules named on the game page and the rules help pages of Overlord and Fast Play."""
    from engine.rulesets.france1944 import combat as F

    decl = {
        "attack_strength": 9,
        "defence_strength": 6,
        "attacker_morale": 5,
        "defender_morale": 4,
        "terrain": [1],
        "armoured_79th": -1,
        "heavy_bombing": 0,
        "attackers": ["7 Armd", "51 Inf"],
        "hqs": ["XXX"],
    }
    assessment = F.assess(decl, {5: 8}, False)
    resolved = F.resolve(assessment, 4, False)
    english = assessment["lines"] + resolved["lines"]
    ctx = browser.new_context(locale=locale, base_url=live_server.base)
    try:
        page = ctx.new_page()
        page.goto("/")
        texts = page.evaluate(
            """async ([a, r]) => {
              const f44 = await import('/static/renderers/referee.js');
              const sq = await import('/static/renderers/square.js');
              const chat = await import('/static/chat.js');
              const { term } = await import('/static/i18n.js');
              return [
                f44.describe({ type: 'combat_declared', side: 'ALLIED', combat: 1, assessment: a,
                  declaration: { attackers: ['7 Armd'], defenders: ['21 Pz'], attack_strength: 9,
                    defence_strength: 6, attacker_morale: 5, defender_morale: 4 } }),
                f44.describe({ type: 'combat_resolved', side: 'ALLIED', combat: 1, ...r }),
                sq.describe({ type: 'dice_rolled', for: 'fire', unit: 'r6', dice: [5], result: 'lands' }),
                sq.describe({ type: 'game_over', winner: 'RED', reason: 'army_withdraws' }),
                chat.closedText('the Commander-in-Chief is visiting the Left Field General this turn'
                  + '; your line to him opens when he visits you'),
                term('Average foot'), term('Line Infantry'),
              ];
            }""",
            [assessment, resolved],
        )
        declared, result, roll, over, closed, average, line = texts
        assert odds in declared and all(x not in declared for x in english), declared
        assert all(x not in result for x in english), result
        assert lands in roll and "lands" not in roll, roll
        assert "army withdraws" not in over, over
        assert "Commander-in-Chief" not in closed and "visits you" not in closed, closed
        assert average != "Average foot" and line != "Line Infantry"
        # the lobby's optional rules: names, values, descriptions and sources
        page.request.post("/api/identity", data={"name": "Montgomery"})
        page.goto("/")
        page.locator("#options-box summary").click()
        expect(page.locator("#options-list .option-row").first).to_be_visible()
        names = page.locator("#options-list label b").all_inner_texts()
        assert "No retreat" not in names and len(names) > 10, names
        assert english_left(page, lang) == []
        # the game page names its rules and links their help, in the page's language
        for ruleset in ("fastplay", "overlord"):
            r = page.request.post(
                "/api/games",
                data={
                    "ruleset": ruleset,
                    "scenario_id": "13-OmahaBeachOverlord"
                    if ruleset == "overlord"
                    else "2-PegasusBridge",
                },
            )
            assert r.ok, r.text()
            page.goto(f"/games/{r.json()['id']}")
            expect(page.locator("#rules-help")).to_have_attribute("href", f"/help/{ruleset}")
            expect(page.locator("#rules-name")).to_contain_text(
                "Overlord" if ruleset == "overlord" else "Fast Play"
            )
            page.goto(f"/help/{ruleset}")
            expect(page.locator("main h2").first).to_be_visible()
            if ruleset == "fastplay":
                expect(page.locator("#fp-help")).to_be_visible()
            assert english_left(page, lang) == []
    finally:
        ctx.close()
