"""Hex tags with rules (vocabulary 3.1): camouflage (tag14/tag15).  Boards drawn as text,
chosen dice, the outcome the vocabulary states."""

from engine import view_for
from tests.engine.rulehelp import act, battle_dice_vs, game, legal, ordered, play, to_battle, uid

CAMO = {"name": "tag14"}


def test_camouflaged_unit_fired_at_only_from_an_adjacent_hex():
    st = to_battle(
        ordered(
            "3@11: .:i\n4@14: .:I\n5@11: .:I",
            [(5, 11), (4, 14)],
            key="direct_from_hq",
            tags={(3, 11): CAMO},
        )
    )
    assert view_for(st, None)["camouflage"] == [[3, 11]]
    assert battle_dice_vs(st, (5, 11), (3, 11)) is None  # 2 hexes away
    st = to_battle(ordered("3@11: .:i\n4@12: .:I", [(4, 12)], tags={(3, 11): CAMO}))
    assert battle_dice_vs(st, (4, 12), (3, 11)) == 3  # adjacent
    st = to_battle(ordered("3@11: .:i\n5@11: .:I", [(5, 11)]))
    assert battle_dice_vs(st, (5, 11), (3, 11)) == 2  # no tag: normal


def test_camouflaged_unit_not_a_target_of_air_power_or_barrage():
    st = game("3@11: .:i\n3@15: .:i\n6@10: .:I", hand=["barrage"], tags={(3, 11): CAMO})
    st = play(st, "barrage")
    assert [a["hex"] for a in legal(st, "target")] == [[3, 15]]


def test_camouflage_removed_when_the_unit_moves_or_battles():
    st = ordered("0@0: .:i\n6@10: .:I", [(6, 10)], tags={(6, 10): CAMO})
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert {"type": "camouflage_removed", "hex": [6, 10]} in ev
    assert "camouflage" not in view_for(st, None)
    st = to_battle(ordered("3@11: .:i\n4@12: .:I", [(4, 12)], tags={(4, 12): CAMO}))
    st, ev = act(st, "battle", unit=uid(st, (4, 12)), target=[3, 11])
    assert {"type": "camouflage_removed", "hex": [4, 12]} in ev


# ============================================================== special terrain (1.3)
def test_jungle_unit_battles_only_after_moving_at_most_one_hex():
    from tests.engine.rulehelp import do

    text = "2@10: .:i\n3@11: J .:i\n4@12: J\n5@11: .:S"
    st = ordered(text, [(5, 11)], key=("probe", 1))
    st = do(st, "move", unit=uid(st, (5, 11)), to=[3, 11])  # 2 hexes into jungle
    assert st.phase != "battle" or battle_dice_vs(st, (3, 11), (2, 10)) is None
    st = ordered(text, [(5, 11)], key=("probe", 1))
    st = do(st, "move", unit=uid(st, (5, 11)), to=[4, 12])  # 1 hex into jungle
    assert battle_dice_vs(to_battle(st), (4, 12), (3, 13)) is not None
    st = ordered("2@10: .:i\n4@12: J:S", [(4, 12)], key=("probe", 1))
    st = do(st, "move", unit=uid(st, (4, 12)), to=[3, 11])
    assert battle_dice_vs(to_battle(st), (3, 11), (2, 10)) is not None  # left it: fine
    st = ordered("1@11: .:i\n3@11: J:S", [(3, 11)], key=("probe", 1))
    st = to_battle(st)
    assert battle_dice_vs(st, (3, 11), (1, 11)) is not None  # did not move


def test_jungle_armor_that_moved_cannot_take_ground_into_it():
    from tests.engine.rulehelp import do, roll

    st = ordered("3@11: J:i1\n5@11: .:A", [(5, 11)], key="armor_assault")
    st = do(st, "move", unit=uid(st, (5, 11)), to=[4, 10])
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (4, 10)), target=[3, 11])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, "inf", "star")
    assert "unit_eliminated" in [e["type"] for e in ev]
    assert st.pending is None or st.pending["type"] != "take_ground"


