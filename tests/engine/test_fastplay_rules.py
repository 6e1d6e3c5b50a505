"""Fast Play '44 (rules text 000), one test per numbered rule; boards drawn as text,
dice supplied.  Row 0 is the Axis edge (top), row 8 the Allied edge; the Allies play
first."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from tests.engine.fphelp import (
    FP,
    act,
    battle,
    do,
    ev,
    game,
    legal,
    marker,
    move,
    order,
    roll,
    supp,
    unit_types,
    types,
    uid,
    unit,
)

DUEL = """
4@8: .:i
6@8: .:I
"""


# -- 1-3 Command ------------------------------------------------------------------------
def test_1_1_command_points_equal_the_scenario_cards():
    st = game(DUEL, cards=(3, 5))
    assert st.ext["cp"] == 5 and FP.view_for(st, None)["sides"]["AXIS"]["cp_per_turn"] == 3


@pytest.mark.parametrize(
    "info, expected",
    [
        ({"country_player2": "RU"}, 3),  # 12.1a Red Army -1
        ({"country_player2": "US", "options": {"gung_ho": True}}, 5),  # 12.2a Marines +1
    ],
)
def test_2_1_command_points_change_like_the_hand(info, expected):
    st = game(DUEL, game_info=info)
    assert st.ext["cp"] == expected


def test_12_4a_italian_command_points_fall_per_unit_lost_to_three():
    st = game(
        """
4@8: .:I
5@7: .:i3
6@8: .:I
""",
        cards=(5, 4),
        game_info={"country_player1": "IT"},
    )
    st = order(st, (6, 8))
    st = battle(st, (6, 8), (5, 7), assault=True)
    st = do(st, "hold_fire")
    st, _ = roll(st, "inf", "inf", "inf")  # 3 dice: eliminated
    assert unit(st, (5, 7)).side == "ALLIES"  # took ground (5.7e)
    st = do(st, "end_turn")
    assert st.active == "AXIS" and st.ext["cp"] == 4  # 5 - 1 lost
    from engine.rulesets.fastplay.command import command_points

    assert command_points(st, "AXIS") >= 3


def test_2_2_units_are_ordered_anywhere_no_sections():
    st = game("""
6@0: .:I
6@24: .:I
6@12: .:I
""")
    for h in ((6, 0), (6, 24), (6, 12)):
        assert "move" in unit_types(st, h)


def test_2_3_turn_passes_when_cp_are_spent():
    st = game(DUEL, cards=(4, 1))
    st = order(st, (6, 8))
    st, events = act(st, "opfire_marker", unit=uid(st, (6, 8)))
    assert st.active == "AXIS" and ev(events, "turn_started")[0]["side"] == "AXIS"


def test_2_3_turn_passes_when_no_unit_can_be_ordered():
    st = game(DUEL, cards=(4, 6), spare=False)
    st = order(st, (6, 8))
    st, events = act(st, "opfire_marker", unit=uid(st, (6, 8)))
    assert st.active == "AXIS"
    assert ev(events, "command_points_lost")[0]["cp"] == 5


def test_2_4_unspent_command_points_are_lost():
    st = game(DUEL)
    st, events = act(st, "end_turn")
    assert ev(events, "command_points_lost")[0]["cp"] == 4
    st = do(st, "end_turn")
    assert st.active == "ALLIES" and st.ext["cp"] == 4


def test_3_1_an_order_costs_one_cp():
    st, events = move(game(DUEL), (6, 8), (6, 6))
    assert st.ext["cp"] == 3 and st.ext["current"] == uid(st, (6, 6))
    assert ev(events, "unit_ordered")[0]["cp"] == 3


def test_3_2_a_unit_is_ordered_once_per_turn():
    st = game(DUEL + "6@12: .:I\n")
    st, _ = move(st, (6, 8), (6, 6))
    st, _ = move(st, (6, 12), (6, 14))
    assert unit_types(st, (6, 6)) == set()
    with pytest.raises(IllegalAction) as e:
        battle(st, (6, 6), (4, 8))
    assert e.value.code == "unit_already_ordered"


def test_3_3_units_are_ordered_and_used_one_at_a_time():
    st = game(DUEL + "6@12: .:I\n")
    st, _ = move(st, (6, 8), (6, 6))
    assert "battle" in unit_types(st, (6, 6))
    st, _ = move(st, (6, 12), (6, 14))  # ordering another ends the first
    assert st.ext["current"] == uid(st, (6, 14)) and "battle" not in unit_types(st, (6, 6))


def test_3_4_an_ordered_unit_may_move_battle_or_take_an_opfire_marker():
    st = order(game(DUEL), (6, 8))
    assert {"move", "battle", "opfire_marker"} <= types(st)


# -- 4 Move -----------------------------------------------------------------------------
def test_4_1_standard_movement_costs_and_restrictions():
    st = order(
        game("""
