"""004 optional rules "Blitzkrieg Rules (Optional)" (option ``blitzkrieg``) and Appendix 3
"Army Manoeuvres": Restoring Order (option ``restoring_order``) and The Big Push (option
``big_push``).  Boards drawn as text, actions through legal_actions/apply."""

import pytest

from engine import EngineError, IllegalAction
from tests.engine.rulehelp import (
    act,
    do,
    game,
    legal,
    order_units,
    play,
    random_games,
    roll,
    uid,
    unit,
)


def moves(st, h):
    return sorted(tuple(a["to"]) for a in legal(st, "move") if a["unit"] == uid(st, h))


# ================================================================= Blitzkrieg (004)
AIR = "0@0: .:i\n2@4: .:i\n2@6: .:i\n2@8: .:i\n2@20: .:i\n8@12: .:I"


def test_blitzkrieg_air_attack_recon_as_air_power_first_target_in_section_one_die_per_hex():
    """ "The player may play a "Recon 1" card as an Air Power Tactic Card in that Section
    of the Battlefield. At least one target hex must be in that Section. Target a group of
    4 or fewer enemy Unit adjacent to each other. Individually roll 1 Battle Dice per hex
    against each enemy Unit.\""""
    st = game(AIR, hand=[("recon", 1)], options={"blitzkrieg": "ALLIES"})
    offered = legal(st, "play_card")
    assert {a.get("as") for a in offered} == {None, "air_power"}
    st = do(st, "play_card", card=offered[0]["card"], **{"as": "air_power"})
    assert st.phase == "target"
    # Recon Centre: the first target must stand in the centre section (cols 7..17)
    assert [a["hex"] for a in legal(st, "target")] == [[2, 8]]
    with pytest.raises(IllegalAction) as e:
        act(st, "target", hex=[2, 6])
    assert e.value.code == "illegal_target"
    st = do(st, "target", hex=[2, 8])
    assert [a["hex"] for a in legal(st, "target")] == [[2, 6]]  # adjacent only
    st = do(st, "target", hex=[2, 6])
    st = do(st, "target", hex=[2, 4])  # the chain may leave the section
    assert st.pending["type"] == "roll" and st.pending["dice"] == 1  # Allies: 1, not 2
    st, ev = roll(st, "star")
    assert st.pending["type"] == "roll" and st.pending["dice"] == 1  # next hex: 1 die


def test_blitzkrieg_air_attack_only_for_the_named_side():
    st = game(AIR, hand=[("recon", 1)], options={"blitzkrieg": "AXIS"})
    assert {a.get("as") for a in legal(st, "play_card")} == {None}
    with pytest.raises(IllegalAction) as e:
        act(st, "play_card", card=legal(st, "play_card")[0]["card"], **{"as": "air_power"})
    assert e.value.code == "card_not_playable"
    st = game(AIR, hand=[("recon", 1)])
    assert {a.get("as") for a in legal(st, "play_card")} == {None}
    # the Air Power card itself keeps its 2 dice per hex for the Allies
    st = game(AIR, hand=["air_power"], options={"blitzkrieg": "ALLIES"})
    st = play(st, "air_power")
    st = do(st, "target", hex=[2, 20])
    assert st.pending["dice"] == 2


def test_blitzkrieg_enemy_armour_moves_two_and_battles_own_armour_three():
    """ "An ordered Armour Unit may Move upto 3 hexes and Battle, while an ordered enemy
    Armour Unit may only Move upto 2 Hexes and Battle.\""""
    text = "0@0: .:i\n2@10: .:i\n6@10: .:A"
    for side, reach in (("AXIS", 2), ("ALLIES", 3), (None, 3)):
        opts = {"blitzkrieg": side} if side else None
        st = order_units(
            play(game(text, hand=["armor_assault"], options=opts), "armor_assault"), [(6, 10)]
        )
        assert max(6 - r for r, _ in moves(st, (6, 10))) == reach
    st = order_units(
        play(game(text, hand=["armor_assault"], options={"blitzkrieg": "AXIS"}), "armor_assault"),
        [(6, 10)],
    )
    st = do(st, "move", unit=uid(st, (6, 10)), to=[4, 10])  # 2 hexes, then battles
    assert st.phase == "battle"  # the only ordered unit moved
    assert [a["target"] for a in legal(st, "battle")] == [[2, 10]]


