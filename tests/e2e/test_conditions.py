"""The game page shows the 004 optional battle conditions a game was created with.

Pegasus Bridge with the options ``bridge_demolition``, ``weather: FOG``,
``supply_lines`` and ``infantry_support_weapons`` (a German machine-gun unit): the weather
box and the typed unit come from the live game; the bridge Battle Stars, the "waits
until turn N" tag, the train coupling and the out-of-supply tag need game situations the
bundled scenarios do not reach on turn 1, so the test then renders the live view with
those fields set the way ``engine/view.py`` sends them (``window.__client.setView``)."""

from __future__ import annotations

from playwright.sync_api import expect
from .shots import shot

OPTIONS = {
    "bridge_demolition": True,
    "weather": "FOG",
    "supply_lines": True,
    "infantry_support_weapons": {"2,4": "machine_gun"},
}


def hover_hex(page, hex_: str) -> str:
    page.locator(f'.hit[data-hex="{hex_}"]').hover()
    tip = page.locator(".board-tooltip")
    expect(tip).to_be_visible()
    return tip.inner_text()


def test_condition_markers_and_weather_box(new_page, live_server, tmp_path):
    page = new_page("allies")
    assert page.request.post("/api/identity", data={"name": "Howard"}).ok
    r = page.request.post(
        "/api/games",
        data={
            "scenario_id": "2-PegasusBridge",
            "mode": "1v1",
            "seat": "ALLIES",
            "seed": 1,
            "options": OPTIONS,
        },
    )
    assert r.ok, r.text()
    gid = r.json()["id"]
    page.goto(f"/games/{gid}")
    expect(page.locator("#conn")).to_have_attribute("data-state", "ok")

    # weather: the view's `weather` (the game's option value)
    box = page.locator("#weather")
    expect(box).to_have_attribute("data-weather", "FOG")
    expect(box).to_contain_text("Fog: visibility 2")
    assert "more than 2 hexes away" in box.get_attribute("title")
    assert page.locator(".board-svg").get_attribute("data-weather") == "FOG"
    expect(page.locator("#options-on")).to_contain_text("bridge demolition")
    view = page.evaluate("window.__game.view")
    assert view["bridges"] == []  # option on, no Battle Star yet
    assert page.locator(".bridge-marker").count() == 0

    # a typed unit (004 infantry support weapons): its type in the tooltip
    assert page.locator('.unit[data-hex="2,4"] .unit-letter').text_content() == "MG"
    tip = hover_hex(page, "2,4")
    assert "Machine-Gun Infantry" in tip and "Type: Machine Gun" in tip

    # the real view marks the units out of supply at the start of the turn (Pegasus
    # Bridge under the literal supply rule: cut off by the enemy's battle ranges)
    real_oos = {u["id"] for u in view["units"] if u.get("out_of_supply")}
    assert page.locator(".supply-marker").count() == len(real_oos)

    # the fields engine/view.py sends once the situations arise
    page.evaluate("""() => {
      const v = window.__game.view;
      const units = v.units.map((u) => u.id === 'u5' ? {...u, inactive_until: 2}
        : u.id === 'u9' ? {...u, train: ['u9', 'u10']} : u.id === 'u10' ? {...u, train: ['u9', 'u10']}
        : u.id === 'u12' ? {...u, out_of_supply: 2} : u);
      window.__client.setView({...v, units, bridges: [{hex: [2, 6], rigged: 'ALLIES', hits: 0},
                                                      {hex: [5, 21], rigged: null, hits: 2}]}, window.__game.legal);
    }""")
    rigged = page.locator('.bridge-marker[data-bridge="2,6"]')
    expect(rigged).to_have_attribute("data-rigged", "ALLIES")
    assert "charges placed by Allies" in rigged.locator("title").text_content()
    hit = page.locator('.bridge-marker[data-bridge="5,21"]')
    expect(hit).to_have_attribute("data-hits", "2")
    assert "hit 2 of 4 times" in hit.locator("title").text_content()
    assert "charges placed" in hover_hex(page, "2,6")
    expect(page.locator("#bridges-box")).to_contain_text("Bridges marked: 2")

    waits = page.locator('.unit[data-unit="u5"] .inactive-marker')
    expect(waits).to_have_attribute("data-until", "2")
    assert waits.locator("text").text_content() == "T3"
    assert "cannot be ordered before turn 3" in waits.locator("title").text_content()
    assert "cannot be ordered before turn 3" in hover_hex(page, "5,5")

    link = page.locator('.train-link[data-train-link="u9-u10"]')
    expect(link).to_have_count(1)
    assert "one train" in link.locator("title").text_content()
    assert page.locator('.unit[data-train="u9,u10"]').count() == 2
    assert "Train piece 2 of 2" in hover_hex(page, "7,11")

    supply = page.locator('.unit[data-unit="u12"] .supply-marker')
    expect(supply).to_have_attribute("data-turns", "2")
    assert "Out of supply for 2 turns" in supply.locator("title").text_content()
    assert "1 battle die less" in hover_hex(page, "8,10")
    n = len(real_oos | {"u12"})
    expect(page.locator("#supply-box")).to_contain_text(f"Out of supply: {n} unit")
    page.mouse.move(5, 5)
    shot(page, tmp_path / "conditions.png", full_page=True)
    shot(page.locator(".board-svg"), tmp_path / "conditions-board.png")
