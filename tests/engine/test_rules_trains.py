"""Trains as one unit (vocabulary 2.2 Locomotive / Wagon, 4 retreat), the supply train
option (3.3 ``supply_train_rules``, 1.x ``station``) and ``CANNOT_BE_ACTIVATED_TILL_TURN``
(2.5).  Small text boards, the public API, the outcome engine/rules/trains.py states."""

import pytest

from engine import IllegalAction, apply, replay, view_for
from engine.bot import play_random_game
from engine.core.scenario import load_scenario
from engine.core.textboard import m44_from_text
from tests.engine.rulehelp import act, do, game, legal, ordered, play, roll, to_battle, uid, unit

RAIL = {"Z": "rail", "Q": "station"}
# an Allied train on the row-6 rail (4..20): locomotive (6,10), wagons (6,12), (6,14)
LINE = "0@0: .:i\n6@4: Z Z Z Z Z Z Z Z Z"
TRAIN = {(6, 10): "loco", (6, 12): "wagon", (6, 14): "wagon"}


def _at(st, h):
    return st.units[st.occ[h]].spec.kind if h in st.occ else None


def test_ordering_any_piece_orders_the_whole_train_once():
    st = play(game(LINE, hand=[("probe", 1)], legend=RAIL, units=TRAIN), "probe", 1)
    loco, w1, w2 = uid(st, (6, 10)), uid(st, (6, 12)), uid(st, (6, 14))
    assert [a["unit"] for a in legal(st, "order")] == [loco]  # wagons are not separate
    st, ev = act(st, "order", unit=w2)  # a wagon orders its train
    assert [e for e in ev if e["type"] == "unit_ordered"] == [
        {"type": "unit_ordered", "unit": loco, "side": "ALLIES", "train": [loco, w1, w2]}
    ]
    assert st.play.ordered == [loco] and all(st.units[x].ordered for x in (loco, w1, w2))
    views = {u["id"]: u for u in view_for(st, None)["units"]}
    assert views[w1]["train"] == [loco, w1, w2] and "train" not in views[uid(st, (0, 0))]


def test_train_moves_forward_led_by_the_locomotive_wagons_follow_its_path():
    st = ordered(LINE + "\n8@12: .:I", [(6, 10), (8, 12)], legend=RAIL, units=TRAIN)
    loco, w1, w2 = uid(st, (6, 10)), uid(st, (6, 12)), uid(st, (6, 14))
    moves = {
        (a["unit"], tuple(a["to"])) for a in legal(st, "move") if a["unit"] != uid(st, (8, 12))
    }
    assert moves == {
        (loco, (6, 8)),
        (loco, (6, 6)),
        (loco, (6, 4)),  # forward
        (w2, (6, 16)),
        (w2, (6, 18)),
        (w2, (6, 20)),
    }  # backward
    st, ev = act(st, "move", unit=loco, to=[6, 6])
    assert [st.units[x].hex for x in (loco, w1, w2)] == [(6, 6), (6, 8), (6, 10)]
    assert [
        (e["unit"], e["from"], e["to"], e["hexes"]) for e in ev if e["type"] == "unit_moved"
    ] == [(loco, [6, 10], [6, 6], 2), (w1, [6, 12], [6, 8], 2), (w2, [6, 14], [6, 10], 2)]
    assert (6, 12) not in st.occ and (6, 14) not in st.occ
    assert all(st.units[x].moved == 2 for x in (loco, w1, w2))
    with pytest.raises(IllegalAction) as e:  # one move per turn
        apply(st, {"type": "move", "seat": "ALLIES", "unit": w2, "to": [6, 12]})
    assert e.value.code == "unit_already_moved"


def test_train_moves_backward_led_by_its_last_wagon():
    st = ordered(LINE, [(6, 10)], legend=RAIL, units=TRAIN)
    loco, w1, w2 = uid(st, (6, 10)), uid(st, (6, 12)), uid(st, (6, 14))
    st, _ = act(st, "move", unit=w2, to=[6, 16])
    assert [st.units[x].hex for x in (loco, w1, w2)] == [(6, 12), (6, 14), (6, 16)]
    assert (6, 10) not in st.occ
    # a middle wagon cannot lead
    st = ordered(LINE, [(6, 10)], legend=RAIL, units=TRAIN)
    with pytest.raises(IllegalAction) as e:
        act(st, "move", unit=uid(st, (6, 12)), to=[6, 16])
    assert e.value.code == "illegal_move"