def test_blitzkrieg_option_value_is_a_side():
    for bad in (True, "BOTH", "x"):
        with pytest.raises(EngineError) as e:
            game(AIR, options={"blitzkrieg": bad})
        assert e.value.code == "invalid_option_value"
    assert game(AIR, options={"blitzkrieg": "axis"}).options == {"blitzkrieg": "AXIS"}


def test_blitzkrieg_random_games_replay_equals_live():
    random_games({"blitzkrieg": "AXIS"}, {"air_power"})


# ============================================================ Army Manoeuvres (004 App. 3)
RO = {"restoring_order": True}
BP = {"big_push": True}


def test_restoring_order_orders_every_unit_none_may_advance_toward_the_enemy():
    """ "He may order all his Units to Move, regardless of which Section they are in, but
    they may not advance towards the enemy." (Allies at the bottom: the enemy is up.)"""
    st = game("0@0: .:i\n6@2: .:I\n6@12: .:I\n6@22: .:A", hand=[("probe", 1)], options=RO)
    assert {"type": "restoring_order", "seat": "ALLIES"} in legal(st)
    st, ev = act(st, "restoring_order")
    assert ev[0]["type"] == "regrouping_declared"
    assert all(unit(st, h).ordered for h in ((6, 2), (6, 12), (6, 22)))  # every section
    for h in ((6, 2), (6, 12), (6, 22)):
        dests = moves(st, h)
        assert dests and min(r for r, _ in dests) == 6  # never a row nearer row 0
        assert (6, h[1] + 2) in dests or (6, h[1] - 2) in dests  # sideways is fine
    with pytest.raises(IllegalAction) as e:
        act(st, "move", unit=uid(st, (6, 12)), to=[5, 11])
    assert e.value.code == "illegal_move"
    st = do(st, "move", unit=uid(st, (6, 12)), to=[8, 12])  # back 2 rows


def test_restoring_order_no_exit_off_the_board():
    exit_tag = {(0, 10): {"name": "tag4", "behavior": "EXIT_MARKER", "side": "ALLIES"}}
    st = game("0@0: .:i\n1@11: .:I", hand=[("probe", 1)], options=RO, tags=exit_tag)
    st = do(st, "restoring_order")
    assert not legal(st, "exit")
    with pytest.raises(IllegalAction) as e:
        act(st, "exit", unit=uid(st, (1, 11)))
    assert e.value.code == "illegal_move"
    st = do(game("0@0: .:i\n1@11: .:I", hand=[("probe", 1)], options=BP, tags=exit_tag), "big_push")
    assert legal(st, "exit")  # The Big Push: leaving forward is advancing


def test_restoring_order_only_units_that_do_not_move_may_battle():
    text = "4@10: .:i\n4@14: .:i\n6@10: .:I\n6@14: .:I"
    st = do(game(text, hand=[("probe", 1)], options=RO), "restoring_order")
    st = do(st, "move", unit=uid(st, (6, 14)), to=[6, 16])
    st = do(st, "end_movement")
    assert {a["unit"] for a in legal(st, "battle")} == {uid(st, (6, 10))}
    with pytest.raises(IllegalAction) as e:
        act(st, "battle", unit=uid(st, (6, 16)), target=[4, 14])
    assert e.value.code == "unit_cannot_battle"


def test_restoring_order_once_per_game_no_card_played_none_drawn():
    """ "May only be used by each player once per game. Instead of playing a Command
    Card ..." (no card played: none drawn, the hand keeps its cards)."""
    from tests.engine.rulehelp import card_id

    st = game("0@0: .:i\n8@12: .:I", hand=[("probe", 1)], axis_hand=[("probe", 1)], options=RO)
    hand = list(st.hands["ALLIES"])
    st = do(st, "restoring_order")
    st = do(st, "end_movement") if st.phase == "move" else st
    if st.active == "ALLIES":
        st = do(st, "end_battles")
    assert st.active == "AXIS" and st.hands["ALLIES"] == hand
    assert {"type": "restoring_order", "seat": "AXIS"} in legal(st)  # his own use
    st = do(st, "play_card", card=card_id("probe", 1))
    while st.active == "AXIS":
        st = do(st, legal(st)[-1]["type"])
    assert not [a for a in legal(st) if a["type"] == "restoring_order"]
    with pytest.raises(IllegalAction) as e:
        act(st, "restoring_order")
    assert e.value.code == "card_not_playable"
    st = game("0@0: .:i\n8@12: .:I", hand=[("probe", 1)])  # option off
    assert not [a for a in legal(st) if a["type"] in ("restoring_order", "big_push")]
    with pytest.raises(IllegalAction):
        act(st, "big_push")


