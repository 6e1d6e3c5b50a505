"""Every input is hostile: an action body of any JSON shape is refused by every ruleset's
canonicalisation, ``apply`` and ``preview`` with an ``EngineError`` (a coded 4xx on the
server), never another exception (a 500).  Property-based (hypothesis)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineError
from engine.core import ruleset as registry
from engine.core.ruleset import preview_of
from engine.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = load_scenario(ROOT / "scenarios" / "2-PegasusBridge.m44")

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "type",
    "seat",
    "unit",
    "to",
    "target",
    "card",
    "hex",
    "section",
    "units",
    "attack_hexes",
    "defence_hexes",
    "dice",
    "choice",
    "path",
    "option",
    "from",
]


def actions(types: list[str]) -> st.SearchStrategy[Any]:
    """Bodies shaped like actions (a known type or junk, known field names with any
    value), and any JSON at all."""
    typ = st.sampled_from(types) | JSON
    body = st.fixed_dictionaries({"type": typ}, optional={f: JSON for f in FIELDS[1:]})
    return body | JSON


def states() -> list[tuple[Any, Any]]:
    out = []
    for name in registry.registered():
        rs = registry.get(name)
        for mode in rs.modes:
            scn = SCENARIO if rs.setup == "scenario" else None
            out.append((rs, rs.new_game(1, {}, scn, mode)))
    return out


CASES = states()


def known_types(rs: Any, state: Any) -> list[str]:
    seats = rs.to_act(state) or [None]
    return sorted({a["type"] for s in seats for a in rs.legal_actions(state, s)}) or ["x"]


@pytest.mark.parametrize(
    "rs,state", CASES, ids=[f"{rs.name}-{i}" for i, (rs, _) in enumerate(CASES)]
)
def test_hostile_action_bodies_are_refused_with_a_code(rs: Any, state: Any) -> None:
    types = known_types(rs, state) + ["declare_combat", "undo", "resign", "roll"]

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(actions(types))
    def check(action: Any) -> None:
        for call in (
            lambda: rs.canonical_action(state, action),
            lambda: rs.apply(state, action),
            lambda: preview_of(rs, state, action),
        ):
            try:
                call()
            except EngineError:
                pass

    check()


@pytest.mark.parametrize(
    "action",
    [
        {"type": []},
        {"type": {}},
        {"type": ["declare_combat"]},
        {"type": "declare_combat", "attack_hexes": [[]]},
        {"type": "declare_combat", "attack_hexes": {"a": 1}},
    ],
)
def test_france1944_preview_of_a_hostile_body_is_coded(action: dict[str, Any]) -> None:
    rs = registry.get("france1944")
    with pytest.raises(EngineError) as e:
        preview_of(rs, rs.new_game(0, {}), action)
    assert e.value.code


@pytest.mark.parametrize("dice", [[[]], [{}], [["INF"]], "INF", [1]])
def test_fastplay_dice_that_are_not_face_names_are_coded(dice: Any) -> None:
    """A Fast Play ``dice`` field holding lists or objects (found by the test above as
    ``{"type": "roll", "dice": [[]]}``) is ``bad_value``, not a crash."""
    rs = registry.get("fastplay")
    with pytest.raises(EngineError) as e:
        rs.canonical_action(None, {"type": "roll", "dice": dice})
    assert e.value.code == "bad_value"
