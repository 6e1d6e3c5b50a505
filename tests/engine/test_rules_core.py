"""004 Main Rules not covered by a dedicated test elsewhere: one test per rule, on boards
drawn as text (engine/textboard.py), checking the outcome the rulebook states."""

import pytest

from engine import IllegalAction, new_game
from engine.procedures.medals import update_objectives
from engine.core.textboard import board_from_text
from tests.engine.rulehelp import (
    act,
    battle_dice_vs,
    do,
    game,
    legal,
    ordered,
    play,
    roll,
    uid,
    unit,
)


def coord(h):
    """(row, col) -> .m44 group coordinate (vocabulary 3.4) on a 9-row board."""
    r, c = h
    letter = chr(ord("a") + c // 2)
    return (letter.upper() if c % 2 == 0 else letter) + str(9 - r)


# ------------------------------------------------------------------ setting up
def test_hand_sizes_dealt_per_scenario():
    scn = board_from_text("0@0: .:i\n8@8: .:I", cards=(3, 6))
    st = new_game(scn, 1)
    assert len(st.hands["AXIS"]) == 3 and len(st.hands["ALLIES"]) == 6
    assert len(st.deck) == 60 - 9


# ------------------------------------------------------------------ moving
def test_move_one_unit_at_a_time():
    st = ordered("0@0: .:i\n6@8: .:I .:I", [(6, 8), (6, 10)], key=("attack", 1))
    st2, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    moved = [e["unit"] for e in ev if e["type"] == "unit_moved"]
    assert moved == [uid(st, (6, 10))] and unit(st2, (6, 8)) is not None


def test_all_moves_before_battles():
    st = ordered("4@8: .:i\n4@14: .:i\n5@9: .:I\n6@12: .:I", [(5, 9), (6, 12)], key=("attack", 1))
    assert legal(st, "move")
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (5, 9)), target=[4, 8])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "star", "star", "star")
    assert st.phase == "battle" and not legal(st, "move")
    with pytest.raises(IllegalAction) as e:
        act(st, "move", unit=uid(st, (6, 12)), to=[5, 13])
    assert e.value.code == "wrong_phase"


def test_one_order_per_unit_even_with_orders_left():
    st = game("0@0: .:i\n6@10: .:I\n6@12: .:I", hand=[("attack", 1)])
    st = play(st, "attack", 1)
    st = do(st, "order", unit=uid(st, (6, 10)))
    with pytest.raises(IllegalAction) as e:
        act(st, "order", unit=uid(st, (6, 10)))
    assert e.value.code == "unit_already_ordered"


# ------------------------------------------------------------------ battle
def test_battle_one_unit_at_a_time():
    st = ordered("4@8: .:i\n4@12: .:i\n5@9: .:I\n5@13: .:I", [(5, 9), (5, 13)], key=("attack", 1))
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (5, 9)), target=[4, 8])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    assert st.pending["type"] == "roll"  # the first battle is resolved first
    with pytest.raises(IllegalAction):
        act(st, "battle", unit=uid(st, (5, 13)), target=[4, 12])
    st, _ = roll(st, "star", "star", "star")
    assert any(a["unit"] == uid(st, (5, 13)) for a in legal(st, "battle"))


def test_dice_by_range():
    st = ordered("3@11: .:i\n2@10: .\n6@10: .:I", [(6, 10)])
    st = do(st, "end_movement")
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 1  # infantry 3,2,1: range 3
    st = ordered("4@10: .:i\n6@10: .:I", [(6, 10)])
    st = do(st, "end_movement")
    assert battle_dice_vs(st, (6, 10), (4, 10)) == 2  # range 2
    st = ordered("3@11: .:i", [(6, 10)], units={(6, 10): "tankus"})
    st = do(st, "end_movement")
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 3  # armor 3,3,3
    st = ordered("1@11: .:i", [(6, 10)], units={(6, 10): "gunus"})
    st = do(st, "end_movement")
    assert battle_dice_vs(st, (6, 10), (1, 11)) == 1  # artillery 3,3,2,2,1,1: range 5


