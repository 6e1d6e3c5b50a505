"""Screenshots of the e2e tests: pictures for a person to look at, not checks.

They cost about a fifth of a browser test's time on a 2-core machine, so they are taken
only when ``E2E_SCREENSHOTS=1`` (into each test's ``tmp_path``, which pytest keeps for the
last three runs)."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Locator, Page

WANTED = os.environ.get("E2E_SCREENSHOTS") == "1"


def shot(target: Page | Locator, path: Path, full_page: bool = False) -> None:
    """Save a screenshot of ``target`` (a page, or one element) at ``path`` when asked."""
    if not WANTED:
        return
    if isinstance(target, Page):
        target.screenshot(path=str(path), full_page=full_page)
    else:
        target.screenshot(path=str(path))
