"""The ruleset contract (engine/core/ruleset.py): every registered ruleset subclasses the
abstract :class:`Ruleset`, a ruleset missing a required member cannot even be built (no
Memoir '44 ending lent to a ruleset that defines none), and the rules the server asks of
a ruleset (who may talk to whom, campaigns) are answered by the ruleset itself."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import engine.rulesets  # noqa: F401  (fills the registry)
from engine.core import ruleset as R
from engine.rulesets.portable.ruleset import PortableRuleset

ROOT = Path(__file__).resolve().parents[2]


def test_every_registered_ruleset_subclasses_the_base() -> None:
    for rs in R.all_rulesets():
        assert isinstance(rs, R.Ruleset), rs.name


def test_a_ruleset_without_conclude_cannot_be_built() -> None:
    """``conclude`` is abstract: how a game ends by resignation is the ruleset's rule."""
    body = {k: v for k, v in vars(PortableRuleset).items() if k != "conclude"}
    Partial: Any = type("Partial", (R.Ruleset,), body)
    with pytest.raises(TypeError, match="conclude"):
        Partial()


def test_register_refuses_what_is_not_a_ruleset() -> None:
    with pytest.raises(TypeError):
        R.register(object())  # type: ignore[arg-type]


def test_chat_line_is_the_rulesets_answer() -> None:
    """002 "The Military Chain of Command": the C-in-C talks only with the Field General
    he visits; every other ruleset leaves a side's talk free."""
    visiting = {
        "ruleset": "m44",
        "active": "ALLIES",
        "overlord": {"chain_of_command": {"side": "ALLIES", "visited": "left"}},
    }
    assert R.get("overlord").chat_line(visiting, "ALLIES") == ("visiting", "left")
    assert R.get("overlord").chat_line(visiting, "AXIS") == ("opponent", None)
    for name in ("m44", "fastplay", "portable", "france1944"):
        assert R.get(name).chat_line(visiting, "ALLIES") == R.TALK_FREE


def test_campaigns_are_declared_by_the_ruleset() -> None:
    assert [rs.name for rs in R.all_rulesets() if rs.supports_campaign] == ["m44"]
    m44 = R.get("m44")
    assert m44.campaign_carry({"AXIS": 4, "ALLIES": 0}, {"AXIS": 1, "ALLIES": 0}) == {
        "AXIS": 5,
        "ALLIES": 0,
    }  # 004: Victory Points plus one per Victory
    with pytest.raises(R.EngineError):
        R.get("portable").campaign_carry({}, {})


def _getattr_on_a_ruleset(path: Path) -> list[int]:
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and node.args
        ):
            target = ast.unparse(node.args[0])
            if (
                target in ("rs", "ruleset", "self.ruleset")
                or target.endswith(".rs")
                or target.startswith("ruleset(")
            ):
                out.append(node.lineno)
    return out


def test_no_getattr_on_a_ruleset_in_engine_or_app() -> None:
    bad = {
        str(p.relative_to(ROOT)): lines
        for top in ("engine", "app")
        for p in sorted((ROOT / top).rglob("*.py"))
        if (lines := _getattr_on_a_ruleset(p))
    }
    assert bad == {}
