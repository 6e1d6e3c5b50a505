"""Every bundled scenario's board (the engine's board_for, served by the API) renders in
the browser: one hex per board cell, every tile drawn, no terrain family the client does
not know, no JavaScript error. Screenshots go to the test's tmp dir."""

from __future__ import annotations

import httpx
from .shots import shot


def expected_cells(rows: int, max_col: int) -> int:
    return sum(len(range(r % 2, max_col + 1, 2)) for r in range(rows))


def test_every_bundled_board_renders(new_page, live_server, tmp_path):
    scenarios = httpx.get(live_server.base + "/api/scenarios", timeout=20).json()
    bundled = [s for s in scenarios if s["source"] == "bundled" and not s.get("error")]
    assert bundled, scenarios
    page = new_page("boards")
    for s in bundled:
        board = httpx.get(f"{live_server.base}/api/scenarios/{s['id']}", timeout=20).json()["board"]
        page.goto(f"/static/dev/preview.html?scenario={s['id']}")
        page.wait_for_function("window.__ready === true")
        assert page.locator(".layer-hit .hit").count() == expected_cells(
            board["rows"], board["max_col"]
        ), s["id"]
        assert page.locator(".layer-terrain .hex-terrain").count() == len(board["hexes"]), s["id"]
        labels = page.eval_on_selector_all(".terrain-label", "els => els.map(e => e.textContent)")
        unknown = [t for t in labels if t.startswith("?")]
        assert not unknown, f"{s['id']}: terrain families unknown to the client: {unknown}"
        assert page.locator(".section-line").count() >= 2
        cols = [
            page.eval_on_selector_all(f".{k}", "els => els.map(e => +e.dataset.col)")
            for k in ("section-line", "subsection-line")
        ]
        # the dotted lines the engine's board_for gives (002: an Overlord map is two boards
        # side by side, the second board's lines 26 cols after the first's 7 and 17)
        want = ([17, 33], [7, 25, 43]) if board["type"] == "OVERLORD" else ([7, 17], [])
        assert cols == list(want), s["id"]
        shot(page, tmp_path / f"board-{s['id']}.png", full_page=True)
