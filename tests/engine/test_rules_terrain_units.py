"""Minefields, obstacles, terrain movement rules and the special units of Appendix 1
(004 "Minefields", "Obstacles", Appendix 1, Appendix 2; vocabulary 1.3, 2.3, 3.1), each on
a board drawn as text, checking the outcome the rulebook states."""

from engine import apply, new_game, view_for
from engine.rulesets.m44.game import MINE_POOL
from engine.core.textboard import board_from_text
from tests.engine.rulehelp import (
    act,
    battle_dice_vs,
    do,
    event_types,
    game,
    legal,
    ordered,
    play,
    roll,
    to_battle,
    uid,
    unit,
)

import pytest


def moves(st, h):
    return sorted(tuple(a["to"]) for a in legal(st, "move") if a["unit"] == uid(st, h))


def targets(st, h):
    return {tuple(a["target"]): a for a in legal(st, "battle") if a["unit"] == uid(st, h)}


ENGINEER = {"name": "infus", "badge": "badge6"}
MINE = {"name": "tag3", "behavior": "MINE_FIELD", "side": "AXIS"}


# ============================================================== minefields (004, vocab 3.1)
def test_minefield_values_drawn_from_the_pool_with_the_state_rng():
    hexes = [(0, 2 * k) for k in range(10)]
    scn = board_from_text("8@0: .:I\n0@20: .:i", tags={h: MINE for h in hexes})
    st = new_game(scn, 5)
    values = [st.mines[h].value for h in hexes]
    # 9 pieces 0,0,0,1,1,2,2,3,4 drawn without replacement; the 10th mine is a dud
    assert sorted(values[:9]) == sorted(MINE_POOL) and values[9] == 0
    assert [new_game(scn, 5).mines[h].value for h in hexes] == values  # seeded
    assert any([new_game(scn, s).mines[h].value for h in hexes] != values for s in range(6, 12))
    # hidden: no view shows an unrevealed value
    for seat in ("AXIS", "ALLIES", None):
        assert all(m["value"] is None for m in view_for(st, seat)["mines"])


def test_minefield_must_stop():
    st = ordered("0@0: .:i\n6@10: .:S", [(6, 10)], mines={(5, 11): ("AXIS", 1)})
    ms = moves(st, (6, 10))
    assert (5, 11) in ms and (4, 12) not in ms  # (4,12) only reachable through the mine


def test_minefield_revealed_on_enemy_entry_and_rolls_its_value():
    st = ordered("0@0: .:i\n6@10: .:I", [(6, 10)], mines={(5, 11): ("AXIS", 2)})
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert "mine_revealed" in event_types(ev)
    assert st.pending["type"] == "roll" and st.pending["dice"] == 2 and st.pending["for"] == "mine"
    assert view_for(st, None)["mines"] == [{"hex": [5, 11], "side": "AXIS", "value": 2}]
    st, ev = roll(st, "inf", "flag")  # infantry symbol hits; the flag is ignored
    assert unit(st, (5, 11)).figures == 3 and "unit_retreated" not in event_types(ev)
    assert st.mines[(5, 11)].revealed  # the minefield stays, value visible


def test_minefield_hits_on_unit_symbol_and_grenade_only():
    st = ordered(
        "0@0: .:i\n6@10: .:A", [(6, 10)], key="armor_assault", mines={(5, 11): ("AXIS", 4)}
    )
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    st, ev = roll(st, "inf", "armor", "grenade", "star")
    assert unit(st, (5, 11)).figures == 1  # armor symbol + grenade on a tank


def test_minefield_decoy_is_removed():
    st = ordered("0@0: .:i\n6@10: .:I", [(6, 10)], mines={(5, 11): ("AXIS", 0)})
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert "mine_removed" in event_types(ev) and (5, 11) not in st.mines
    assert st.pending is None or st.pending["type"] != "roll"


def test_decoy_medal_minefield_gives_a_medal_and_ends_the_other_decoys():
    st = ordered(
        "0@0: .:i\n6@10: .:I",
        [(6, 10)],
        mines={(5, 11): ("AXIS", 0, True), (2, 2): ("AXIS", 3, True)},
    )
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert st.medals("ALLIES") == 1 and not st.mines[(2, 2)].decoy