def test_fortress_hit_by_artillery_on_stars_only():
    from tests.engine.rulehelp import do, roll

    st = ordered("3@11: Y:i\n5@11: .:G", [(5, 11)], key=("probe", 1), legend={"Y": "fortress"})
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[3, 11])
    st, ev = roll(st, *(["inf", "grenade", "star"] + ["inf"] * (st.pending["dice"] - 3)))
    hit = [e for e in ev if e["type"] == "dice_rolled"][0]
    assert hit["hits"] == 1  # only the star
    st = ordered("4@10: Y:i\n5@11: .:I", [(5, 11)], key=("probe", 1), legend={"Y": "fortress"})
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, *(["inf", "grenade"] + ["star"] * (st.pending["dice"] - 2)))
    assert [e for e in ev if e["type"] == "dice_rolled"][0]["hits"] == 2  # infantry: normal


# ============================================================== caves, tents, heal, bridges
CAVE = {"V": "pcave", "Q": "pmcave"}


def test_japanese_infantry_moves_cave_to_cave():
    from tests.engine.rulehelp import do, game, order_units, play, unit

    text = "0@10: V:i\n7@1: V\n8@0: .:I"
    st = game(
        text, axis_hand=[("probe", 1)], legend=CAVE, nations={"AXIS": "jp"}, starting="PLAYER1"
    )
    st = order_units(play(st, "probe", 1), [(0, 10)])
    moves = [a["to"] for a in legal(st, "move")]
    assert [7, 1] in moves  # far cave hex, a 1-hex move
    st = do(st, "move", unit=uid(st, (0, 10)), to=[7, 1])
    assert unit(st, (7, 1)).moved == 1
    st = game(text, axis_hand=[("probe", 1)], legend=CAVE, starting="PLAYER1")  # German
    st = order_units(play(st, "probe", 1), [(0, 10)])
    assert [7, 1] not in [a["to"] for a in legal(st, "move")]


def test_allied_infantry_seals_a_cave_on_a_star():
    from tests.engine.rulehelp import do, roll, types
    from engine.procedures.common import terrain_at

    text = "0@0: .:i\n6@10: V:I\n6@14: Q:I"
    st = to_battle(ordered(text, [(6, 10), (6, 14)], key=("attack", 1), legend=CAVE))
    assert "seal_cave" in types(st)
    st, ev = act(st, "seal_cave", unit=uid(st, (6, 10)))
    assert st.pending["type"] == "roll" and st.pending["for"] == "seal_cave"
    assert st.pending["dice"] == 3  # its range-1 dice
    st, ev = roll(st, "inf", "inf", "flag")
    assert terrain_at(st, (6, 10)).cave  # no star: still a cave
    st = do(st, "seal_cave", unit=uid(st, (6, 14)))
    st, ev = roll(st, "inf", "star", "flag")
    t = terrain_at(st, (6, 14))
    assert not t.cave and [x.spec.code for x in t.tiles] == ["mountain"]  # plain mountain
    # adjacent to an enemy: no sealing
    st = to_battle(ordered("5@11: .:i\n6@10: V:I", [(6, 10)], key=("probe", 1), legend=CAVE))
    assert "seal_cave" not in types(st)


def test_hq_tent_enemy_entry_discards_owner_re_entry_draws():
    from engine import view_for

    tent = {"Q": {"name": "dcamp", "original_owner": "AXIS"}}
    st = ordered("0@0: .:i\n5@11: Q\n6@10: .:I", [(6, 10)], key=("probe", 1), legend=tent)
    n = len(st.hands["AXIS"])
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert [e["reason"] for e in ev if e["type"] == "card_discarded"] == ["hq_tent"]
    assert len(st.hands["AXIS"]) == n - 1
    # the owner re-entering a taken tent draws one card (once)
    tent = {"Q": {"name": "dcamp", "original_owner": "ALLIES"}}
    st = ordered("0@0: .:i\n5@11: Q\n6@10: .:I", [(6, 10)], key=("probe", 1), legend=tent)
    st.ext = {**(st.ext or {}), "hq_tents": {"5,11": "taken"}}
    n = len(st.hands["ALLIES"])
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    # the tent's card, then the end-of-turn draw (nothing else could act)
    assert [e["type"] for e in ev].count("card_drawn") == 2
    assert len(st.hands["ALLIES"]) == n + 2 and st.ext["hq_tents"] == {"5,11": "recovered"}
    assert view_for(st, "ALLIES")


