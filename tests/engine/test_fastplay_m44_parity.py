"""Fast Play '44 playing what a ``.m44`` scenario asks as the standard game does: the
set-up steps before the first turn (vocabulary 3.3 ``airdrop`` / ``smoke_screen``; 004
Airdrop Method) and the Tiger's two-step damage (vocabulary 6.3).  Boards drawn as text,
dice supplied, the drift drawn from the state RNG."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.procedures import los as L
from tests.engine.fphelp import FP, act, battle, ev, game, legal, roll, types, uid

DROP = {"airdrop": {"side": "ALLIES", "range": 1, "nbr_units": 3, "unit": {"name": "inf2us"}}}


def test_airdrop_units_drift_and_land_before_the_first_turn():
    st = game("4@12: W\n6@8: .:I", game_info={"options": DROP})
    assert st.pending == {"type": "airdrop", "seat": "ALLIES", "units": 3, "range": 1}
    assert types(st) == {"airdrop"} and len(legal(st)) == len(st.scn.board._nbrs)
    with pytest.raises(IllegalAction):
        act(st, "move", unit="u0", to=[5, 8])
    before = len(st.units)
    st2, events = act(st, "airdrop", hex=[4, 10])
    landed, lost = ev(events, "unit_dropped"), ev(events, "drop_lost")
    assert len(landed) + len(lost) == 3 and len(st2.units) == before + len(landed)
    for e in landed:  # one random step from the aim hex, on a free hex
        assert st2.scn.board.distance((4, 10), tuple(e["hex"])) == 1
        assert st2.units[e["unit"]].side == "ALLIES" and st2.units[e["unit"]].spec.code == "inf2us"
    assert st2.rng.counter == st.rng.counter + 3
    assert st2.pending["type"] == "command" and st2.pending["seat"] == "ALLIES"
    if landed:  # a dropped unit is ordered like any other
        assert any(a.get("unit") == landed[0]["unit"] for a in legal(st2, "move"))
    assert FP.load_state(FP.dump_state(st2), st2.scn) == st2


def test_smoke_screen_after_the_airdrop_blocks_line_of_sight():
    opts = {**DROP, "smoke_screen": {"side": "AXIS"}}
    st = game("4@8: .:i\n6@8: .:I", game_info={"options": opts})
    st = act(st, "airdrop", hex=[6, 20])[0]
    assert st.pending == {"type": "place_smoke", "seat": "AXIS", "left": 3}
    assert L.clear(st, (5, 11), (3, 11))
    st, events = act(st, "place_smoke", hex=[4, 10])
    assert {"type": "terrain_changed", "hex": [4, 10], "added": "smoke"} in events
    hexes = [a["hex"] for a in legal(st, "place_smoke")]
    assert [4, 12] in hexes and [0, 0] not in hexes  # the screen is contiguous
    st = FP.load_state(FP.dump_state(st), st.scn)  # mid-screen snapshot
    st = act(st, "place_smoke", hex=[4, 12])[0]
    assert not L.clear(st, (5, 11), (3, 11))
    st = act(st, "end_smoke")[0]
    assert st.pending["type"] == "command" and st.pending["seat"] == "ALLIES"
    assert "setup" not in st.ext


TIGER = {(4, 8): {"name": "tigerger"}}


def _tiger_hit(first):
    st = game("6@8: .:A", units=TIGER)
    st = battle(st, (6, 8), (4, 8))
    assert st.pending["type"] == "roll" and st.pending["for"] == "battle"
    return roll(st, *first, *["star"] * (st.pending["dice"] - len(first)))


def test_tiger_hits_are_rolled_again_grenades_take_the_figure():
    st, events = _tiger_hit(("armor", "armor", "flag"))
    assert (4, 8) in st.occ and not ev(events, "unit_eliminated")
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2 and st.pending["for"] == "tiger"
    st2, events = roll(st, "grenade", "star")
    assert (4, 8) not in st2.occ and st2.elim_medals["ALLIES"] == 1
    assert ev(events, "dice_rolled")[0]["kind"] == "tiger"


def test_tiger_without_a_grenade_survives_then_takes_the_first_rolls_flag():
    st, _ = _tiger_hit(("armor", "armor", "flag"))
    tiger = uid(st, (4, 8))
    st, events = roll(st, "armor", "star")
    assert not ev(events, "unit_eliminated") and st.units[tiger].figures == 1
    assert st.pending["type"] == "retreat" or ev(events, "unit_retreated")


# -- trains (procedure engine/procedures/trains.py, as in the standard game) --------------
RAIL = {"Z": "rail", "Q": "station"}
LINE = "6@4: Z Z Z Z Z Z Z Z Z"  # rail (6,4)..(6,20); train loco (6,10), wagons behind
TRAIN = {(6, 10): "loco", (6, 12): "wagon", (6, 14): "wagon"}


def test_a_train_moves_whole_along_its_rail_for_one_cp():
    st = game(LINE, legend=RAIL, units=TRAIN)
    loco, w1, w2 = uid(st, (6, 10)), uid(st, (6, 12)), uid(st, (6, 14))
    moves = {(a["unit"], tuple(a["to"])) for a in legal(st, "move") if a["unit"] in (loco, w1, w2)}
    assert moves == {(loco, h) for h in ((6, 8), (6, 6), (6, 4), (6, 16), (6, 18), (6, 20))}
    cp = st.ext["cp"]
    st, events = act(st, "move", unit=loco, to=[6, 6])
    assert [st.units[x].hex for x in (loco, w1, w2)] == [(6, 6), (6, 8), (6, 10)]
    assert len(ev(events, "unit_moved")) == 3 and st.ext["cp"] == cp - 1
    assert not [a for a in legal(st) if a.get("unit") in (loco, w1, w2)]  # done this turn
    st = FP.load_state(FP.dump_state(st), st.scn)
    st = act(st, "end_turn")[0]
    assert st.active == "AXIS"


def test_a_supply_train_unloads_its_units_on_entering_a_station():
    supply = {"side": "ALLIES", "nbr_units": [1, 1], "unit": {"name": "infus"}}
    st = game(
        "6@4: Z Q Z Z Z Z Z",
        legend=RAIL,
        units={(6, 10): "loco", (6, 12): "wagon"},
        game_info={"options": {"supply_train_rules": supply}},
    )
    loco = uid(st, (6, 10))
    n = len(st.units)
    st, events = act(st, "move", unit=loco, to=[6, 6])  # enters the station
    assert ev(events, "supply_train_arrived")[0]["units"] == 2
    assert st.pending == {"type": "reinforce", "seat": "ALLIES", "left": 2, "code": "infus"}
    hexes = {tuple(a["hex"]) for a in legal(st)}
    assert (5, 5) in hexes and all(h not in st.occ for h in hexes)
    with pytest.raises(IllegalAction):
        act(st, "reinforce", hex=[2, 2])  # not next to the train
    st = act(st, "reinforce", hex=[5, 5])[0]
    st, events = act(st, "reinforce", hex=[5, 7])
    assert len(st.units) == n + 2 and st.units[st.occ[(5, 7)]].spec.code == "infus"
    assert st.pending["type"] == "command" and st.pending["seat"] == "ALLIES"