def test_friendly_minefield_stops_but_is_ignored():
    st = ordered("0@0: .:i\n6@10: .:S", [(6, 10)], mines={(5, 11): ("ALLIES", 3)})
    assert (4, 12) not in moves(st, (6, 10))  # must still stop
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert "mine_revealed" not in event_types(ev) and not st.mines[(5, 11)].revealed
    assert not (st.pending and st.pending["type"] == "roll")


def test_minefield_has_no_effect_on_retreat():
    st = ordered(
        "2@10: .:i\n3@11: .:I", [(3, 11)], mines={(1, 9): ("ALLIES", 4), (1, 11): ("ALLIES", 4)}
    )
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (3, 11)), target=[2, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, "flag", "star", "star")
    if st.pending and st.pending["type"] == "retreat":
        st, ev2 = act(st, "retreat", unit=st.pending["unit"], to=[1, 11], ignore=0)
        ev = ev + ev2
    assert "mine_revealed" not in event_types(ev)
    assert not any(m.revealed for m in st.mines.values())


def test_minefield_triggers_on_take_ground():
    st = ordered("0@0: .:i\n4@10: .:i1\n5@11: .:I", [(5, 11)], mines={(4, 10): ("AXIS", 1)})
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st = roll(st, "grenade", "star", "star")[0]
    st, ev = act(st, "take_ground", take=True)
    assert "mine_revealed" in event_types(ev) and st.pending["for"] == "mine"


def test_combat_engineer_sweeps_a_minefield_instead_of_battling():
    st = ordered(
        "3@11: .:i\n0@0: .:i", [(6, 10)], units={(6, 10): ENGINEER}, mines={(5, 11): ("AXIS", 4)}
    )
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert "mine_removed" in event_types(ev) and (5, 11) not in st.mines
    assert not (st.pending and st.pending["type"] == "roll")
    assert st.active == "AXIS" or not targets(st, (5, 11))  # no battle this turn


def test_combat_engineer_clears_a_minefield_it_stands_on_instead_of_battling():
    st = ordered(
        "3@11: .:i\n0@0: .:i", [(5, 11)], units={(5, 11): ENGINEER}, mines={(5, 11): ("AXIS", 4)}
    )
    st = do(st, "end_movement") if st.phase == "move" else st
    assert {"type": "clear_mine", "seat": "ALLIES", "unit": uid(st, (5, 11))} in legal(st)
    st, ev = act(st, "clear_mine", unit=uid(st, (5, 11)))
    assert (5, 11) not in st.mines and st.active == "AXIS"


# ============================================================== obstacles
def test_combat_engineer_ignores_terrain_dice_reduction_in_close_assault():
    st = ordered("4@10: W:i\n0@0: .:i", [(5, 11)], units={(5, 11): ENGINEER})
    st = do(st, "end_movement") if st.phase == "move" else st
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 3  # woods ignored at range 1
    st2 = ordered("4@10: W:i\n5@11: .:I\n0@0: .:i", [(5, 11)])
    st2 = do(st2, "end_movement") if st2.phase == "move" else st2
    assert battle_dice_vs(st2, (5, 11), (4, 10)) == 2  # regular infantry: -1


def test_infantry_removes_wire_instead_of_battling():
    st = ordered("4@10: .:i\n5@11: X:I", [(5, 11)])
    st = do(st, "end_movement") if st.phase == "move" else st
    st, ev = act(st, "remove_wire", unit=uid(st, (5, 11)))
    assert {"type": "terrain_changed", "hex": [5, 11], "removed": "wire"} in ev
    assert st.active == "AXIS"  # it may not battle any more


def test_combat_engineer_may_battle_from_wire_and_remove_it():
    st = ordered(
        "4@10: .:i",
        [(5, 11)],
        units={(5, 11): ENGINEER},
        hexes=[{"row": 5, "col": 11, "obstacle": {"name": "wire"}}],
    )
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "remove_wire", unit=uid(st, (5, 11)))
    assert (4, 10) in targets(st, (5, 11))  # still battles


