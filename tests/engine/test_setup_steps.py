"""The scenario set-up steps before the first turn, every one after every other (issue 35,
findings 3-4): air drops (``airdrop`` / ``airdrop2`` in every shape of vocabulary 3.3),
the smoke screen, the campaign pre-battle dice, the night roll, the Overlord Commissar -
under every ruleset that plays ``.m44`` scenarios (m44 standard, Overlord, Fast Play)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine.core.ruleset import get
from engine.core.textboard import board_from_text
from engine.procedures.setup_steps import read_drops
from tests.engine.rulehelp import game

ALLIED_DROPS = {None: [], "scalar": [2], "list": [1, 1, 1], "string": [3], "drops": [2, 2]}


def _drop_option(shape: str) -> dict[str, Any]:
    base = {"side": "ALLIES", "range": 1, "unit": {"name": "inf2us"}}
    return {
        "scalar": {**base, "nbr_units": 2},
        "list": {**base, "nbr_units": [1, 1, 1]},
        "string": {**base, "nbr_units": "3"},
        "drops": {**base, "nbr_units": 2, "nbr_drops": 2},
    }[shape]


def _options(drop, axis_drop, smoke, night) -> dict[str, Any]:
    o: dict[str, Any] = {}
    if drop:
        o["airdrop"] = _drop_option(drop)
    if axis_drop:
        o["airdrop2"] = {"side": "AXIS", "range": 0, "nbr_units": [1, 1]}
    if smoke:
        o["smoke_screen"] = {"side": "AXIS", "nbr_hexes": 2}
    if night:
        o["night_visibility_rules"] = True
    return o


def _scenario(kind: str, options: dict):
    if kind == "OVERLORD":
        return board_from_text(
            "0@4: .:i\n8@4: .:I", kind="OVERLORD", cards=(6, 6), game_info={"options": options}
        )
    return board_from_text(
        "0@0: .:i\n8@22: .:I\n0@12: .:i\n8@12: .:I", game_info={"options": options}
    )


FIRST_TURN = {"play_card", "command", "dispatch"}


def _steps(name: str, mode: str, scn, game_options=None) -> tuple[list, Any]:
    """Take every set-up step (the first legal choice, aimed at the board's middle for a
    drop; dice sampled) until the first turn's first decision; the steps in order."""
    rs = get(name)
    st = rs.new_game(7, game_options, scn, mode)
    steps: list[tuple[str, Any]] = []
    for _ in range(100):
        p = st.pending
        if p is None or p["type"] in FIRST_TURN:
            return steps, st
        steps.append((p["type"], p.get("for")))
        seat = rs.to_act(st)[0]
        if seat == "chance":
            st, _ = rs.apply(st, {"type": "roll", "seat": "chance"})
            continue
        acts = rs.legal_actions(st, seat)
        mid = [a for a in acts if a.get("hex") == [4, 12]]
        st, _ = rs.apply(st, (mid or acts)[0])
    raise AssertionError(f"no first turn after {steps}")


def _order_ok(steps: list, order: list[str]) -> bool:
    """The steps of ``order`` first appear in that order (a kind may come back later: the
    Overlord Commissar side also takes its chip's cards at the start of its turn)."""
    kinds = [k for k, _f in steps]
    first = [kinds.index(k) for k in order if k in kinds]
    return first == sorted(first)


@pytest.mark.parametrize(
    "drop,axis_drop,smoke,night,campaign",
    [
        c
        for c in itertools.product(
            sorted(ALLIED_DROPS, key=str),
            (False, True),
            (False, True),
            (False, True),
            (False, True),
        )
    ],
)
def test_m44_every_setup_step_after_every_other(drop, axis_drop, smoke, night, campaign):
    """m44 (standard play): the campaign pre-battle dice ("At the beginning of the game,
    before the Command Cards are dealt"), the drops (each of its own aim hex), the smoke
    screen, then the night roll of the night side ("at the start of each turn of
    night_visibility_team_turn").
    None is lost whatever comes before it (issue 35 finding 3: the night roll came first
    and the drops were never made)."""
    opts = _options(drop, axis_drop, smoke, night)
    camp = {"campaign": {"AXIS": 1, "ALLIES": 0}} if campaign else None
    steps, st = _steps("m44", "1v1", _scenario("STANDARD", opts), camp)
    kinds = [k if k != "roll" else f for k, f in steps]
    drops = ALLIED_DROPS[drop] + ([1, 1] if axis_drop else [])
    assert kinds.count("airdrop") == len(drops)
    assert ("place_smoke" in kinds) == smoke
    assert ("night" in kinds) == night and kinds.count("night") <= 1
    assert ("campaign" in kinds) == campaign
    assert _order_ok([(k, None) for k in kinds], ["campaign", "airdrop", "place_smoke", "night"])
    landed = sum(1 for u in st.units.values() if u.id not in {f"u{i}" for i in range(4)})
    assert landed <= sum(drops) and st.turn == 1 and st.pending["type"] == "play_card"


@pytest.mark.parametrize(
    "drop,axis_drop,smoke,night",
    [
        c
        for c in itertools.product(
            sorted(ALLIED_DROPS, key=str), (False, True), (False, True), (False, True)
        )
    ],
)
def test_fastplay_every_setup_step_after_every_other(drop, axis_drop, smoke, night):
    """Fast Play '44 (1.1: "Setup is exactly the same as setting up a 'Commands and Colors'
    scenario"): the drops in every shape, then the smoke screen, then the first command
    (Fast Play has no night roll: its turns have no cards to limit)."""
    opts = _options(drop, axis_drop, smoke, night)
    steps, st = _steps("fastplay", "1v1", _scenario("STANDARD", opts))
    kinds = [k for k, _f in steps]
    assert kinds.count("airdrop") == len(ALLIED_DROPS[drop]) + (2 if axis_drop else 0)
    assert ("place_smoke" in kinds) == smoke
    assert _order_ok(steps, ["airdrop", "place_smoke"])
    assert st.pending["type"] == "command"