4@8: .:i
5@7: W
6@8: .:I
"""),
        (6, 8),
    )
    dests = {tuple(a["to"]) for a in legal(st, "move")}
    assert (5, 7) in dests and (4, 6) not in dests  # woods stop the move
    assert (4, 10) in dests and (2, 8) not in dests  # infantry moves 2


def test_4_2_opportunity_fire_interrupts_the_move_hex_by_hex():
    st = game(
        """
2@8: .:i
6@8: .:I
""",
        cards=(4, 1),
    )
    st = do(st, "end_turn")  # Allies pass
    st = marker(st, (2, 8))
    st = do(st, "end_turn")  # Axis ends: Allies move into range
    st = order(st, (6, 8))
    st, events = move(st, (6, 8), (4, 8))
    p = st.pending
    assert p["type"] == "opportunity_fire" and p["seat"] == "AXIS"
    assert tuple(p["hex"]) in ((5, 7), (5, 9))  # the first hex in range
    st = do(st, "hold_fire")
    assert st.pending["type"] == "opportunity_fire" and tuple(st.pending["hex"]) == (4, 8)
    st = do(st, "opportunity_fire", unit=uid(st, (2, 8)), target=[4, 8])
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2
    st, _ = roll(st, "grenade", "star")  # 5.6c: suppressed, not hit
    assert supp(st, (4, 8)) == 1 and unit(st, (4, 8)).figures == 4
    assert st.ext["opfire"] == []  # 6.5 the marker is spent


def test_4_2_the_mover_goes_on_when_it_survives_unsuppressed():
    st = game(
        """
2@8: .:i
6@8: .:I
""",
        cards=(4, 1),
    )
    st = do(st, "end_turn")
    st = order(st, (2, 8))
    st = do(st, "opfire_marker", unit=uid(st, (2, 8)))
    st = do(st, "end_turn")
    st = order(st, (6, 8))
    st, _ = move(st, (6, 8), (4, 8))
    hex1 = tuple(st.pending["hex"])
    st = do(st, "opportunity_fire", unit=uid(st, (2, 8)), target=list(hex1))
    st, events = roll(st, "star")  # a miss at range 3 (1 die)
    assert (4, 8) in st.occ and unit(st, (4, 8)).side == "ALLIES"


def test_4_3_a_unit_battles_right_after_moving():
    st = order(game(DUEL), (6, 8))
    st, _ = move(st, (6, 8), (5, 7))
    assert [tuple(a["target"]) for a in legal(st, "battle")] == [(4, 8), (4, 8)]


# -- 5 Battle ---------------------------------------------------------------------------
def test_5_1_a_unit_battles_once_per_turn():
    st = order(game(DUEL, cards=(4, 2)), (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "star", "star")
    st = do(st, "no_defensive_fire")
    assert "battle" not in types(st)


def test_5_4_an_adjacent_unit_must_battle_an_adjacent_enemy():
    st = order(
        game("""
3@9: .:i
5@7: .:i
6@8: .:I
"""),
        (6, 8),
    )
    assert {tuple(a["target"]) for a in legal(st, "battle")} == {(5, 7)}


def test_5_6a_ranged_dice_and_terrain_as_standard():
    st = order(
        game("""
4@8: W:i
6@8: .:I
"""),
        (6, 8),
    )
    st = battle(st, (6, 8), (4, 8))
    assert st.pending["dice"] == 1  # 2 at range 2, woods -1


def test_5_6b_5_6c_ranged_fire_at_an_adjacent_unit_grenades_suppress():
    st = order(
        game("""
