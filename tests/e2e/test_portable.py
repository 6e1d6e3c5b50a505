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

import engine.rulesets  # noqa: F401
from engine.core.ruleset import get

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
        s = {"view": R.view_for(st, seat), "board": R.board(st), "legal": legal, "seq": seq,
             "status": "active", "seat": seat, "seats": [seat], "events": events}
        page.evaluate("s => window.__render(s)", json.loads(json.dumps(s)))
        want = rnd.choice(legal)
        gesture(page, want)
        sent = page.evaluate("window.__sent.splice(0)")
        assert sent == [want], (want, sent)
        kinds_done.add(want["type"])
        if shots < 6 and want["type"] in ("place_terrain", "redeploy", "attack", "fire") or seq == 0:
            page.screenshot(path=str(tmp_path / f"portable-{seq:03d}-{want['type']}.png"))
            shots += 1
        st, events = R.apply(st, want)
        seq += 1
    s = {"view": R.view_for(st, None), "board": R.board(st), "legal": [], "seq": seq,
         "status": "finished", "seat": None, "seats": [], "events": events}
    page.evaluate("s => window.__render(s)", json.loads(json.dumps(s)))
    result = page.locator("#sq-result")
    assert result.get_attribute("data-winner") == (st.winner or "draw")
    page.screenshot(path=str(tmp_path / "portable-result.png"))
    assert {"deploy", "move", "attack"} <= kinds_done
    assert page.locator("#sq-dice .sq-die").count() > 0
