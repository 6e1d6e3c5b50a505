"""Cross-origin attacks in a real Chromium (issue 9, point 3): a page on ANOTHER PORT of
the same host (same site, so ``SameSite=Lax`` lets the victim's cookie through) tries to
open the victim's game socket and to make him leave his seat with an auto-submitted form.
Both fail: the socket gets ``error`` ``origin_forbidden`` and close 4403 (no ``hello``,
no hand), the form POST 403 ``origin_forbidden``, and the victim still holds his seat."""

from __future__ import annotations

import functools
import http.server
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from .test_lobby import enter_name

ATTACK = """<!doctype html><html><body>
<form id="f" method="POST" target="sink" action="{base}/api/games/{gid}/seats/ALLIES/leave">
<input name="x" value="1"></form><iframe name="sink"></iframe>
<script>
window.out = {{messages: [], close: null}};
const ws = new WebSocket("{ws}/ws/games/{gid}");
ws.onmessage = (e) => window.out.messages.push(JSON.parse(e.data));
ws.onclose = (e) => {{ window.out.close = e.code; }};
document.getElementById("f").submit();
window.out.submitted = true;
</script></body></html>"""


@pytest.fixture
def attacker(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A static web server on another port of 127.0.0.1 (the attacker's page)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{port}", tmp_path
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_sibling_port_page_cannot_use_the_victims_session(new_page, live_server, attacker):
    origin, root = attacker
    victim = new_page("victim")
    enter_name(victim, "Victim")
    victim.select_option("#scenario-select", "2-PegasusBridge")
    victim.select_option("#seat-select", "ALLIES")
    victim.click("#create-submit")
    victim.wait_for_url(re.compile(r"/games/[^/?]+"))
    gid = victim.url.split("/games/")[1].split("?")[0]
    expect(victim.locator("#my-seat")).to_have_text("You play Allies")

    (root / "attack.html").write_text(
        ATTACK.format(base=live_server.base, ws=live_server.base.replace("http", "ws", 1), gid=gid)
    )
    # the victim, signed in, visits the attacker's page (same browser context: his cookie)
    victim.goto(f"{origin}/attack.html")
    victim.wait_for_function("window.out && window.out.close !== null", timeout=15000)
    out = victim.evaluate("window.out")
    assert out["submitted"]
    assert [m["type"] for m in out["messages"]] == ["error"], out
    assert out["messages"][0]["code"] == "origin_forbidden"
    assert out["close"] == 4403
    victim.wait_for_timeout(500)  # the form's POST has been answered by now

    seats = httpx.get(f"{live_server.base}/api/games/{gid}").json()["seats"]
    allies = next(s for s in seats if s["seat"] == "ALLIES")
    assert allies["taken"] and allies["name"] == "Victim"

    # the same session from the server's own page still works
    victim.goto(f"{live_server.base}/games/{gid}")
    expect(victim.locator("#my-seat")).to_have_text("You play Allies")
