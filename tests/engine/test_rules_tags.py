"""Hex tags with rules (vocabulary 3.1): camouflage (tag14/tag15).  Boards drawn as text,
chosen dice, the outcome the vocabulary states."""
from engine import view_for
from tests.engine.rulehelp import act, battle_dice_vs, game, legal, ordered, play, to_battle, uid

CAMO = {"name": "tag14"}


def test_camouflaged_unit_fired_at_only_from_an_adjacent_hex():
    st = to_battle(ordered("3@11: .:i\n4@14: .:I\n5@11: .:I", [(5, 11), (4, 14)],
                           key="direct_from_hq", tags={(3, 11): CAMO}))
    assert view_for(st, None)["camouflage"] == [[3, 11]]
    assert battle_dice_vs(st, (5, 11), (3, 11)) is None            # 2 hexes away
    st = to_battle(ordered("3@11: .:i\n4@12: .:I", [(4, 12)], tags={(3, 11): CAMO}))
    assert battle_dice_vs(st, (4, 12), (3, 11)) == 3               # adjacent
    st = to_battle(ordered("3@11: .:i\n5@11: .:I", [(5, 11)]))
    assert battle_dice_vs(st, (5, 11), (3, 11)) == 2               # no tag: normal


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
    st = do(st, "move", unit=uid(st, (5, 11)), to=[3, 11])     # 2 hexes into jungle
    assert st.phase != "battle" or battle_dice_vs(st, (3, 11), (2, 10)) is None
    st = ordered(text, [(5, 11)], key=("probe", 1))
    st = do(st, "move", unit=uid(st, (5, 11)), to=[4, 12])     # 1 hex into jungle
    assert battle_dice_vs(to_battle(st), (4, 12), (3, 13)) is not None
    st = ordered("2@10: .:i\n4@12: J:S", [(4, 12)], key=("probe", 1))
    st = do(st, "move", unit=uid(st, (4, 12)), to=[3, 11])
    assert battle_dice_vs(to_battle(st), (3, 11), (2, 10)) is not None    # left it: fine
    st = ordered("1@11: .:i\n3@11: J:S", [(3, 11)], key=("probe", 1))
    st = to_battle(st)
    assert battle_dice_vs(st, (3, 11), (1, 11)) is not None                # did not move


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
    assert hit["hits"] == 1                 # only the star
    st = ordered("4@10: Y:i\n5@11: .:I", [(5, 11)], key=("probe", 1), legend={"Y": "fortress"})
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, *(["inf", "grenade"] + ["star"] * (st.pending["dice"] - 2)))
    assert [e for e in ev if e["type"] == "dice_rolled"][0]["hits"] == 2   # infantry: normal
