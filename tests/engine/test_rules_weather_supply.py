"""004 optional conditions: ``weather`` (Night & Severe Weather Conditions),
``demoralisation`` (Demoralisation, & Disorganisation) and ``supply_lines`` (Supply Lines
& Sieges); engine/rules/conditions.py.  Boards: AXIS (lowercase) on top, ALLIES
(uppercase) below and to play."""

import pytest

from engine import view_for
from engine.core.errors import EngineError
from tests.engine.rulehelp import (
    act,
    card_id,
    do,
    event_types,
    game,
    legal,
    order_units,
    ordered,
    play,
    random_games,
    roll,
    to_battle,
    uid,
    unit,
)

W, D, S = "weather", "demoralisation", "supply_lines"


def targets(st, h):
    return sorted(tuple(a["target"]) for a in legal(st, "battle") if a["unit"] == uid(st, h))


def moves(st, h):
    return {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == uid(st, h)}


def reach(st, h):
    """The farthest hex (in hexes) the unit on ``h`` may move to (0: none)."""
    from engine.core.geometry import distance

    return max((distance(h, m) for m in moves(st, h)), default=0)


def dice(st, h, target):
    from engine.procedures.battle import targets as tg

    return dict(tg(st, unit(st, h), st.play)).get(tuple(target))


# ----------------------------------------------------------------------------- weather
#: enemy infantry at 1, 2, 3 hexes from the Allied infantry on (6,12)
AT = {1: "5@11: .:i", 2: "4@12: .:i", 3: "3@11: .:i"}
TGT = {1: (5, 11), 2: (4, 12), 3: (3, 11)}


@pytest.mark.parametrize(
    "cond,vis", [("NIGHT", 1), ("FOG", 2), ("BLIZZARD", 2), ("RAINSTORM", 3), (None, 3)]
)
@pytest.mark.parametrize("d", [1, 2, 3])
def test_no_target_beyond_the_visibility(cond, vis, d):
    """004: Night "Visibility is reduced to adjacent hexes only", Blizzards / Fog "to 2
    hexes", Rainstorm "to 3 hexes" (no option: infantry's full range 3)."""
    st = ordered(
        f"{AT[d]}\n6@12: .:I", [(6, 12)], key=("probe", 1), options={W: cond} if cond else None
    )
    st = to_battle(st)
    assert (targets(st, (6, 12)) == [TGT[d]]) == (d <= vis)


def test_beyond_the_visibility_is_refused_as_out_of_range():
    st = to_battle(
        ordered("3@11: .:i\n4@12: .:i\n6@12: .:I", [(6, 12)], key=("probe", 1), options={W: "fog"})
    )
    assert view_for(st, None)["weather"] == "FOG"  # the condition is public
    with pytest.raises(EngineError) as e:
        act(st, "battle", unit=uid(st, (6, 12)), target=[3, 11])
    assert e.value.code == "target_out_of_range"


# Allied artillery on (8,12), target infantry 4 hexes away on (4,12), a friendly spotter
# infantry on (4,16) (2 hexes from the target) or (4,14) (adjacent to it).
def _artillery(cond, spotter, gun=".:G", **kw):
    text = f"4@12: .:i\n4@{spotter}: .:I\n8@12: {gun}" if spotter else f"4@12: .:i\n8@12: {gun}"
    return to_battle(
        ordered(text, [(8, 12)], key=("probe", 1), options={W: cond} if cond else None, **kw)
    )


@pytest.mark.parametrize(
    "cond,spotter,ok",
    [
        (None, None, True),  # clear: artillery range 6
        ("FOG", None, False),
        ("FOG", 16, True),
        ("BLIZZARD", 16, True),
        ("RAINSTORM", None, False),
        ("RAINSTORM", 16, True),
        ("NIGHT", 16, False),  # night: the spotter must be in close assault
        ("NIGHT", 14, True),
    ],
)
def test_indirect_firing_artillery_fires_beyond_the_visibility_with_a_spotter(cond, spotter, ok):
    """004: "Indirect Firing Artillery may fire at any target provided that it is within
    range and that a friendly Unit is within 2 [Rainstorm: 3] hexes of the target";
    Night: "a friendly Unit is in Close Assault with the target".  A standard artillery
    unit is indirect firing (004 Heavy Artillery: "the normal kind of Artillery")."""
    st = _artillery(cond, spotter)
    assert ((4, 12) in targets(st, (8, 12))) == ok


