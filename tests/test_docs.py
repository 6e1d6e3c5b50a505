"""The docs describe the present: every registered ruleset appears once in the rulesets
table of docs/architecture.md, and docs/rules-coverage.md marks no rule file a registered
ruleset plays as "not yet"."""

from __future__ import annotations

import re
from pathlib import Path

import engine.rulesets  # noqa: F401  (fills the registry)
from engine.core import ruleset as registry

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _table_after(text: str, header: str) -> list[str]:
    """The rows of the first markdown table whose header line starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_architecture_lists_each_ruleset_once() -> None:
    rows = _table_after((DOCS / "architecture.md").read_text(), "| ruleset | class | setup |")
    names = [re.match(r"\| `([^`]+)`", r).group(1) for r in rows]  # type: ignore[union-attr]
    assert sorted(names) == sorted(registry.registered())


def test_rule_files_played_are_not_marked_not_yet() -> None:
    rows = _table_after((DOCS / "rules-coverage.md").read_text(), "| file | status |")
    # rules text number -> the ruleset playing it
    played = {"000": "fastplay", "001": "france1944", "002": "overlord", "003": "portable"}
    for number, name in played.items():
        assert name in registry.registered()
        row = next(r for r in rows if r.startswith(f"| {number}"))
        assert "not yet" not in row and f"`{name}`" in row, row