@pytest.mark.parametrize(
    "drop,axis_drop,smoke,night,commissar",
    [
        c
        for c in itertools.product(
            (None, "list"), (False, True), (False, True), (False, True), (False, True)
        )
    ],
)
def test_overlord_every_setup_step_after_every_other(drop, axis_drop, smoke, night, commissar):
    """Overlord: the drops, the smoke screen, the game-start Commissar card, then the first
    turn and its night roll."""
    opts = _options(drop, axis_drop, smoke, night)
    if commissar:
        opts["russian_commissar_rule"] = "ALLIES"
    steps, st = _steps("overlord", "overlord", _scenario("OVERLORD", opts))
    kinds = [k if k != "roll" else f for k, f in steps]
    assert kinds.count("airdrop") == len(ALLIED_DROPS[drop]) + (2 if axis_drop else 0)
    assert ("place_smoke" in kinds) == smoke
    assert ("night" in kinds) == night
    assert ("commissar" in kinds) == commissar
    assert _order_ok([(k, None) for k in kinds], ["airdrop", "place_smoke", "commissar", "night"])


def test_night_drop_scenario_keeps_its_paradrops():
    """ "6687 Drop in the Night"-like options: a night scenario whose night side plays
    first and drops units ``nbr_units: [1, 1, 1, 1, 1, 1]``: six drops before the first
    turn, then the night roll (issue 35 findings 3-4: the drops were lost, Fast Play could
    not start)."""
    opts = {
        "night_visibility_rules": True,
        "airdrop": {
            "side": "ALLIES",
            "range": 1,
            "nbr_units": [1, 1, 1, 1, 1, 1],
            "unit": {"name": "inf2us"},
        },
    }
    st = game("0@0: .:i\n8@22: .:I", game_info={"options": opts})
    assert st.pending == {"type": "airdrop", "seat": "ALLIES", "units": 1, "range": 1}
    for name in ("m44", "fastplay"):
        steps, st = _steps(name, "1v1", _scenario("STANDARD", opts))
        assert [k for k, _ in steps][:6] == ["airdrop"] * 6


# --------------------------------------------------------------- the drop's vocabulary
@pytest.mark.parametrize(
    "value,expected",
    [
        ({"side": "ALLIES", "nbr_units": 3}, [("ALLIES", 3, 1)]),
        ({"side": "allies", "nbr_units": "3", "range": "2"}, [("ALLIES", 3, 2)]),
        ({"side": "ALLIES", "nbr_units": [3, 3, 3]}, [("ALLIES", 3, 1)] * 3),
        (
            {"side": "ALLIES", "nbr_units": ["1", 2], "range": [2, 3]},
            [("ALLIES", 1, 2), ("ALLIES", 2, 3)],
        ),
        ({"side": "ALLIES", "nbr_units": 2, "nbr_drops": 3}, [("ALLIES", 2, 1)] * 3),
        ({"side": "ALLIES", "nbr_units": 2, "nbr_drops": "2"}, [("ALLIES", 2, 1)] * 2),
        ({"side": "ALLIES"}, [("ALLIES", 1, 1)]),
        (
            {"AXIS": {"nbr_units": 2}, "ALLIES": {"nbr_units": [1, 1]}},
            [("AXIS", 2, 1), ("ALLIES", 1, 1), ("ALLIES", 1, 1)],
        ),
        (
            [{"side": "AXIS", "nbr_units": 1}, {"side": "ALLIES", "nbr_units": 2}],
            [("AXIS", 1, 1), ("ALLIES", 2, 1)],
        ),
        ({"side": "NOBODY", "nbr_units": 2}, []),
        ({"side": "ALLIES", "unit": {"name": "nosuchunit"}}, []),
        (True, []),
        ("ALLIES", []),
    ],
)
def test_drop_read_in_every_shape(value, expected):
    st = game("0@0: .:i\n8@22: .:I")
    got = [(d["side"], d["units"], d["range"]) for d in read_drops(st, value)]
    assert got == expected


def test_drop_unit_in_every_shape():
    """``unit``: a code, a ``.m44`` unit dict, one per drop, none (special forces of the
    side's nation); a drop-level ``behavior`` + ``turn`` holds the units back."""
    st = game("0@0: .:i\n8@22: .:I")
    codes = [
        d["unit"]["name"]
        for d in read_drops(
            st, {"side": "AXIS", "nbr_units": [1, 1, 1], "unit": ["inf2ger", {"name": "infger"}]}
        )
    ]
    assert codes == ["inf2ger", "infger", "infger"]
    assert read_drops(st, {"side": "AXIS", "unit": "tankger"})[0]["unit"]["name"] == "tankger"
    assert read_drops(st, {"side": "AXIS"})[0]["unit"]["name"] == "inf2ger"
    d = read_drops(st, {"side": "ALLIES", "behavior": "CANNOT_BE_ACTIVATED_TILL_TURN", "turn": 2})[
        0
    ]
    assert d["unit"]["behavior"] == "CANNOT_BE_ACTIVATED_TILL_TURN" and d["unit"]["turn"] == 2