def test_armor_entering_wire_removes_it_and_stops():
    st = ordered("0@0: .:i\n5@11: X\n6@10: .:A", [(6, 10)], key="armor_assault")
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert {"type": "terrain_changed", "hex": [5, 11], "removed": "wire"} in ev


def _flag_battle(text, target, flags=1):
    st = ordered(text, [(5, 11)])
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "battle", unit=uid(st, (5, 11)), target=list(target))
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, *(["flag"] * flags + ["star"] * (st.pending["dice"] - flags)))


@pytest.mark.parametrize("obstacle", ["O", "k"])
def test_hedgehog_and_bunker_let_the_occupant_ignore_the_first_flag(obstacle):
    st, ev = _flag_battle(f"4@10: {obstacle}:i\n5@11: .:I", (4, 10))
    opts = st.pending["options"] if st.pending and st.pending["type"] == "retreat" else []
    assert any(
        o["ignore"] == 1 and o["to"] == [4, 10] for o in opts
    ) or "flags_ignored" in event_types(ev)


def test_bunker_protects_only_its_original_owner():
    legend = {"Q": {"slot": "rect_terrain", "name": "bunker", "original_owner": "AXIS"}}
    st = ordered("4@10: Q:i\n5@11: .:I", [(5, 11)], legend=legend)
    st = do(st, "end_movement") if st.phase == "move" else st
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 2


# ============================================================== special units (Appendix 1)
def test_french_resistance_battles_after_entering_woods():
    st = ordered(
        "3@11: .:i\n5@11: W", [(6, 10)], units={(6, 10): {"name": "inf2fr", "badge": "badge3"}}
    )
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert (3, 11) in targets(st, (5, 11))


def test_french_resistance_retreats_one_to_three_hexes_per_flag():
    st = ordered("5@11: .:I", [(5, 11)], units={(4, 10): {"name": "inf2ger", "badge": "badge3"}})
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "flag", "star", "star")
    rows = {o["to"][0] for o in st.pending["options"]}
    assert rows == {3, 2, 1}  # owner picks 1, 2 or 3 hexes


def test_sniper_range_5_one_die_cannot_target_armor():
    sniper = {"name": "infus", "badge": "badge26"}
    st = ordered("1@11: .:i\n2@8: .:a\n0@0: .:i", [(6, 10)], units={(6, 10): sniper})
    st = do(st, "end_movement") if st.phase == "move" else st
    t = targets(st, (6, 10))
    assert (1, 11) in t and (2, 8) not in t
    assert battle_dice_vs(st, (6, 10), (1, 11)) == 1


def test_sniper_stars_hit_and_it_is_eliminated_without_medal():
    sniper = {"name": "infus", "badge": "badge26"}
    st = ordered("3@11: .:i\n0@0: .:i", [(6, 10)], units={(6, 10): sniper})
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[3, 11])
    st, ev = roll(st, "star")
    assert unit(st, (3, 11)).figures == 3
    # the sniper is hit only by grenades; eliminating it gives no medal
    st2 = ordered(
        "5@11: .:I\n0@0: .:i", [(5, 11)], units={(4, 10): {"name": "infger", "badge": "badge26"}}
    )
    st2 = do(st2, "end_movement") if st2.phase == "move" else st2
    st2 = do(st2, "battle", unit=uid(st2, (5, 11)), target=[4, 10])
    if st2.pending["type"] == "ambush":
        st2 = do(st2, "pass")
    st3, _ = roll(st2, "inf", "inf", "inf")
    assert unit(st3, (4, 10)).figures == 1
    st4, ev = roll(st2, "grenade", "inf", "inf")
    assert "unit_eliminated" in event_types(ev) and st4.medals("ALLIES") == 0