5@7: .:i
6@8: .:I
"""),
        (6, 8),
    )
    st = battle(st, (6, 8), (5, 7), assault=False)
    st, events = roll(st, "grenade", "inf", "star")
    assert unit(st, (5, 7)).figures == 3 and supp(st, (5, 7)) == 1
    assert ev(events, "suppression")[0]["level"] == 1


def test_5_6d_a_flag_may_withdraw_a_unit_off_the_board():
    st = order(
        game("""
0@8: .:i
2@8: .:I
"""),
        (2, 8),
    )
    st = battle(st, (2, 8), (0, 8))
    st, _ = roll(st, "flag", "star")
    assert st.pending["type"] == "retreat" and st.pending["seat"] == "AXIS"
    assert "withdraw" in types(st)
    st, events = act(st, "withdraw", unit=uid(st, (0, 8)))
    assert ev(events, "unit_withdrawn") and st.elim_medals["ALLIES"] == 0


def test_5_6d_or_the_flag_is_a_hit():
    st = order(
        game("""
0@8: .:i
2@8: .:I
"""),
        (2, 8),
    )
    st = battle(st, (2, 8), (0, 8))
    st, _ = roll(st, "flag", "star")
    keep = [a for a in legal(st, "retreat")]
    assert keep and keep[0]["to"] == [0, 8]
    st = do(st, "retreat", unit=uid(st, (0, 8)), to=[0, 8], ignore=0)
    assert unit(st, (0, 8)).figures == 3


def test_5_6e_ranged_combat_may_take_ground():
    st = order(
        game("""
5@7: .:i1
6@8: .:I
"""),
        (6, 8),
    )
    st = battle(st, (6, 8), (5, 7))
    st, _ = roll(st, "inf", "star", "star")
    assert st.pending["type"] == "take_ground"
    st = do(st, "take_ground", take=False)
    assert (6, 8) in st.occ and (5, 7) not in st.occ


def test_5_6f_defensive_fire_after_the_hits():
    st = order(game(DUEL), (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "inf", "star")
    assert st.pending["type"] == "defensive_fire" and st.pending["seat"] == "AXIS"
    st = do(st, "defensive_fire", unit=uid(st, (4, 8)), target=[6, 8])
    assert st.pending["dice"] == 2
    st, events = roll(st, "inf", "grenade")
    assert unit(st, (6, 8)).figures == 3 and supp(st, (6, 8)) == 1
    assert unit(st, (4, 8)).battles == 1  # 7.6 marked as battled


def test_5_7a_the_assaulted_unit_fires_first():
    st = order(
        game("""
5@7: .:i
6@8: .:I
"""),
        (6, 8),
    )
    st = battle(st, (6, 8), (5, 7), assault=True)
    assert st.pending["type"] == "assault_fire" and st.pending["seat"] == "AXIS"
    assert {"defensive_fire", "hold_fire"} <= types(st)
    st = do(st, "defensive_fire", unit=uid(st, (5, 7)), target=[6, 8])
    st, _ = roll(st, "star", "star", "star")
    assert st.pending["type"] == "roll" and st.pending["for"] == "battle"  # 5.7b


def test_5_7b_a_suppressed_assaulter_does_not_assault():
    st = order(
        game("""
5@7: .:i
6@8: .:I
"""),
        (6, 8),
    )
    st = battle(st, (6, 8), (5, 7), assault=True)
    st = do(st, "defensive_fire", unit=uid(st, (5, 7)), target=[6, 8])
    st, events = roll(st, "grenade", "star", "star")
    assert ev(events, "battle_cancelled") and st.pending["type"] == "command"


def test_5_7a_no_fire_first_from_a_suppressed_or_battled_target():
    st = order(
        game("""
5@7: .:i
6@8: .:I
6@4: .:I
"""),
        (6, 4),
    )
    st = battle(st, (6, 4), (5, 7))
    st, _ = roll(st, "grenade", "star")
    st = order(st, (6, 8))
    st = battle(st, (6, 8), (5, 7), assault=True)
    assert st.pending["type"] == "roll"


def test_5_7c_5_7e_5_8f_assault_grenades_hit_take_ground_suppresses_retreater():
    st = order(
        game("""
