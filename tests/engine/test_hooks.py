"""Extension points (engine/procedures/hooks.py): every point the procedures call is
declared, the m44 options fill theirs, and several extensions combine by the point's rule."""

from __future__ import annotations

import engine  # noqa: F401  (imports the rulesets, which register their options)
from engine.procedures import hooks


def test_the_m44_options_extend_the_procedures_points() -> None:
    by = {p["name"]: p["extended_by"] for p in hooks.describe()}
    opts = "engine.rulesets.m44.options."
    var = opts + "variants."
    assert by["dice_minus"] == [
        opts + "conditions",
        var + "exterminate",
        var + "war_of_the_worlds",
        var + "zombie",
    ]
    assert by["hits_flags"] == [
        var + m
        for m in ("cybermen", "exterminate", "nineteen_eighty_four", "war_of_the_worlds", "zombie")
    ]
    assert by["dislodge"] == [var + "zombie"]
    assert by["victory"] == [opts + "variants"]
    assert by["sighted"] == [opts + "conditions"]
    assert by["on_enter"] == [opts + "hazards"]
    assert by["roll_handlers"] == [opts + "hazards"]
    assert by["enemy_entered"] == [opts + "bridges"]
    assert by["pressing_on"] == [opts + "manoeuvres"]
    assert by["after_card_attack"] == ["engine.rulesets.m44.tactics"]
    assert by["reaction_possible"] == ["engine.rulesets.m44.ambush"]
    assert by["unseen"] == by["move_stop"] == [opts + "kriegspiel"]
    for port in ("draw", "give", "finish_turn", "after_move", "discard_random_card"):
        assert by[port], port
    assert set(hooks.POINTS.roll_handlers) == {"seal_cave", "heal", "blow_bridge", "bombard_bridge"}


def _point(combine: str) -> hooks.Point:
    return hooks.Point("test", combine, "", None)


def test_combine_rules() -> None:
    chain = hooks._combined(_point("chain"), [lambda st, u, n: n + 1, lambda st, u, n: n * 10])
    assert chain(None, None, 2) == 30
    assert hooks._combined(_point("sum"), [lambda *a: 1, lambda *a: 2])(None) == 3
    assert hooks._combined(_point("any"), [lambda *a: False, lambda *a: True])(None) is True
    assert hooks._combined(_point("all"), [lambda *a: True, lambda *a: False])(None) is False
    assert hooks._combined(_point("merge"), [{"a": 1}, {"b": 2}]) == {"a": 1, "b": 2}
    seen: list[int] = []
    hooks._combined(_point("each"), [lambda x: seen.append(1), lambda x: seen.append(2)])(0)
    assert seen == [1, 2]
    one = lambda: 0  # noqa: E731
    assert hooks._combined(_point("one"), [one]) is one


def test_extending_twice_from_the_same_module_replaces() -> None:
    before = list(hooks._EXTENDED["sighted"])
    fn = hooks.POINTS.sighted
    try:
        hooks.extend("sighted", fn, before[0][0])
        assert hooks._EXTENDED["sighted"] == [(before[0][0], fn)]
        assert hooks.POINTS.sighted is fn
    finally:
        hooks._EXTENDED["sighted"] = before
