"""Shared helpers of the Portable Wargame tests: the registered ruleset, a position drawn
as text (engine/rulesets/portable/textboard.py), actions with the seat filled in, and
dice supplied through explicit ``roll`` actions."""

from __future__ import annotations

import pytest

import engine.rulesets  # noqa: F401  (fills the registry)
from engine.core.errors import IllegalAction
from engine.core.ruleset import get
from engine.rulesets.portable.textboard import draw, position  # noqa: F401

R = get("portable")


def act(st, type_, **kw):
    """Apply ``{type, **kw}`` for the seat to act; returns (state, events)."""
    seat = R.to_act(st)[0]
    return R.apply(st, dict(kw, type=type_, seat=seat))


def roll(st, *dice):
    assert R.is_chance(st), st.pending
    return R.apply(st, {"type": "roll", "seat": "chance", "dice": list(dice)})


def refused(st, code, type_, **kw):
    seat = kw.pop("seat", None) or (R.to_act(st) or ["RED"])[0]
    with pytest.raises(IllegalAction) as e:
        R.apply(st, dict(kw, type=type_, seat=seat))
    assert e.value.code == code, e.value
    return e.value


def moves_of(st, uid):
    return sorted(
        a["to"]
        for a in R.legal_actions(st, st.units[uid].side)
        if a["type"] == "move" and a["unit"] == uid
    )


def attacks_of(st, uid):
    return sorted(
        a["target"]
        for a in R.legal_actions(st, st.units[uid].side)
        if a["type"] == "attack" and a["unit"] == uid
    )


def fire_targets(st, uid):
    return sorted(
        a["target"]
        for a in R.legal_actions(st, st.units[uid].side)
        if a["type"] == "fire" and a["unit"] == uid
    )


def kinds(events):
    return [e["type"] for e in events]


def last(events, type_):
    return [e for e in events if e["type"] == type_][-1]