def test_direct_firing_artillery_and_infantry_get_no_exception():
    """A 004 Anti-Tank Artillery (direct fire) and infantry stay within the visibility."""
    st = to_battle(
        ordered(
            "4@12: .:i\n4@16: .:I\n8@12: .:G",
            [(8, 12)],
            key=("probe", 1),
            options={W: "FOG", "extra_unit_types": {"8,12": "anti_tank_artillery"}},
        )
    )
    assert targets(st, (8, 12)) == []
    st = to_battle(
        ordered("3@11: .:i\n4@14: .:I\n6@12: .:I", [(6, 12)], key=("probe", 1), options={W: "FOG"})
    )
    assert targets(st, (6, 12)) == []


@pytest.mark.parametrize(
    "cond,inf,armour,art",
    [
        (None, 2, 3, 1),
        ("DEEP_SNOW", 1, 2, 0),
        ("MUD", 2, 2, 1),
        ("RUSSIAN_MUD", 1, 1, 1),
    ],
)
def test_movement_in_snow_and_mud(cond, inf, armour, art):
    """004 Deep Snow: "All Units Movement is reduced by one hex per turn"; Mud: "All
    Armour is reduced to Moving 2 hexes"; Russian Mud: "all Units, except on Railways, to
    Moving only 1 hex per turn" (open ground here)."""
    opts = {W: cond} if cond else None
    st = ordered(
        "0@0: .:i\n6@4: .:I\n6@12: .:A\n6@20: .:G",
        [(6, 4), (6, 12), (6, 20)],
        key="direct_from_hq",
        options=opts,
    )
    assert reach(st, (6, 4)) == inf
    assert reach(st, (6, 12)) == armour
    assert reach(st, (6, 20)) == art


def test_mud_does_not_slow_armour_along_a_road():
    """004 Mud: "Movement is normal on Railways, Roads, and through Towns & Villages, etc.
    as Mud does not affect them": 3 hexes along the road, 2 off it."""
    st = ordered("0@0: .:i\n6@4: r r r r:A r r r", [(6, 10)], options={W: "MUD"})
    ms = moves(st, (6, 10))
    assert (6, 4) in ms and (6, 16) in ms  # along the road
    assert (3, 11) not in ms and (4, 10) in ms  # off the road: at most 2


def test_mud_makes_special_forces_regular_infantry():
    """004 Mud: "Special Infantry Units are reduced to Regular Infantry Units" (Regular:
    "may Advance 1 hex and Battle, or March 2 hexes and not Battle")."""
    st = ordered("1@11: .:i\n6@10: .:S", [(6, 10)], options={W: "MUD"})
    st = do(st, "move", unit=uid(st, (6, 10)), to=[4, 10])
    assert st.active == "AXIS"  # marched 2: no battle, turn over
    st = ordered("2@10: .:i\n6@10: .:S", [(6, 10)], options={W: "MUD"})
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert targets(st, (5, 11)) == [(2, 10)]


def test_rainstorm_no_air_power():
    """004 Rainstorm: "No paradrops or tactical airpower are allowed": the Air Power card
    orders one unit (our reading, as the night rule's) instead of striking."""
    st = play(game("2@10: .:i\n6@10: .:I", hand=["air_power"]), "air_power")
    assert st.phase == "target"
    st = play(
        game("2@10: .:i\n6@10: .:I", hand=["air_power"], options={W: "RAINSTORM"}), "air_power"
    )
    assert st.phase == "order" and [a["unit"] for a in legal(st, "order")] == [uid(st, (6, 10))]


# ----------------------------------------------------------------------------- demoralisation
def test_demoralised_units_lose_a_figure_a_hex_and_a_die():
    """004: "reduce the number of figures/models per Unit, number of hexes a Unit can
    Move, and Battle Dice by a factor of 1" (side entry: every Allied unit)."""
    st = ordered("5@11: .:i\n6@12: .:I", [(6, 12)], key=("probe", 1), options={D: {"ALLIES": 1}})
    u = unit(st, (6, 12))
    assert u.figures == 3 and unit(st, (5, 11)).figures == 4
    views = {v["id"]: v for v in view_for(st, None)["units"]}
    assert views[u.id]["demoralised"] == 1 and "demoralised" not in views[uid(st, (5, 11))]
    assert reach(st, (6, 12)) == 1
    st = to_battle(st)
    assert dice(st, (6, 12), (5, 11)) == 2  # close assault 3 dice - 1


def test_demoralised_by_two_a_hex_entry_wins_over_a_code_entry():
    """ "Only in exceptional cases of near-collapse should these be reduced by a factor of
    2"; a hex entry names one unit, a code entry every such unit."""
    st = ordered(
        "5@11: .:i\n6@12: .:I\n6@14: .:I",
        [(6, 12), (6, 14)],
        key=("probe", 1),
        options={D: {"6,12": 2, unit_code(): 1}},
    )
    assert unit(st, (6, 12)).figures == 2 and unit(st, (6, 14)).figures == 3
    assert reach(st, (6, 12)) == 0 and reach(st, (6, 14)) == 1
    st = to_battle(st)
    assert dice(st, (6, 12), (5, 11)) == 1


