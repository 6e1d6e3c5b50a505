"""Lobby in a real browser: guest names, create a game, see it listed, claim a seat,
and precise errors for an uploaded scenario with unknown codes."""

from __future__ import annotations

import json
import re
import time

from pathlib import Path

from playwright.sync_api import expect
from .shots import shot

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = next(
    p
    for p in (ROOT / "scenarios", ROOT.parent / "shared" / "scenarios" / "m44")
    if (p / "2-PegasusBridge.m44").is_file()
)


def enter_name(page, name: str) -> None:
    page.goto("/")
    page.wait_for_selector("#identity-form[data-ready]")
    page.fill("#identity-name", name)
    page.click("#identity-submit")
    expect(page.locator(f'[data-me="{name}"]')).to_be_visible()


def test_create_game_and_see_it_listed(new_page, tmp_path):
    host = new_page("host")
    enter_name(host, "Monty")
    expect(host.locator("#scenario-select option[value='2-PegasusBridge']")).to_have_count(1)
    host.select_option("#scenario-select", "2-PegasusBridge")
    host.select_option("#seat-select", "ALLIES")
    shot(host, tmp_path / "lobby-create.png", full_page=True)
    host.click("#create-submit")
    host.wait_for_url(re.compile(r"/games/[^/?]+"))
    game_id = host.url.split("/games/")[1].split("?")[0]
    expect(host.locator("#my-seat")).to_have_text("You play Allies")

    guest = new_page("guest")
    enter_name(guest, "Rommel")
    item = guest.locator(f'#open-games li[data-game="{game_id}"]')
    expect(item).to_be_visible()
    expect(item).to_contain_text("Allies: Monty")
    expect(item).to_contain_text("Axis: free")
    shot(guest, tmp_path / "lobby-list.png", full_page=True)
    item.locator('button[data-claim="AXIS"]').click()
    guest.wait_for_url(re.compile(rf"/games/{game_id}"))
    expect(guest.locator("#my-seat")).to_have_text("You play Axis")

    # once both seats are taken the game is live and listed for spectators to watch
    watcher = new_page("watcher")
    watcher.goto("/")
    expect(watcher.locator(f'#live-games li[data-game="{game_id}"] a[data-watch]')).to_be_visible()


def test_play_against_the_computer(new_page, tmp_path):
    """Issue 38: a 1 vs 1 game against the computer, its level chosen in the lobby (each
    level says what it does); the other side's seat is the bot's from the start, and the
    computer, whose side begins, plays its first card (thought in the bot processes)."""
    host = new_page("host")
    enter_name(host, "Solo")
    host.select_option("#scenario-select", "2-PegasusBridge")
    expect(host.locator("#opponent-label")).to_be_visible()
    expect(host.locator("#level-label")).to_be_hidden()
    host.select_option("#seat-select", "AXIS")
    host.select_option("#opponent-select", "computer")
    expect(host.locator("#level-label")).to_be_visible()
    host.select_option("#level-select", "hard")
    expect(host.locator("#level-info")).to_contain_text("hard: more dice rolls")
    shot(host, tmp_path / "lobby-vs-computer.png", full_page=True)
    host.click("#create-submit")
    host.wait_for_url(re.compile(r"/games/[^/?]+"))
    expect(host.locator("#my-seat")).to_have_text("You play Axis")
    game_id = host.url.split("/games/")[1].split("?")[0]
    seats = host.request.get(f"/api/games/{game_id}").json()["seats"]
    assert {s["seat"]: s["is_bot"] for s in seats} == {"ALLIES": True, "AXIS": False}
    deadline = time.monotonic() + 90
    while host.request.get(f"/api/games/{game_id}").json()["seq"] < 2:
        assert time.monotonic() < deadline, "the computer did not play its first card"
        time.sleep(0.5)


def test_upload_reports_unknown_codes(new_page, tmp_path):
    page = new_page("uploader")
    enter_name(page, "Editor")
    src = SCENARIOS / "2-PegasusBridge.m44"
    scn = json.loads(src.read_text())
    scn["board"]["hexagons"].append({"row": 3, "col": 13, "terrain": {"name": "lava"}})
    bad = tmp_path / "bad.m44"
    bad.write_text(json.dumps(scn))
    page.set_input_files("#scenario-file", str(bad))
    err = page.locator(".upload-errors")
    expect(err).to_be_visible()
    expect(err).to_contain_text("lava")
    expect(err).to_contain_text("row 3, col 13")
    shot(page, tmp_path / "lobby-upload-error.png", full_page=True)