def test_train_path_blocked_by_a_unit_on_the_rail_and_state_unchanged():
    st = ordered(LINE + "\n6@6: .:I", [(6, 10)], legend=RAIL, units={**TRAIN, (6, 18): "infger"})
    loco, w2 = uid(st, (6, 10)), uid(st, (6, 14))
    assert {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == loco} == {(6, 8)}
    assert {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == w2} == {(6, 16)}
    before = st.snapshot()
    with pytest.raises(IllegalAction) as e:
        act(st, "move", unit=loco, to=[6, 4])  # through the own infantry
    assert e.value.code == "illegal_move" and st.snapshot() == before


def test_one_hex_train_moves_either_way_and_a_station_stops_it():
    st = ordered("0@0: .:i\n6@4: Z Q Z Z Z Z", [(6, 10)], legend=RAIL, units={(6, 10): "loco"})
    assert sorted(tuple(a["to"]) for a in legal(st, "move")) == [
        (6, 6),
        (6, 8),
        (6, 12),
        (6, 14),
    ]  # not past (6,6)


# an Axis train on the row-4 rail (4..16): locomotive (4,8), wagon (4,10); Allied
# infantry at (5,9) (next to both) and (5,11) (next to the wagon)
AXIS_LINE = "0@0: .:i\n4@4: Z Z Z Z Z Z Z\n5@9: .:I .:I"
AXIS_TRAIN = {(4, 8): "locoger", (4, 10): "wagonger"}


def _attack(st, frm, target, faces):
    st = do(st, "battle", unit=uid(st, frm), target=list(target))
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, *faces)


def test_battle_against_either_piece_damages_the_train_last_wagon_first():
    st = to_battle(ordered(AXIS_LINE, [(5, 9), (5, 11)], legend=RAIL, units=AXIS_TRAIN))
    loco, wagon = uid(st, (4, 8)), uid(st, (4, 10))
    # fire at the LOCOMOTIVE: 2 grenades hit (the star does not: hit only by grenades),
    # the wagon behind it takes them
    st, ev = _attack(st, (5, 9), (4, 8), ["grenade", "grenade", "star"])
    assert [(e["unit"], e["figures_lost"]) for e in ev if e["type"] == "unit_hit"] == [(wagon, 2)]
    assert st.units[loco].figures == 4 and st.units[wagon].figures == 1
    if st.pending and st.pending["type"] == "take_ground":
        st = do(st, "take_ground", take=False)
    # fire at the wagon: 3 grenades, the wagon's last figure, then the locomotive's
    medals = st.elim_medals["ALLIES"]
    st, ev = _attack(st, (5, 11), (4, 10), ["grenade"] * 3)
    assert wagon not in st.units and st.units[loco].figures == 2
    assert {
        "type": "unit_eliminated",
        "unit": wagon,
        "side": "AXIS",
        "hex": [4, 10],
        "by": "ALLIES",
    } in ev
    assert st.elim_medals["ALLIES"] == medals  # a wagon is worth 0 medals
    assert not any(e["type"] == "medal_gained" for e in ev)


def test_locomotive_eliminated_last_gives_its_medal():
    st = to_battle(
        ordered(
            AXIS_LINE,
            [(5, 9), (5, 11)],
            legend=RAIL,
            units={(4, 8): "locoger:1", (4, 10): "wagonger:1"},
        )
    )
    loco = uid(st, (4, 8))
    st, ev = _attack(st, (5, 9), (4, 8), ["grenade"] * 3)
    assert not any(e["type"] == "unit_hit" and e["figures"] > 0 for e in ev)
    assert loco not in st.units and (4, 10) not in st.occ
    assert st.elim_medals["ALLIES"] == 1  # the locomotive's medal


def test_coupled_train_retreats_backwards_along_the_rail_and_may_ignore_one_flag():
    st = to_battle(ordered(AXIS_LINE, [(5, 9)], legend=RAIL, units=AXIS_TRAIN))
    loco, wagon = uid(st, (4, 8)), uid(st, (4, 10))
    st, _ = _attack(st, (5, 9), (4, 8), ["flag", "flag", "inf"])
    assert st.pending["type"] == "retreat" and st.pending["unit"] == loco
    # options name the hex the last wagon ends on: 2 back, or 1 back ignoring a flag
    assert [(o["to"], o["ignore"], o["losses"]) for o in st.pending["options"]] == [
        ([4, 14], 0, 0),
        ([4, 12], 1, 0),
    ]
    st, ev = act(st, "retreat", unit=loco, to=[4, 14], ignore=0)
    assert (st.units[loco].hex, st.units[wagon].hex) == ((4, 12), (4, 14))
    assert {(e["unit"], tuple(e["to"])) for e in ev if e["type"] == "unit_retreated"} == {
        (loco, (4, 12)),
        (wagon, (4, 14)),
    }
    assert st.pending["type"] == "take_ground"  # (4, 8) was vacated