5@7: .:i
6@8: .:I
"""),
        (6, 8),
    )
    st = battle(st, (6, 8), (5, 7), assault=True)
    st = do(st, "hold_fire")
    st, events = roll(st, "grenade", "flag", "star")
    assert ev(events, "unit_hit")[0]["figures_lost"] == 1  # 5.7c grenade = hit
    assert st.pending["type"] == "retreat" and st.pending["seat"] == "AXIS"
    st, events = act(st, "retreat", unit=st.pending["unit"], to=[4, 6], ignore=0)
    v = unit(st, (4, 6))
    assert v.figures == 3 and st.ext["supp"][v.id] == 2  # 5.8f two levels
    assert unit(st, (5, 7)).side == "ALLIES" and ev(events, "ground_taken")  # 5.7e


# -- 6 Opportunity fire -----------------------------------------------------------------
def test_6_1_6_3_a_unit_that_moved_may_take_an_opfire_marker():
    st = order(game(DUEL), (6, 8))
    st, _ = move(st, (6, 8), (6, 6))
    st = do(st, "opfire_marker", unit=uid(st, (6, 6)))
    assert uid(st, (6, 6)) in st.ext["opfire"] and "battle" not in types(st)


def test_6_2_a_support_weapon_that_moved_takes_no_marker():
    from dataclasses import replace

    st = game(DUEL)
    mg = st.mut(uid(st, (6, 8)))
    mg.spec = replace(mg.spec, kind="machine_gun")  # a 004 support weapon (SWA)
    st, _ = move(st, (6, 8), (6, 6))
    assert "battle" in unit_types(st, (6, 6)) and "opfire_marker" not in unit_types(st, (6, 6))
    st2 = game(DUEL)
    st2, _ = move(st2, (6, 8), (6, 6))
    assert "opfire_marker" in unit_types(st2, (6, 6))  # 6.3: any other unit may


def test_6_4_a_suppressed_unit_loses_its_opfire_marker():
    st = game(
        """
4@8: .:i
6@8: .:I
6@4: .:I
""",
        cards=(4, 4),
    )
    st = do(st, "end_turn")
    st = order(st, (4, 8))
    st = do(st, "opfire_marker", unit=uid(st, (4, 8)))
    st = do(st, "end_turn")
    st = order(st, (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, events = roll(st, "grenade", "star")
    assert st.ext["opfire"] == [] and ev(events, "opfire_marker")[0]["reason"] == "suppressed"


def test_6_5_after_opfire_the_unit_may_still_defensive_fire():
    st = game(
        """
2@8: .:i
6@8: .:I
""",
        cards=(4, 4),
    )
    st = do(st, "end_turn")
    st = marker(st, (2, 8))
    st = do(st, "end_turn")
    st = order(st, (6, 8))
    st, _ = move(st, (6, 8), (5, 7))
    st = do(st, "opportunity_fire", unit=uid(st, (2, 8)), target=[5, 7])
    st, _ = roll(st, "star")
    assert st.ext["opfire"] == [] and unit(st, (2, 8)).battles == 0
    st = battle(st, (5, 7), (2, 8))
    st, _ = roll(st, "star")
    assert st.pending["type"] == "defensive_fire"


def test_6_6_opfire_at_an_adjacent_unit_is_ranged_combat():
    st = game(
        """