def unit_code():
    return game("6@12: .:I").units["u0"].spec.code


def test_demoralised_unit_with_no_movement_still_retreats():
    """004: "Units are always able to Retreat, even if their Movement is reduced to 0
    hexes per turn" (Axis infantry demoralised by 2: movement 0)."""
    st = to_battle(ordered("5@11: .:i\n6@10: .:I", [(6, 10)], options={D: {"AXIS": 2}}))
    assert unit(st, (5, 11)).figures == 2
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[5, 11])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "flag", "star", "star")
    p = st.pending
    assert p["type"] == "retreat" and p["seat"] == "AXIS"
    st = do(st, "retreat", unit=p["unit"], to=[4, 12], ignore=0)
    assert unit(st, (4, 12)).figures == 2 and (5, 11) not in st.occ


@pytest.mark.parametrize(
    "value,entry",
    [
        (True, None),
        ({"ALLIES": 3}, "ALLIES"),
        ({"ALLIES": True}, "ALLIES"),
        ({"6,12": "1"}, "6,12"),
        ({"3,3": 1}, "3,3"),
        ({"tankru": 1}, "tankru"),
    ],
)
def test_demoralisation_value_errors(value, entry):
    with pytest.raises(EngineError) as e:
        game("6@12: .:I", options={D: value})
    assert e.value.code == "invalid_option_value" and e.value.details.get("entry") == entry


@pytest.mark.parametrize(
    "opt,value,entry",
    [
        (W, "SUNNY", W),
        (S, {"ITALY": ["0,0"]}, "ITALY"),
        (S, {"AXIS": "0,0"}, "AXIS"),
        (S, {"AXIS": ["x"]}, "x"),
        (S, {"AXIS": ["40,40"]}, "40,40"),
        (S, ["0,0"], None),
    ],
)
def test_weather_and_supply_value_errors(opt, value, entry):
    with pytest.raises(EngineError) as e:
        game("6@12: .:I", options={opt: value})
    assert e.value.code == "invalid_option_value" and e.value.details.get("entry") == entry


# ----------------------------------------------------------------------------- supply
# A road from the Allied baseline (row 8) up to (4,10); Allied infantry A on its end,
# Allied infantry B on (5,3) with Axis infantry 2 hexes away on (3,3): every hex around B
# is in that unit's battle range, so B's line of supply is broken.  The Axis have a road
# from their baseline to (3,3)'s neighbour (2,4) out of the Allies' range? No: (2,4) is
# within 3 of B, so the Axis unit on (3,3) is out of supply too and rolls in its turn.
SUPPLY_BOARD = "3@3: .:i\n4@10: r:I\n5@3: .:I\n5@11: r\n6@10: r\n7@11: r\n8@10: r"


KEEP = card_id("direct_from_hq")  # kept in hand for the test's own orders


def _next_turn(st):
    """Finish the active side's turn (a card other than Direct From HQ, no orders); its
    supply losses roll shows no star."""
    side = st.active
    while st.active == side and not st.game_over:
        if st.pending["type"] == "roll":
            st, _ = roll(st, *["inf"] * st.pending["dice"])
            continue
        offered = legal(st)
        if offered[0]["type"] in ("play_card", "choose_card"):
            a = next((a for a in offered if a["card"] != KEEP), offered[0])
            st = do(st, a["type"], card=a["card"])
            continue
        st = do(
            st,
            next(
                t
                for t in ("end_orders", "end_movement", "end_battles")
                if t in [a["type"] for a in offered]
            ),
        )
    return st


def _turns(st):
    return dict(st.ext.get("supply", ()))


def test_unit_cut_off_from_the_road_is_out_of_supply_and_the_supplied_one_is_not():
    st = game(SUPPLY_BOARD, hand=["direct_from_hq", ("probe", 0), ("probe", 2)], options={S: True})
    a, b = uid(st, (4, 10)), uid(st, (5, 3))
    assert _turns(st) == {b: 1}
    plain = game(
        SUPPLY_BOARD.replace("3@3: .:i", "0@0: .:i"), hand=[("probe", 1)], options={S: True}
    )
    assert _turns(plain).get(uid(plain, (5, 3))) is None  # no enemy near: supplied
    assert a not in _turns(st)
    views = {v["id"]: v for v in view_for(st, None)["units"]}  # public: on the board
    assert views[b]["out_of_supply"] == 1 and "out_of_supply" not in views[a]