def test_blocked_train_retreat_costs_figures_taken_from_the_last_wagon():
    st = to_battle(ordered(AXIS_LINE + "\n4@12: Z:I", [(5, 9)], legend=RAIL, units=AXIS_TRAIN))
    loco, wagon = uid(st, (4, 8)), uid(st, (4, 10))
    st, ev = _attack(st, (5, 9), (4, 8), ["flag", "flag", "inf"])
    # the way back is blocked: each flag not ignored costs a figure
    assert [(o["to"], o["ignore"], o["losses"]) for o in st.pending["options"]] == [
        ([4, 10], 1, 1),
        ([4, 10], 0, 2),
    ]
    st, ev = act(st, "retreat", unit=loco, to=[4, 10], ignore=1)
    assert [(e["unit"], e["figures_lost"]) for e in ev if e["type"] == "unit_hit"] == [(wagon, 1)]
    assert st.units[wagon].figures == 2 and st.units[loco].figures == 4
    assert st.units[loco].hex == (4, 8)


# ----------------------------------------------------------------------------- supply train
SUPPLY = {
    "side": "ALLIES",
    "nbr_units": [1, 1],
    "unit": {"name": "infus", "behavior": "CANNOT_BE_ACTIVATED_TILL_TURN", "turn": 1},
}
STATION_LINE = "0@0: .:i\n6@4: Z Q Z Z Z Z Z"


def test_supply_train_unloads_its_units_next_to_the_train_on_entering_a_station():
    st = ordered(
        STATION_LINE + "\n8@12: .:I",
        [(6, 10), (8, 12)],
        legend=RAIL,
        units={(6, 10): "loco", (6, 12): "wagon"},
        game_info={"options": {"supply_train_rules": SUPPLY}},
    )
    loco = uid(st, (6, 10))
    assert {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == loco} == {(6, 8), (6, 6)}
    n = len(st.units)
    st, ev = act(st, "move", unit=loco, to=[6, 6])  # enters the station
    assert {
        "type": "supply_train_arrived",
        "side": "ALLIES",
        "units": 2,
        "train": [loco, uid(st, (6, 8))],
    } in ev
    assert st.pending == {"type": "reinforce", "seat": "ALLIES", "left": 2, "code": "infus"}
    hexes = {tuple(a["hex"]) for a in legal(st)}
    assert hexes == {h for p in ((6, 6), (6, 8)) for h in st.scn.board.neighbours(p)} - set(st.occ)
    with pytest.raises(IllegalAction) as e:
        act(st, "reinforce", hex=[2, 2])  # not next to the train
    assert e.value.code == "illegal_target"
    st, ev = act(st, "reinforce", hex=[5, 7])
    st, ev2 = act(st, "reinforce", hex=[7, 7])
    new = [e["unit"] for e in ev + ev2 if e["type"] == "unit_reinforced"]
    assert len(new) == 2 and len(st.units) == n + 2
    assert [st.units[x].hex for x in new] == [(5, 7), (7, 7)]
    assert st.turn == 1 and all(
        st.units[x].side == "ALLIES"
        and st.units[x].spec.code == "infus"
        and st.units[x].inactive_until == 2
        for x in new
    )  # turn 1 + 1
    assert st.pending == {"type": "move", "seat": "ALLIES"}  # back to the move phase
    assert st.ext["supply_train_done"] is True  # once a game


def test_supply_train_of_the_other_side_unloads_nothing():
    opts = {"options": {"supply_train_rules": {**SUPPLY, "side": "AXIS"}}}
    st = ordered(
        STATION_LINE,
        [(6, 10)],
        legend=RAIL,
        units={(6, 10): "loco", (6, 12): "wagon"},
        game_info=opts,
    )
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[6, 6])
    assert "supply_train_arrived" not in [e["type"] for e in ev] and st.phase != "reinforce"


def test_supply_train_retreating_into_a_station_unloads_nothing():
    """Only a train's own move into a station unloads it (a retreat is not an arrival)."""
    opts = {"options": {"supply_train_rules": {**SUPPLY, "side": "AXIS"}}}
    line = "0@0: .:i\n4@4: Z Z Z Z Q Z Z\n5@9: .:I .:I"  # station at (4, 12)
    st = to_battle(ordered(line, [(5, 9)], legend=RAIL, units=AXIS_TRAIN, game_info=opts))
    loco, wagon = uid(st, (4, 8)), uid(st, (4, 10))
    st, _ = _attack(st, (5, 9), (4, 8), ["flag", "flag", "inf"])
    st, ev = act(st, "retreat", unit=loco, to=[4, 14], ignore=0)
    assert (st.units[loco].hex, st.units[wagon].hex) == ((4, 12), (4, 14))  # loco in the station
    assert "supply_train_arrived" not in [e["type"] for e in ev]
    assert st.phase != "reinforce" and not (st.ext or {}).get("supply_train_done")