def test_big_push_every_unit_must_advance_at_least_one_hex():
    """ "Every Unit must advance at least one hex towards the enemy." A unit with no hex
    nearer the enemy (here: on the enemy's baseline) stays."""
    text = "0@10: .:i\n6@4: .:I\n6@16: .:A\n0@20: .:I"
    st = do(game(text, hand=[("probe", 1)], options=BP), "big_push")
    assert st.phase == "move" and not legal(st, "end_movement")
    assert moves(st, (0, 20)) == []
    assert all(r < 6 for r, _ in moves(st, (6, 4))) and moves(st, (6, 4))
    assert (
        all(r < 6 for r, _ in moves(st, (6, 16))) and max(6 - r for r, _ in moves(st, (6, 16))) == 3
    )
    with pytest.raises(IllegalAction) as e:
        act(st, "end_movement")
    assert e.value.code == "must_advance"
    with pytest.raises(IllegalAction):
        act(st, "move", unit=uid(st, (6, 4)), to=[6, 6])  # sideways: no
    st = do(st, "move", unit=uid(st, (6, 4)), to=[5, 5])
    assert not legal(st, "end_movement")  # the armour is left
    st = do(st, "move", unit=uid(st, (6, 16)), to=[4, 16])
    assert st.phase != "move"  # done: the unit on row 0 had nowhere to advance


def test_big_push_artillery_marches_one_hex_forward_or_battles_with_one_more_die():
    from tests.engine.rulehelp import battle_dice_vs

    text = "4@4: .:i\n7@3: .:G"
    st = do(game(text, hand=[("probe", 0)], options=BP), "big_push")
    assert moves(st, (7, 3)) == [(6, 2), (6, 4)]  # forward, 1 hex
    st = do(st, "end_movement")  # artillery not forced
    normal = order_units(play(game(text, hand=[("probe", 0)]), "probe", 0), [(7, 3)])
    normal = do(normal, "end_movement") if normal.phase == "move" else normal
    assert battle_dice_vs(st, (7, 3), (4, 4)) == battle_dice_vs(normal, (7, 3), (4, 4)) + 1


def _push_and_eliminate(text, frm, to):
    """Big Push: the unit on ``frm`` advances to ``to`` and eliminates the 1-figure
    infantry on 4@10."""
    st = do(game(text, hand=[("probe", 1)], options=BP), "big_push")
    st = do(st, "move", unit=uid(st, frm), to=list(to))
    st = do(st, "battle", unit=uid(st, to), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, "inf", "star", "star")[0]


def test_big_push_infantry_must_take_ground():
    st = _push_and_eliminate("0@0: .:i\n4@10: .:i1\n5@13: .:I", (5, 13), (4, 12))
    assert st.pending["type"] == "take_ground"
    assert legal(st) == [{"type": "take_ground", "seat": "ALLIES", "take": True}]
    with pytest.raises(IllegalAction) as e:
        act(st, "take_ground", take=False)
    assert e.value.code == "must_take_ground"


def test_big_push_armour_must_overrun():
    st = _push_and_eliminate("0@0: .:i\n4@10: .:i1\n3@9: .:i\n6@10: .:A", (6, 10), (5, 11))
    st = do(st, "take_ground", take=True)
    assert st.pending["type"] == "overrun"
    assert [a["type"] for a in legal(st)] == ["battle"]  # no pass
    with pytest.raises(IllegalAction) as e:
        act(st, "pass")
    assert e.value.code == "must_overrun"


def test_big_push_infantry_may_charge_after_marching_two_hexes():
    """ "Infantry Units must Infantry Charge ... if the opportunity presents itself": the
    charge (battle after marching 2 hexes into contact) is open without the option."""
    text = "3@9: .:i\n5@11: .:I"
    st = do(game(text, hand=[("probe", 1)], options=BP), "big_push")
    st = do(st, "move", unit=uid(st, (5, 11)), to=[3, 11])
    assert legal(st, "battle")
    st = order_units(play(game(text, hand=[("probe", 1)]), "probe", 1), [(5, 11)])
    st = do(st, "move", unit=uid(st, (5, 11)), to=[3, 11])
    assert st.active == "AXIS"  # normally no battle after 2 hexes


def test_army_manoeuvres_random_games_replay_equals_live():
    random_games({**RO, **BP}, {"restoring_order", "big_push"})