def test_oasis_and_hospital_heal_instead_of_battling():
    from tests.engine.rulehelp import roll, types, unit

    legend = {"Z": "oasis", "Y": "phospital"}
    st = ordered(
        "0@0: .:i\n6@10: Z:I",
        [(6, 10)],
        key=("probe", 1),
        legend=legend,
        hand=[("probe", 1), "recon", "attack"],
    )
    st.mut(uid(st, (6, 10))).figures = 2  # wounded
    st = to_battle(st)
    assert "heal" in types(st)
    st, ev = act(st, "heal", unit=uid(st, (6, 10)))
    assert st.pending["for"] == "heal" and st.pending["dice"] == 3  # hand (2) + 1
    st, ev = roll(st, "star", "inf", "inf")
    assert unit(st, (6, 10)).figures == 4  # 2 back (up to its maximum)
    assert [e for e in ev if e["type"] == "unit_healed"][0]["figures_gained"] == 2
    st = ordered("0@0: .:i\n6@10: Y:I", [(6, 10)], key=("probe", 1), legend=legend)
    st.mut(uid(st, (6, 10))).figures = 1
    st = to_battle(st)
    st, _ = act(st, "heal", unit=uid(st, (6, 10)))
    assert st.pending["dice"] == 6
    st, _ = roll(st, "star", "flag", "armor", "grenade", "flag", "flag")
    assert unit(st, (6, 10)).figures == 2
    # full strength, or next to an enemy: no heal
    st = to_battle(ordered("0@0: .:i\n6@10: Y:I", [(6, 10)], key=("probe", 1), legend=legend))
    assert "heal" not in types(st)
    st = ordered("5@11: .:i\n6@10: Y:I", [(6, 10)], key=("probe", 1), legend=legend)
    st.mut(uid(st, (6, 10))).figures = 2
    st = to_battle(st)
    assert "heal" not in types(st)


def test_bridge_demolition_blowbridge_opt2_two_dice_star_destroys_one_medal():
    from engine import view_for
    from engine.procedures.common import terrain_at
    from tests.engine.rulehelp import roll, types

    legend = {
        "D": {
            "slot": "rect_terrain",
            "name": "bridge",
            "behavior": "CAN_BE_BLOWN",
            "behavior2": "ONE_MEDAL_IF_BLOWN",
        }
    }
    text = "0@0: .:i\n5@11: RD\n6@10: .:I"
    st = to_battle(ordered(text, [(6, 10)], key=("probe", 1), legend=legend))
    assert "blow_bridge" not in types(st)  # option off
    st = to_battle(
        ordered(
            text,
            [(6, 10)],
            key=("probe", 1),
            legend=legend,
            game_info={"options": {"blowbridge_opt2": True}},
        )
    )
    acts = legal(st, "blow_bridge")
    assert [a["hex"] for a in acts] == [[5, 11]]
    st, _ = act(st, "blow_bridge", unit=uid(st, (6, 10)), hex=[5, 11])
    assert st.pending["for"] == "blow_bridge" and st.pending["dice"] == 2
    medals = view_for(st, None)["sides"]["ALLIES"]["medals"]
    st, ev = roll(st, "flag", "star")
    assert not terrain_at(st, (5, 11)).bridge
    assert {"type": "medal_gained", "side": "ALLIES", "reason": "bridge_blown", "count": 1} in ev
    assert view_for(st, None)["sides"]["ALLIES"]["medals"] == medals + 1