def test_cavalry_moves_three_battles_and_overruns():
    cav = {"name": "infus", "badge": "badge29"}
    st = ordered("2@10: .:i1\n1@11: .:i\n0@0: .:i", [(6, 10)], units={(6, 10): cav})
    assert (3, 11) in moves(st, (6, 10))
    st = do(st, "move", unit=uid(st, (6, 10)), to=[3, 11])
    t = targets(st, (3, 11))
    assert battle_dice_vs(st, (3, 11), (2, 10)) == 2
    st = do(st, "battle", unit=uid(st, (3, 11)), target=[2, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "grenade", "star")
    st = do(st, "take_ground", take=True)
    assert st.pending["type"] == "overrun"


def test_ski_troops_move_three_and_battle():
    ski = {"name": "infus", "badge": "badge30"}
    st = ordered("1@11: .:i\n0@0: .:i", [(6, 10)], units={(6, 10): ski})
    st = do(st, "move", unit=uid(st, (6, 10)), to=[3, 11])
    assert battle_dice_vs(st, (3, 11), (1, 11)) == 2


def test_mobile_artillery_moves_one_and_still_battles():
    st = ordered("0@10: .:i", [(6, 10)], units={(6, 10): {"name": "gunus", "badge": "badge35"}})
    assert (4, 10) in moves(st, (6, 10))
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert (0, 10) in targets(st, (5, 11))


def test_early_war_anti_tank_gun_moves_or_battles_and_stars_hit_armor():
    at = {"name": "infus", "badge": "badge37"}
    st = ordered("4@10: .:a\n0@0: .:i", [(6, 10)], units={(6, 10): at}, date_begin="1941-06-01")
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert st.active == "AXIS"  # moved: may not battle
    st = ordered("4@10: .:a\n0@0: .:i", [(5, 11)], units={(5, 11): at}, date_begin="1941-06-01")
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "star", "flag", "inf")
    assert unit(st, (4, 10)) is None or unit(st, (4, 10)).figures == 2


def test_late_war_anti_tank_gun_stars_hit_armor_only_if_it_did_not_move():
    at = {"name": "infus", "badge": "badge37"}
    st = ordered("3@11: .:a\n0@0: .:i", [(6, 10)], units={(6, 10): at}, date_begin="1944-06-01")
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[3, 11])
    st, _ = roll(st, "star", "star")
    assert unit(st, (3, 11)).figures == 3  # moved: stars miss


def test_late_war_mortar_uses_stationary_dice_without_los():
    mortar = {"name": "infus", "badge": "badge41"}
    st = ordered(
        "2@10: .:i\n4@10: W\n0@0: .:i", [(6, 10)], units={(6, 10): mortar}, date_begin="1944-06-01"
    )
    st = do(st, "end_movement") if st.phase == "move" else st
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 1  # range 4: 3,2,1,1; LOS ignored


def test_heavy_anti_tank_gun_ignores_terrain_and_stars_hit_armor():
    st = ordered(
        "3@11: W:a\n0@0: .:i", [(6, 10)], units={(6, 10): {"name": "gunus", "badge": "badge46"}}
    )
    st = do(st, "end_movement") if st.phase == "move" else st
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 2
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[3, 11])
    st, _ = roll(st, "star", "star")
    assert unit(st, (3, 11)).figures == 1


def test_flame_thrower_tank_terrain_reduction_capped_at_one():
    st = ordered(
        "4@10: T:i\n0@0: .:i",
        [(5, 11)],
        key="armor_assault",
        units={(5, 11): {"name": "tankus", "badge": "badge33"}},
    )
    st = do(st, "end_movement") if st.phase == "move" else st
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 3 + 1 - 1  # 3 dice, +1 card, town capped -1


# ============================================================== terrain movement (App. 2)
def test_beach_move_cap_two():
    st = ordered(
        "0@0: .:i\n5@11: b b b\n4@12: b", [(6, 10)], key="armor_assault", units={(6, 10): "tankus"}
    )
    ms = moves(st, (6, 10))
    assert (4, 12) in ms and (3, 13) not in ms and (6, 16) in ms