3@7: .:i
5@7: .:I
""",
        cards=(4, 4),
    )
    st = do(st, "end_turn")
    st = order(st, (3, 7))
    st = do(st, "opfire_marker", unit=uid(st, (3, 7)))
    st = do(st, "end_turn")
    st = order(st, (5, 7))
    st, _ = move(st, (5, 7), (4, 6))
    st = do(st, "opportunity_fire", unit=uid(st, (3, 7)), target=[4, 6])
    st, _ = roll(st, "grenade", "grenade", "star")
    assert supp(st, (4, 6)) == 2 and unit(st, (4, 6)).figures == 4


# -- 7 Defensive fire -------------------------------------------------------------------
def test_7_1_defensive_fire_once_per_turn():
    st = order(game(DUEL + "6@12: .:I\n"), (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "star", "star")
    st = do(st, "defensive_fire", unit=uid(st, (4, 8)), target=[6, 8])
    st, _ = roll(st, "star", "star")
    st = order(st, (6, 12))
    st = battle(st, (6, 12), (4, 8))
    st, _ = roll(st, "star")
    assert st.pending["type"] == "command"


def test_7_2_defensive_fire_is_never_compulsory():
    st = order(game(DUEL), (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "star", "star")
    st, events = act(st, "no_defensive_fire")
    assert ev(events, "fire_held") and unit(st, (4, 8)).battles == 0


def test_7_5_no_defensive_fire_after_a_retreat():
    st = order(game(DUEL), (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "flag", "star")
    assert st.pending["type"] == "retreat"
    st = do(st, "retreat", unit=st.pending["unit"], to=[3, 7], ignore=0)
    assert st.pending["type"] == "command" and unit(st, (3, 7)).battles == 0


def test_7_7_defensive_fire_is_at_the_attacker_even_with_an_enemy_adjacent():
    st = order(
        game("""
4@8: .:i
5@9: .:I
4@2: .:I
"""),
        (4, 2),
    )
    st = battle(st, (4, 2), (4, 8))
    st, _ = roll(st, "star")
    assert st.pending["type"] == "defensive_fire"
    assert [a["target"] for a in legal(st, "defensive_fire")] == [[4, 2]]


# -- 8 Suppression ----------------------------------------------------------------------
def test_8_2_8_3_two_levels_then_grenades_are_hits():
    st = order(game(DUEL), (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "grenade", "grenade")
    assert supp(st, (4, 8)) == 2
    st2 = order(
        game("""
4@8: .:i
6@8: .:I
6@10: .:I
"""),
        (6, 8),
    )
    st2 = battle(st2, (6, 8), (4, 8))
    st2, _ = roll(st2, "grenade", "grenade")
    st2 = order(st2, (6, 10))
    st2 = battle(st2, (6, 10), (4, 8))
    st2, events = roll(st2, "grenade", "star")
    assert unit(st2, (4, 8)).figures == 3 and supp(st2, (4, 8)) == 2


def test_8_4_8_5_a_suppressed_unit_neither_battles_nor_moves_but_rallies():
    st = game(DUEL, cards=(4, 4))
    st = order(st, (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "grenade", "grenade")
    st = do(st, "end_turn")  # Axis turn: 8.7 one level off -> 1
    assert st.active == "AXIS" and supp(st, (4, 8)) == 1
    st = order(st, (4, 8))
    assert unit_types(st, (4, 8)) == {"rally"}
    rally = legal(st, "rally")
    assert {tuple(a["to"])[0] for a in rally} == {2}  # full allowance (2) back
    st, events = act(st, "rally", unit=uid(st, (4, 8)), to=rally[0]["to"])
    moved = unit(st, tuple(rally[0]["to"]))
    assert st.ext["supp"].get(moved.id, 0) == 0  # 8.6 rallied


def test_8_5_rally_ignores_terrain_but_not_impassable():
    st = game(
        """
3@7: L
3@9: L
4@8: .:i
6@8: .:I
""",
        cards=(4, 4),
    )
    st = order(st, (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "grenade", "grenade")
    st = do(st, "end_turn")
    st = order(st, (4, 8))
    assert all(tuple(a["to"]) not in ((3, 7), (3, 9)) for a in legal(st, "rally"))


def test_8_7_one_level_removed_at_the_start_of_the_owners_turn():
    st = order(game(DUEL), (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "grenade", "grenade")
    st, events = act(st, "end_turn")
    assert supp(st, (4, 8)) == 1 and ev(events, "suppression")[0]["reason"] == "turn_start"


# -- 9 Withdrawal / 11 Endgame ----------------------------------------------------------
def test_9_3_withdrawal_by_spending_a_cp_no_medal():
    st = game("""
4@8: .:i
7@7: .:I
7@11: .:I
""")
    st = order(st, (7, 7))
    st, events = act(st, "withdraw", unit=uid(st, (7, 7)))
    assert ev(events, "unit_withdrawn") and st.elim_medals["AXIS"] == 0
    assert st.ext["withdrawn"]["ALLIES"] == 1


def test_11_1_a_side_that_withdrew_all_its_units_loses_at_the_full_count():
    st = game(
        """