def test_second_turn_out_of_supply_battles_with_one_die_less():
    """004 "Second Turn - ... All Battle Dice are reduced by 1"."""
    st = game(SUPPLY_BOARD, hand=["direct_from_hq", ("probe", 0), ("probe", 2)], options={S: True})
    b = uid(st, (5, 3))
    st = _next_turn(_next_turn(st))
    assert st.active == "ALLIES" and _turns(st)[b] == 2
    st = to_battle(_play_and_order(st, (5, 3)))
    assert dice(st, (5, 3), (3, 3)) == 1  # 2 dice at range 2, -1


def test_second_turn_out_of_supply_armour_moves_one_less_artillery_not_at_all():
    """004 "Second Turn - Armoured Movement is reduced by one hex ... and Artillery may
    not Move at all" (the first turn out of supply has no effect)."""
    board = SUPPLY_BOARD.replace("5@3: .:I", "5@3: .:A\n6@2: .:G")
    st = game(board, hand=["direct_from_hq", ("probe", 0), ("probe", 2)], options={S: True})
    first = order_units(do(st, "play_card", card=KEEP), [(5, 3), (6, 2)])
    assert reach(first, (5, 3)) == 3 and reach(first, (6, 2)) == 1
    st = _next_turn(_next_turn(st))
    t = _turns(st)
    assert t[uid(st, (5, 3))] == 2 and t[uid(st, (6, 2))] == 2
    st = order_units(do(st, "play_card", card=KEEP), [(5, 3), (6, 2)])
    assert reach(st, (5, 3)) == 2 and reach(st, (6, 2)) == 0


def _play_and_order(st, h):
    return order_units(do(st, "play_card", card=KEEP), [h])


def test_third_turn_out_of_supply_rolls_one_die_a_star_loses_a_figure():
    """004 "Third Turn Losses - Roll one Battle Dice at the beginning of the players turn
    for each Unit. A Green Star means that an Out Of Supply Unit must lose 1 figure"."""
    st = game(SUPPLY_BOARD, hand=["direct_from_hq", ("probe", 0), ("probe", 2)], options={S: True})
    b = uid(st, (5, 3))
    for _ in range(4):
        st = _next_turn(st)
    assert st.active == "ALLIES" and st.pending == {
        "type": "roll",
        "seat": "chance",
        "dice": 1,
        "for": "supply",
    }
    lost, ev = roll(st, "star")
    assert lost.units[b].figures == 3 and "unit_hit" in event_types(ev)
    assert lost.pending["type"] == "play_card" and lost.figures_killed["AXIS"] == 1
    kept, _ = roll(st, "grenade")
    assert kept.units[b].figures == 4 and kept.pending["type"] == "play_card"


def test_back_in_supply_the_count_starts_again():
    """004: "everything else goes back to normal once the Line Of Supply is restored"."""
    st = game(
        SUPPLY_BOARD + "\n0@20: .:i",
        hand=["direct_from_hq", ("probe", 0), ("probe", 2)],
        options={S: True},
    )
    b = uid(st, (5, 3))
    st = _next_turn(st)  # Axis turn
    del_axis = st.occ[(3, 3)]
    st.units.pop(del_axis)  # the threat is gone (set-up shortcut)
    st.occ.pop((3, 3))
    st = _next_turn(st)
    assert st.active == "ALLIES" and b not in _turns(st)


def test_named_supply_base_replaces_the_board_edge():
    """The option may name a side's supply hexes (our reading for scenario bases such as
    004 "Drop-Zone ... the supply-base"): Allied base (4,2), next to B, the road far off."""
    st = game(
        SUPPLY_BOARD.replace("3@3: .:i", "0@0: .:i"),
        hand=[("probe", 1)],
        options={S: {"ALLIES": ["4,2"]}},
    )
    assert _turns(st) == {uid(st, (4, 10)): 1}


# ----------------------------------------------------------------------------- random games
@pytest.mark.parametrize(
    "opts,kinds",
    [
        ({W: "NIGHT"}, {"battle"}),
        ({W: "FOG"}, {"battle"}),
        ({W: "MUD"}, {"move"}),
        ({W: "RUSSIAN_MUD"}, {"move"}),
        ({W: "DEEP_SNOW"}, {"move"}),
        ({W: "RAINSTORM"}, {"battle"}),
        ({D: {"AXIS": 1, "ALLIES": 2}}, {"battle", "retreat"}),
        ({S: True}, {"roll"}),
    ],
)
def test_random_games_finish_and_replay(opts, kinds):
    random_games(opts, kinds)