def test_steep_hill_costs_two_from_lower_ground():
    legend = {"Z": {"name": "hills", "behavior": "STEEP_HILL"}}
    st = ordered("0@0: .:i\n5@11: Z\n6@10: .:I", [(6, 10)], legend=legend)
    assert (5, 11) in moves(st, (6, 10))  # 2 points: infantry moves 2
    st = ordered(
        "0@0: .:i\n5@11: Z",
        [(6, 10)],
        legend=legend,
        units={(6, 10): "tankus"},
        key="armor_assault",
    )
    assert (4, 12) in moves(st, (6, 10))  # 2 + 1 = 3 for armor
    st = ordered(
        "0@0: .:i\n5@11: Z\n4@12: Z",
        [(6, 10)],
        legend=legend,
        units={(6, 10): "tankus"},
        key="armor_assault",
    )
    assert (4, 12) in moves(st, (6, 10))  # hill to steep hill costs 1


def test_steep_hill_infantry_cannot_enter_and_go_on():
    legend = {"Z": {"name": "hills", "behavior": "STEEP_HILL"}}
    st = ordered("0@0: .:i\n5@11: Z Z", [(6, 10)], units={(6, 10): "inf2us"}, legend=legend)
    ms = moves(st, (6, 10))
    assert (5, 11) in ms and (5, 13) not in ms  # 2 points used entering


def test_sea_bluff_vehicles_cannot_cross_from_beach():
    board = "0@0: .:i\n5@9: U U U\n6@8: b b b"
    st = ordered(board, [(6, 10)], key="armor_assault", units={(6, 10): "tankus"})
    assert (5, 11) not in moves(st, (6, 10))
    st = ordered(board, [(6, 10)], units={(6, 10): "infus"})
    assert (5, 11) in moves(st, (6, 10))  # infantry: costs 2


def test_mountain_entered_only_from_a_hill():
    st = ordered("0@0: .:i\n5@11: M\n4@8: H", [(6, 10)], units={(6, 10): "inf2us"})
    ms = moves(st, (6, 10))
    assert (5, 11) not in ms  # not from open ground
    st = ordered("0@0: .:i\n5@11: M\n6@10: H", [(6, 10)], units={(6, 10): "inf2us"})
    assert (5, 11) in moves(st, (6, 10))


def test_mountain_artillery_range_bonus():
    def dice_at_7(terrain):
        st = ordered(
            "0@12: .:i",
            [(7, 11)],
            units={(7, 11): "gunus"},
            hexes=[{"row": 7, "col": 11, "terrain": {"name": terrain}}],
        )
        return battle_dice_vs(to_battle(st), (7, 11), (0, 12))

    assert dice_at_7("mountain") == 1  # 3,3,2,2,1,1,1: range 7
    assert dice_at_7("hills") is None  # 3,3,2,2,1,1: out of range


def test_ford_crossing_must_stop():
    st = ordered("0@0: .:i\n5@9: R RF R", [(6, 10)], units={(6, 10): "inf2us"})
    ms = moves(st, (6, 10))
    assert (5, 11) in ms and (4, 12) not in ms and (5, 9) not in ms


def test_frozen_river_rolls_two_dice_stars_hit():
    legend = {"Y": "wriver"}
    st = ordered("0@0: .:i\n5@11: Y\n6@10: .:I", [(6, 10)], legend=legend)
    st, ev = act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert (
        st.pending["type"] == "roll" and st.pending["dice"] == 2 and st.pending["for"] == "hazard"
    )
    st, _ = roll(st, "star", "grenade")
    assert unit(st, (5, 11)).figures == 3  # only the star hits


def test_marsh_armor_cannot_battle_the_turn_it_leaves():
    st = ordered(
        "3@11: .:i\n0@0: .:i",
        [(5, 11)],
        key="armor_assault",
        units={(5, 11): "tankus"},
        hexes=[{"row": 5, "col": 11, "terrain": {"name": "marshes"}}],
    )
    ms = moves(st, (5, 11))
    assert ms and all(abs(r - 5) <= 1 for r, _ in ms)  # leaving = a 1-hex move
    st = do(st, "move", unit=uid(st, (5, 11)), to=[4, 10])
    assert st.active == "AXIS"  # no battle after leaving


