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