# ============================================================== destroyer, boats, trains
def test_destroyer_may_not_end_its_move_next_to_a_beach_hex():
    from engine.procedures.movement import reachable
    from tests.engine.rulehelp import unit

    st = ordered(
        "0@0: .:i\n4@10: b b b", [(7, 11)], key=("probe", 1), units={(7, 11): "pdestroyer"}
    )
    dest = reachable(st, unit(st, (7, 11)), st.play)
    assert (6, 10) in dest and (5, 11) not in dest and (5, 13) not in dest
    assert unit(st, (7, 11)).spec.hit_by == frozenset({"grenade"})


def test_boat_enters_river_stops_fires_minus_one_flags_hit_loses_boat_on_land():
    from engine.procedures.movement import reachable
    from tests.engine.rulehelp import do, roll, unit

    boat = {"name": "infus", "equipment": "boat"}
    text = "0@0: .:i\n6@12: R R R"
    st = ordered(text, [(5, 13)], key=("probe", 1), units={(5, 13): boat})
    dest = reachable(st, unit(st, (5, 13)), st.play)
    assert (6, 14) in dest and (7, 15) not in dest  # must stop entering the river
    st = ordered(text, [(6, 14)], key=("probe", 1), units={(6, 14): boat})
    dest = reachable(st, unit(st, (6, 14)), st.play)
    assert (6, 16) in dest and (6, 12) in dest and (5, 15) in dest  # along it, or ashore
    st2, ev = act(st, "move", unit=uid(st, (6, 14)), to=[5, 15])
    assert "boat_lost" in [e["type"] for e in ev] and unit(st2, (5, 15)).spec.equipment is None
    # fires at -1 from the river
    st = to_battle(
        ordered("5@13: .:i\n6@12: R R R", [(6, 14)], key=("probe", 1), units={(6, 14): boat})
    )
    assert battle_dice_vs(st, (6, 14), (5, 13)) == 2
    # every flag against it on the river is a hit
    st = ordered(
        "0@0: .:i\n5@13: .:I\n6@12: R R R",
        [(5, 13)],
        key=("probe", 1),
        units={(6, 14): {**boat, "name": "infger"}},
    )
    st = to_battle(st)
    v = st.occ[(6, 14)]
    st = do(st, "battle", unit=uid(st, (5, 13)), target=[6, 14])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, *(["flag", "flag"] + ["armor"] * (st.pending["dice"] - 2)))
    hit = [e for e in ev if e["type"] == "dice_rolled"][0]
    assert hit["hits"] == 2 and hit["flags"] == 0 and st.units[v].figures == 2


def test_train_moves_along_rails_only_retreats_along_the_rail_hit_only_by_grenades():
    from engine.procedures.battle_outcome import retreat_options
    from engine.procedures.movement import reachable
    from tests.engine.rulehelp import unit

    st = ordered(
        "0@0: .:i\n6@8: Z Z Z Z Z",
        [(6, 10)],
        key=("probe", 1),
        legend={"Z": "rail"},
        units={(6, 10): "loco"},
    )
    u = unit(st, (6, 10))
    assert sorted(reachable(st, u, st.play)) == [(6, 8), (6, 12), (6, 14), (6, 16)]
    assert u.spec.hit_by == frozenset({"grenade"})
    assert retreat_options(st, u, 1, True) == [{"to": [6, 10], "losses": 1, "ignore": 0}]
    # a diagonal rail (4,10)-(5,11)-(6,12): the Axis wagon retreats up the rail only
    from tests.engine.rulehelp import game

    st = game(
        "0@0: .:i\n4@10: Z3\n5@11: Z3\n6@12: Z3", legend={"Z": "rail"}, units={(5, 11): "wagonger"}
    )
    w = unit(st, (5, 11))
    assert w.side == "AXIS" and w.spec.medal_value == 0
    assert [x["to"] for x in retreat_options(st, w, 1, True)] == [[4, 10]]  # not (4,12)