def test_wadi_entered_only_through_its_open_ends():
    legend = {"D": "wadi"}
    st = ordered("0@0: .:i\n5@11: D", [(6, 10)], units={(6, 10): "gunus"}, legend=legend)
    scn = st.scn
    open_ends = scn.edge_links[(5, 11)]
    ms = moves(st, (6, 10))
    assert ((5, 11) in ms) == ((6, 10) in open_ends)


def test_rail_armor_must_stop():
    legend = {"Q": "rail"}
    # every other neighbour of the tank is occupied: its only way out is the rail hex
    st = ordered(
        "0@0: .:i\n5@9: .:I Q\n6@8: .:I .:A .:I\n7@9: .:I .:I",
        [(6, 10)],
        key="armor_assault",
        legend=legend,
    )
    assert (5, 11) in moves(st, (6, 10)) and (4, 12) not in moves(st, (6, 10))


def test_hedgerow_entered_only_as_first_hex_and_leaving_is_one_hex():
    st = ordered("0@0: .:i\n5@11: h", [(5, 11)], units={(5, 11): "inf2us"})
    assert all(abs(r - 5) <= 1 for r, _ in moves(st, (5, 11)))


# ============================================================== optional rule
def test_objective_needed_to_win_option():
    """004 Object Of The Game: with the option a player holding none of his terrain
    objectives cannot win on medals; without it the same elimination wins at once."""
    text = "5@11: .:i2\n6@10: .:I\n0@20: .:i"
    tags = {(0, 0): "medal1"}

    def eliminate_the_last_needed_unit(options):
        st = game(text, hand=[("probe", 1)], victory=(4, 1), tags=tags, options=options)
        st = play(st, "probe", 1)
        st = do(st, "order", unit=uid(st, (6, 10)))
        if st.phase == "order":
            st = do(st, "end_orders")
        st = to_battle(st)
        st = do(st, "battle", unit=uid(st, (6, 10)), target=[5, 11])
        if st.pending["type"] == "ambush":
            st = do(st, "pass")
        return roll(st, "grenade", "grenade", "star")[0]

    st = eliminate_the_last_needed_unit({"objective_needed_to_win": True})
    assert st.medals("ALLIES") == 1 and not st.game_over  # no objective held: no win
    st = eliminate_the_last_needed_unit(None)
    assert st.game_over and st.winner == "ALLIES"


def test_ocean_one_hex_moves_no_battle_never_a_retreat_hex():
    # BEACH face: rows 4-6 beach, rows 7-8 ocean (vocabulary 1.1)
    st = ordered("0@0: .:i\n8@10: .:I", [(8, 10)], face="BEACH")
    ms = moves(st, (8, 10))
    assert ms and all(abs(r - 8) <= 1 and abs(c - 10) <= 2 for r, c in ms)  # 1 hex at most
    st = ordered("0@0: .:i\n6@10: .:i\n7@11: .:I", [(7, 11)], face="BEACH")
    assert not targets(to_battle(st), (7, 11))  # nobody battles from the ocean
    # the Axis (bottom) unit on the beach cannot retreat into the ocean: it loses a figure
    st = ordered("0@0: .:I\n6@10: .:I\n5@11: .:i", [(5, 11)], face="BEACH", player1="ALLIES")
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[6, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, "flag", "star", "star")
    assert unit(st, (6, 10)).figures == 3 and "unit_retreated" not in event_types(ev)


def test_breakthrough_beach_face_three_beach_rows_then_three_ocean_rows():
    """Vocabulary 1.1: on a Breakthrough board with the BEACH face, rows 11-13 are beach and
    rows 14-16 ocean (Standard/Overlord: 4-6 beach, 7-8 ocean).  Regression: the loader used
    the Standard two-row sea on every board, so row 14 was beach and row 11 open ground."""
    # row 14 is ocean: nobody battles from it (004 / vocabulary 1.3 "Ocean")
    st = ordered("0@0: .:i\n13@11: .:i\n14@10: .:I", [(14, 10)], kind="BRKTHRU", face="BEACH")
    assert not targets(to_battle(st), (14, 10))
    # row 13 is beach: an infantry unit there battles normally
    st = ordered("0@0: .:i\n12@12: .:i\n13@11: .:I", [(13, 11)], kind="BRKTHRU", face="BEACH")
    assert (12, 12) in targets(to_battle(st), (13, 11))
    # row 11 is beach: armor moving along it is capped at 2 hexes (vocabulary 1.3 "Beach")
    st = ordered("0@0: .:i\n11@11: .:A", [(11, 11)], kind="BRKTHRU", face="BEACH")
    ms = moves(st, (11, 11))
    assert (11, 15) in ms and (11, 7) in ms
    assert (11, 17) not in ms and (11, 5) not in ms