4@8: .:i
7@7: .:I
""",
        victory=(4, 4),
        spare=False,
    )
    st = order(st, (7, 7))
    st, events = act(st, "withdraw", unit=uid(st, (7, 7)))
    assert st.game_over and st.winner == "AXIS" and st.medals("AXIS") == 4


# -- 10 Artillery -----------------------------------------------------------------------
def test_10_2_flags_against_artillery_are_hits():
    st = order(
        game("""
4@8: .:g
6@8: .:I
"""),
        (6, 8),
    )
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "flag", "inf")
    assert unit(st, (4, 8)).figures == 1


def test_10_3_grenades_suppress_artillery_and_suppressed_artillery_cannot_fire():
    st = order(
        game(
            """
4@8: .:g
6@8: .:I
""",
            cards=(4, 4),
        ),
        (6, 8),
    )
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "grenade", "grenade")
    assert unit(st, (4, 8)).figures == 2 and supp(st, (4, 8)) == 2
    st = do(st, "end_turn")
    st = order(st, (4, 8))
    assert "battle" not in types(st) and "rally" in types(st)


def test_10_4_rallied_artillery_defends_as_infantry():
    st = game(
        """
4@8: .:g
6@8: .:I
""",
        cards=(4, 4),
    )
    st = order(st, (6, 8))
    st = battle(st, (6, 8), (4, 8))
    st, _ = roll(st, "grenade", "grenade")
    st = do(st, "end_turn")
    st = order(st, (4, 8))
    st = do(st, "rally", **{k: v for k, v in legal(st, "rally")[0].items() if k in ("unit", "to")})
    gun = st.units[st.ext["towed"][0]]
    st = do(st, "end_turn")
    st = order(st, (6, 8))
    st, _ = move(st, (6, 8), (gun.hex[0] + 2, gun.hex[1]))
    st = battle(st, (gun.hex[0] + 2, gun.hex[1]), gun.hex)
    st, _ = roll(st, "star", "star")
    st = do(st, "defensive_fire", unit=gun.id, target=[gun.hex[0] + 2, gun.hex[1]])
    assert st.pending["dice"] == 2  # infantry dice at range 2, not 3


# -- 12 Nations -------------------------------------------------------------------------
def test_12_3_british_battle_back_then_defensive_fire():
    st = game(
        """
5@7: .:i
6@8: .:I1
""",
        nations={"AXIS": "ger", "ALLIES": "brit"},
    )
    st = do(st, "end_turn")
    st = order(st, (5, 7))
    st = battle(st, (5, 7), (6, 8))
    st, _ = roll(st, "star", "star", "star")
    assert st.pending["type"] == "battle_back" and st.pending["seat"] == "ALLIES"
    st = do(st, "battle_back", unit=uid(st, (6, 8)))
    st, _ = roll(st, "star")
    assert st.pending["type"] == "defensive_fire"  # 12.3a: does not replace it


def test_12_5_french_second_assault():
    st = order(
        game(
            """