def test_terrain_dice_reductions_not_cumulative_highest_counts():
    # town (-1 vs infantry) + sandbag (-1 vs infantry): still -1
    st = ordered("4@10: TS:i\n5@11: .:I", [(5, 11)])
    st = do(st, "end_movement")
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 2
    # woods (-2 vs armor) + sandbag (-1): -2, the highest
    st = ordered("4@10: WS:i", [(5, 11)], key="armor_assault", units={(5, 11): "tankus"})
    st = do(st, "end_movement")
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 3 - 2 + 1  # +1 Armor Assault close assault


def test_retreat_toward_own_side_path_chosen_by_the_owner():
    st = ordered("3@11: .:i\n4@12: .:I", [(4, 12)])
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (4, 12)), target=[3, 11])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "flag", "star", "star")
    p = st.pending
    assert p["type"] == "retreat" and p["seat"] == "AXIS"  # the owner decides
    # toward the owner's side (AXIS: up), one hex per flag; the owner picks the hex
    assert sorted(o["to"] for o in p["options"]) == [[2, 10], [2, 12]]
    st = do(st, "retreat", unit=p["unit"], to=[2, 10], ignore=0)
    assert unit(st, (2, 10)) is not None


# ------------------------------------------------------------------ medals
def _occupy(st, h, side_hex):
    """Move the unit standing on ``side_hex`` to ``h`` (test setup) and re-evaluate."""
    u = st.mut(st.occ[side_hex])
    del st.occ[side_hex]
    u.hex = h
    st.occ[h] = u.id
    ev = []
    update_objectives(st, ev)
    return ev


def test_objective_medal_counts_for():
    st = game("0@0: .:i\n6@10: .:I", tags={(5, 11): {"name": "medal1", "medal": {"counts_for": 2}}})
    _occupy(st, (5, 11), (6, 10))
    assert st.medals("ALLIES") == 2


def test_objective_medal_permanent_once_taken():
    st = game(
        "0@0: .:i\n6@10: .:I", tags={(5, 11): {"name": "medal1", "medal": {"permanent": True}}}
    )
    _occupy(st, (5, 11), (6, 10))
    _occupy(st, (6, 10), (5, 11))
    assert st.medals("ALLIES") == 1


def test_objective_medal_nbr_hex_of_a_group():
    tag = {"name": "medal1", "group": [coord((5, 13))], "medal": {"nbr_hex": 2}}
    st = game("0@0: .:i\n6@10: .:I .:I", tags={(5, 11): tag})
    _occupy(st, (5, 11), (6, 10))
    assert st.medals("ALLIES") == 0  # one hex of two
    _occupy(st, (5, 13), (6, 12))
    assert st.medals("ALLIES") == 1


def test_objective_medal_majority():
    tag = {"name": "medal0", "group": [coord((5, 13)), coord((5, 15))], "medal": {"majority": True}}
    st = game("4@12: .:i\n6@10: .:I .:I", tags={(5, 11): tag})
    _occupy(st, (5, 11), (6, 10))
    _occupy(st, (5, 13), (4, 12))
    assert st.medals("ALLIES") == 0 and st.medals("AXIS") == 0  # 1 v 1: nobody
    _occupy(st, (5, 15), (6, 12))
    assert st.medals("ALLIES") == 1  # 2 v 1


def test_sudden_death_objective_wins_at_once():
    gi = {
        "victory": {
            "condition": [
                {"group_sudden_death": {"side": "ALLIES", "number": 1, "group": [coord((5, 11))]}}
            ]
        }
    }
    st = ordered("0@0: .:i\n6@10: .:I", [(6, 10)], game_info=gi)
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert st.game_over and st.winner == "ALLIES"


def test_victory_medal_count_reached_by_eliminations():
    st = ordered("4@10: .:i1\n0@0: .:i\n5@11: .:I", [(5, 11)], victory=(4, 1))
    st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, "inf", "star", "star")
    assert st.game_over and st.winner == "ALLIES" and st.medals("ALLIES") == 1
