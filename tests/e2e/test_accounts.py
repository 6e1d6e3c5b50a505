"""Accounts in the browser (issue 39): register on the account page, play, sign in on a
second browser context (another device) and resume the same game; the inbox badge."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect

PW = "correct horse battery"


def test_register_play_sign_in_elsewhere_and_resume(new_page) -> None:
    first, axis, second = new_page("first"), new_page("axis"), new_page("second")
    name = f"Howard{secrets.token_hex(2)}"
    first.goto("/account")
    first.locator("#register-name").fill(name)
    first.locator("#register-password").fill(PW)
    first.locator("#register-submit").click()
    expect(first.locator("#account-summary")).to_contain_text(f"Signed in as {name}")
    r = first.request.post(
        "/api/games",
        data={
            "scenario_id": "2-PegasusBridge",
            "mode": "1v1",
            "seed": 1,
            "seat": "ALLIES",
        },
    )
    assert r.ok, r.text()
    gid = r.json()["id"]
    assert axis.request.post("/api/identity", data={"name": "Rommel"}).ok
    assert axis.request.post(f"/api/games/{gid}/seats/AXIS/claim", data={}).ok
    first.goto(f"/games/{gid}")
    expect(first.locator("#my-seat")).to_have_text("You play Allies")
    n = first.locator(".hand .card").count()
    first.locator('.hand .card.playable[data-name="Probe Left Flank"]').click()
    expect(first.locator(".hand .card")).to_have_count(n - 1)
    # another device: sign in, the inbox lists the game, the game resumes where it was
    second.goto("/account")
    second.locator("#login-name").fill(name.lower())
    second.locator("#login-password").fill(PW)
    second.locator("#login-submit").click()
    second.wait_for_url("**/inbox")
    second.goto(f"/players/{name}")
    expect(second.locator(f'#games-in-progress li[data-game="{gid}"]')).to_have_count(1)
    second.goto(f"/games/{gid}")
    expect(second.locator("#my-seat")).to_have_text("You play Allies")
    expect(second.locator(".hand .card")).to_have_count(n - 1)
    expect(second.locator("#whoami")).to_contain_text(name)
    # the sessions list of the first device shows both; a wrong password is refused
    first.goto("/account")
    expect(first.locator("#session-list li")).to_have_count(2)
    third = new_page("third")
    third.goto("/account")
    third.locator("#login-name").fill(name)
    third.locator("#login-password").fill("wrong password")
    third.locator("#login-submit").click()
    expect(third.locator("#login-status")).to_contain_text("wrong name or password")