def test_private_game_join_by_invite_link(new_page, tmp_path):
    host = new_page("host")
    enter_name(host, "Eisenhower")
    host.select_option("#scenario-select", "4-SwordBeach")
    host.select_option("#seat-select", "ALLIES")
    host.check("#private-check")
    host.click("#create-submit")
    host.wait_for_url(re.compile(r"/games/[^/?]+\?invite="))
    link = host.locator("#invite-link").input_value()
    assert "invite=" in link
    shot(host, tmp_path / "private-host.png", full_page=True)

    guest = new_page("guest")
    enter_name(guest, "Rundstedt")
    guest.fill("#invite-input", link)
    guest.click("#invite-form button[type=submit]")
    guest.wait_for_url(re.compile(r"/games/[^/?]+\?invite="))
    guest.locator('#seat-bar button[data-claim="AXIS"]').click()
    expect(guest.locator("#my-seat")).to_have_text("You play Axis")
    # Sword Beach: the Allies start; the host gets the turn once the seat is taken
    expect(host.locator("#prompt")).to_have_attribute("data-mine", "1")
    expect(host.locator("#seat-bar")).to_be_hidden()
    shot(guest, tmp_path / "private-guest.png", full_page=True)


def test_optional_rules_chosen_in_the_lobby_show_in_the_game(new_page, tmp_path):
    """The lobby lists the engine's optional rules (standard rules by default); ticking
    one and choosing a side for another creates a game that says which rules are on;
    every rule the engine registers can be ticked; a bad unit-type mapping is
    refused with the engine's message and no game is created."""
    host = new_page("host")
    enter_name(host, "Guderian")
    host.select_option("#scenario-select", "2-PegasusBridge")
    host.select_option("#seat-select", "AXIS")
    host.locator("#options-box summary").click()
    expect(host.locator("#options-count")).to_have_text("(standard rules)")
    expect(host.locator("#opt-army_manoeuvres")).to_be_enabled()  # every rule available
    host.check("#opt-extra_unit_types")
    host.fill("#opt-extra_unit_types-map", '{"tankger": "flying_tank"}')
    host.click("#create-submit")
    expect(host.locator("#create-error")).to_contain_text("flying_tank")
    host.uncheck("#opt-extra_unit_types")
    host.check("#opt-demoralisation")  # a mapping typed as JSON
    host.fill("#opt-demoralisation-map", '{"ALLIES": 1}')
    host.check("#opt-infantry_charge")
    host.select_option("#opt-blitzkrieg", "AXIS")
    expect(host.locator("#options-count")).to_have_text("(3 on)")
    shot(host, tmp_path / "lobby-options.png", full_page=True)
    host.click("#create-submit")
    host.wait_for_url(re.compile(r"/games/[^/?]+"))
    box = host.locator("#options-on")
    expect(box).to_contain_text("infantry charge")
    expect(box).to_contain_text("blitzkrieg")
    expect(box).to_contain_text("demoralisation")


def test_rule_systems_and_battles_named_as_players_know_them(new_page):
    """Issue 40, point 4: one list of rule systems with the names players use, the
    standard game chosen; battles listed with a one-line summary; a rules example
    ("Hills (Examples of Line of Sight)": no victory conditions, no briefing) is not in
    the list of scenarios to play."""
    page = new_page("lobby")
    enter_name(page, "Newcomer")
    names = page.locator("#ruleset-select option").all_text_contents()
    assert names[:2] == ["Memoir '44", "Memoir '44 Overlord"]
    assert {"Fast Play '44", "The Portable Wargame (3x3)", "France 1944"} <= set(names)
    expect(page.locator("#ruleset-select")).to_have_value("m44")
    expect(page.locator("#scenario-select option[value='2-PegasusBridge']")).to_have_text(
        "Pegasus Bridge"
    )
    expect(
        page.locator("#scenario-select option[value='1096-HillsExamplesOfLineOfSight']")
    ).to_have_count(0)
    page.select_option("#scenario-select", "2-PegasusBridge")
    expect(page.locator("#scenario-info [data-summary]")).to_have_text(
        "June 6, 1944 · Western front · 4 medals to win"
    )
    page.select_option("#ruleset-select", "overlord")
    expect(page.locator("#scenario-select option[value='13-OmahaBeachOverlord']")).to_have_count(1)
    expect(
        page.locator("#scenario-select option[value='1096-HillsExamplesOfLineOfSight']")
    ).to_have_count(0)


def test_forms_do_nothing_before_their_script(new_page):
    """Enter in a form whose module has not loaded yet (slow network, a script that
    failed): no native submit, so no reload with the fields, a password above all, in the
    address; the submit button is disabled until the script handles the form."""
    page = new_page("early")
    page.route("**/static/lobby.js", lambda route: route.abort())
    page.goto("/")
    expect(page.locator("#identity-submit")).to_be_disabled()
    page.fill("#identity-name", "Early")
    page.press("#identity-name", "Enter")
    page.wait_for_timeout(300)  # a native submit would navigate here
    assert "name=" not in page.url and "?" not in page.url, page.url
    page.unroute("**/static/lobby.js")
    page.reload()
    enter_name(page, "Early")  # with the script: the form works

    page.route("**/static/account.js", lambda route: route.abort())
    page.goto("/account")
    expect(page.locator("#login-submit")).to_be_disabled()
    page.fill("#login-name", "Early")
    page.fill("#login-password", "a secret password")
    page.press("#login-password", "Enter")
    page.wait_for_timeout(300)
    assert "secret" not in page.url and "?" not in page.url, page.url