5@7: .:i
6@8: .:I
""",
            game_info={"country_player2": "FR"},
        ),
        (6, 8),
    )
    st = battle(st, (6, 8), (5, 7), assault=True)
    st = do(st, "hold_fire")
    st, _ = roll(st, "star", "star", "star")
    assert st.pending["type"] == "second_assault"
    st = do(st, "second_assault", unit=uid(st, (6, 8)))
    assert st.pending["type"] == "roll"  # 12.5b: no fire first


# -- optional rules of the thread's reply -----------------------------------------------
def test_option_dig_in_as_a_cp_order():
    st = order(game(DUEL, options={"dig_in": True}), (6, 8))
    st, events = act(st, "dig_in", unit=uid(st, (6, 8)))
    assert ev(events, "terrain_changed")[0]["added"] == "sandbag"


CARD = {
    "their_finest_hour": 0,
    "behind_enemy_lines": 1,
    "infantry_assault": 2,
    "armor_assault": 4,
    "close_assault": 5,
    "barrage": 6,
    "artillery_bombard": 7,
    "air_power": 8,
    "medics": 9,
}


def cards_game(text=DUEL, hand=(), **kw):
    st = game(text, options={"command_cards": True}, **kw)
    st.hands["ALLIES"] = [CARD[k] for k in hand]
    return st


def test_option_command_cards_three_each_the_hand_hidden():
    st = game(DUEL, options={"command_cards": True})
    assert len(st.hands["AXIS"]) == len(st.hands["ALLIES"]) == 3 and len(st.deck) == 4
    mine, theirs = FP.view_for(st, "ALLIES")["sides"], FP.view_for(st, None)["sides"]
    assert len(mine["ALLIES"]["hand"]) == 3 and "hand" not in mine["AXIS"]
    assert "hand" not in theirs["ALLIES"] and theirs["ALLIES"]["hand_count"] == 3


def test_option_command_cards_barrage_costs_a_cp_once_per_turn():
    st = cards_game(hand=("barrage", "their_finest_hour"))
    st, events = act(st, "play_card", card=CARD["barrage"], target=[4, 8])
    assert st.ext["cp"] == 3 and st.pending["dice"] == 4 and st.pending["for"] == "barrage"
    st, events = roll(st, "grenade", "inf", "flag", "star")  # ranged: suppression, hit
    vid = ev(events, "dice_rolled")[0]["target_unit"]
    assert st.pending["type"] == "retreat" and not any(
        a.get("ignore") for a in legal(st, "retreat")
    )  # flags may not be ignored
    st = do(
        st,
        "retreat",
        **{k: v for k, v in legal(st, "retreat")[0].items() if k in ("unit", "to", "ignore")},
    )
    v = st.units[vid]
    assert v.figures == 3 and st.ext["supp"][v.id] == 1 and v.hex != (4, 8)
    assert not legal(st, "play_card")  # one card per turn


def test_option_command_cards_close_assault_adds_a_die():
    st = cards_game("5@7: .:i\n6@8: .:I\n", hand=("close_assault",))
    st = do(st, "play_card", card=CARD["close_assault"])
    st = battle(st, (6, 8), (5, 7), assault=True)
    st = do(st, "hold_fire")
    assert st.pending["dice"] == 4


def test_option_command_cards_their_finest_hour_and_medics():
    st = cards_game(hand=("their_finest_hour",))
    st = do(st, "play_card", card=CARD["their_finest_hour"])
    assert st.ext["cp"] == 6
    st = cards_game(hand=("medics",))
    st.mut(uid(st, (6, 8))).figures = 2  # a unit that lost 2 figures
    st = do(st, "play_card", card=CARD["medics"], unit=uid(st, (6, 8)))
    st, events = roll(st, "inf", "star", "grenade", "flag")
    assert unit(st, (6, 8)).figures == 4 and ev(events, "unit_healed")


def test_option_command_cards_artillery_bombard_battles_twice():
    st = cards_game("2@8: .:i\n6@8: .:G\n", hand=("artillery_bombard",))
    st = do(st, "play_card", card=CARD["artillery_bombard"])
    st = battle(st, (6, 8), (2, 8))
    st, _ = roll(st, *["star"] * st.pending["dice"])
    st = do(st, "no_defensive_fire") if st.pending["type"] == "defensive_fire" else st
    assert "battle" in unit_types(st, (6, 8))


def test_4_1_an_enemy_minefield_stops_the_move_and_is_rolled():
    from engine.procedures.state import Mine

    st = game(DUEL, tags={(5, 7): {"name": "tag3", "behavior": "MINE_FIELD", "side": "AXIS"}})
    assert st.mines[(5, 7)].side == "AXIS" and not st.mines[(5, 7)].revealed
    st.mines[(5, 7)] = Mine("AXIS", 2, False, False)
    st, events = move(st, (6, 8), (5, 7))
    assert ev(events, "mine_revealed")[0]["value"] == 2
    assert st.pending["type"] == "roll" and st.pending["for"] == "mine" and st.pending["dice"] == 2
    st, events = roll(st, "grenade", "flag")  # grenade hits, flag ignored
    assert unit(st, (5, 7)).figures == 3 and supp(st, (5, 7)) == 0
    assert "battle" in unit_types(st, (5, 7))