def test_cannot_be_activated_till_turn_unit_not_ordered_until_after_that_turn():
    held = {"name": "infus", "behavior": "CANNOT_BE_ACTIVATED_TILL_TURN", "turn": 2}
    st = game(
        "0@0: .:i\n6@10: .:I",
        hand=[("probe", 1), ("attack", 1)],
        units={(6, 12): held},
        axis_hand=[("attack", 1)],
    )
    st = play(st, "probe", 1)
    free, late = uid(st, (6, 10)), uid(st, (6, 12))
    assert st.turn == 1 and [a["unit"] for a in legal(st, "order")] == [free]
    before = st.snapshot()
    with pytest.raises(IllegalAction) as e:
        act(st, "order", unit=late)
    assert e.value.code == "unit_not_active_yet" and st.snapshot() == before
    assert next(u for u in view_for(st, None)["units"] if u["id"] == late)["inactive_until"] == 2
    while st.turn < 3:  # end turn 1, Axis turn 2
        st, _ = apply(st, legal(st)[-1])
    assert st.active == "ALLIES"
    st = play(st, "attack", 1)
    assert late in [a["unit"] for a in legal(st, "order")]  # turn 3 > 2: ordered


def test_assault_orders_all_units_but_skips_held_back_ones():
    held = {"name": "infus", "behavior": "CANNOT_BE_ACTIVATED_TILL_TURN", "turn": 1}
    st = game("0@0: .:i\n6@10: .:I", hand=[("assault", 1)], units={(6, 12): held})
    st = play(st, "assault", 1)
    assert st.play.ordered == [uid(st, (6, 10))] and not unit(st, (6, 12)).ordered


def test_airdropped_units_with_the_behaviour_wait_for_their_turn():
    opts = {
        "options": {
            "airdrop": {
                "side": "ALLIES",
                "range": 1,
                "nbr_units": 1,
                "unit": {"name": "inf2us", "behavior": "CANNOT_BE_ACTIVATED_TILL_TURN", "turn": 3},
            }
        }
    }
    st = game("0@0: .:i\n8@22: .:I", hand=[("probe", 1)], game_info=opts)
    st, ev = act(st, "airdrop", hex=[4, 12])
    dropped = next(e["unit"] for e in ev if e["type"] == "unit_dropped")
    assert st.units[dropped].inactive_until == 3
    st = play(st, "probe", 1)
    assert dropped not in [a["unit"] for a in legal(st, "order")]


# ----------------------------------------------------------------------------- random play
def train_scenario() -> dict:
    """A small .m44 dict: an Allied supply train (rect_terrain loco + 2 wagons) 2 hexes
    from a station, an Axis train (unit entries) further up, units of both sides around."""
    text = (
        "0@0: .:i .:i . . . .:a .:i . .:i\n2@2: . .:i . .:g\n"
        "6@6: .:I . . . . .:I\n7@3: . .:I . .:A . .:I\n8@0: .:G"
    )
    rails = [
        {"row": 5, "col": c, "terrain": {"name": "station" if c == 9 else "rail", "orientation": 1}}
        for c in range(1, 24, 2)
    ]
    rails += [
        {"row": 3, "col": c, "terrain": {"name": "rail", "orientation": 1}} for c in range(1, 24, 2)
    ]
    for h, name in {(5, 13): "loco", (5, 15): "wagon", (5, 17): "wagon"}.items():
        next(x for x in rails if (x["row"], x["col"]) == h)["rect_terrain"] = {
            "name": name,
            "orientation": 1,
        }  # train tiles: player 2's (Allied) units
    for h, name in {(3, 5): "locoger", (3, 3): "wagonger"}.items():
        next(x for x in rails if (x["row"], x["col"]) == h)["unit"] = {"name": name}
    d = m44_from_text(text, hexes=rails, options={"supply_train_rules": SUPPLY})
    return d


def test_random_games_with_trains_finish_and_replay_equals_live():
    scn = load_scenario(train_scenario())
    from engine.procedures.trains import compositions

    trains = set(compositions(scn).values())
    assert sorted(len(t) for t in trains) == [2, 3]  # the Axis and the Allied train
    unloaded = 0
    for seed in range(20):
        st, actions = play_random_game(scn, seed, max_turns=120, record=True)
        assert replay(scn, seed, actions) == st
        unloaded += bool(st.ext and st.ext.get("supply_train_done"))
    assert unloaded > 0  # the supply train reached its station
    from tests.engine.test_property import assert_apply_pure

    for seed in range(3):  # copy-on-write respected by the train rules
        assert_apply_pure(scn, seed)
