"""The docs describe the present: every registered ruleset appears once in the rulesets
table of docs/architecture.md, docs/rules-coverage.md marks no rule file a registered
ruleset plays as "not yet", the README's table lists the settings (at most 25) and
docs/protocol.md the rate limits with their defaults."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import AliasChoices

import engine.rulesets  # noqa: F401  (fills the registry)
from app.settings import RATE_DEFAULTS, Settings
from engine.core import ruleset as registry

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


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


def test_readme_lists_every_setting() -> None:
    rows = _table_after((ROOT / "README.md").read_text(), "| variable | default | meaning |")
    listed = set(re.findall(r"`([A-Z_]+)`", "\n".join(r.split("|")[1] for r in rows)))
    names = set()
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        names.add(str(alias.choices[0]) if isinstance(alias, AliasChoices) else name.upper())
    assert listed == names and len(names) <= 25


def test_protocol_lists_every_rate_limit_and_its_default() -> None:
    rows = _table_after((DOCS / "protocol.md").read_text(), "| name | default | counts |")
    listed = {}
    for row in rows:
        names, defaults = row.split("|")[1:3]
        for name, default in zip(names.split(" / "), defaults.split(" / "), strict=True):
            listed[name.strip().strip("`")] = default.strip()
    assert listed == RATE_DEFAULTS