def test_tiger_second_roll_grenades_take_the_figure():
    tiger = {"name": "tigerger"}
    st = ordered(
        "0@0: .:i", [(5, 11)], key="armor_assault", units={(5, 11): "tankus", (4, 10): tiger}
    )
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st2, ev = roll(st, "armor", "armor", "flag", "star")
    assert (
        st2.pending["type"] == "roll" and st2.pending["dice"] == 2 and st2.pending["for"] == "tiger"
    )
    st3, ev = roll(st2, "grenade", "star")
    assert (4, 10) not in st3.occ and st3.medals("ALLIES") == 1
    # no grenade: the Tiger survives and then retreats for the flag of the first roll
    st3, ev = roll(st2, "armor", "star")
    assert "unit_eliminated" not in event_types(ev)
    assert (
        (4, 10) not in st3.occ
        and "unit_retreated" in event_types(ev)
        or st3.pending["type"] == "retreat"
    )


def test_big_gun_cross_hair_adds_a_die_against_the_same_target():
    big_gun = {"name": "gunus", "badge": "badge5"}
    st = ordered(
        "2@10: .:i\n0@20: .:i",
        [(6, 10)],
        hand=[("probe", 1), ("probe", 1)],
        units={(6, 10): big_gun},
    )
    st = to_battle(st)
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 2  # range 4: 3,3,2,2,...
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[2, 10])
    st, ev = roll(st, "inf", "star")
    assert "cross_hair_placed" in event_types(ev)
    from engine import view_for

    assert view_for(st, None)["crosshairs"] == [
        {"gun": uid(st, (6, 10)), "unit": uid(st, (2, 10)), "hex": [2, 10]}
    ]
    # the Axis turn: nothing moves
    st = do(st, "play_card", card=st.hands["AXIS"][0])
    while st.active == "AXIS":
        st = apply(st, legal(st)[-1])[0]
    st = play(st, "probe", 1)
    st = do(st, "order", unit=uid(st, (6, 10)))
    st = to_battle(do(st, "end_orders") if st.phase == "order" else st)
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 3  # zeroed in: +1 die


def test_combat_engineer_removes_a_road_block_instead_of_battling():
    st = ordered(
        "3@11: .:i",
        [(5, 11)],
        units={(5, 11): ENGINEER},
        hexes=[{"row": 5, "col": 11, "terrain": {"name": "roadblock"}}],
    )
    st = to_battle(st)
    st, ev = act(st, "remove_roadblock", unit=uid(st, (5, 11)))
    assert {"type": "terrain_changed", "hex": [5, 11], "removed": "roadblock"} in ev
    assert st.active == "AXIS"  # it did not battle


@pytest.mark.parametrize(
    "board",
    [
        "3@9: U U\n4@10: b:a\n5@11: .:I",  # vocabulary 1.3 Sea Bluff: vehicles, also retreating
        "3@9: M M\n4@10: .:i\n5@11: .:I",  # 004 "Mountains": not from open countryside
    ],
)
def test_retreat_never_by_a_step_the_unit_could_not_move(board):
    """004 "Retreat": "impassable terrain may not be Moved through during a Retreat Move";
    the Axis unit's only retreat hexes (row 3) are beyond such a step: the flag costs a
    figure instead."""
    st = to_battle(ordered(board, [(5, 11)]))
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    st = do(st, "pass")  # no Ambush
    st, _ = roll(st, "flag", *["star"] * (st.pending["dice"] - 1))
    v = unit(st, (4, 10))
    assert v.figures == v.max_figures - 1 and st.pending["type"] != "retreat"
