"""004 unit types: options ``extra_unit_types`` and ``infantry_support_weapons``
(engine/unit_types.py).  Boards: AXIS (lowercase) on top, ALLIES (uppercase) below and to
play; the option maps a start hex "row,col" or a unit code to a type."""

import pytest

from engine import load_scenario, replay
from engine.bot import play_random_game
from engine.core.errors import EngineError
from tests.engine.paths import SCN_DIR
from tests.engine.rulehelp import (
    battle_dice_vs,
    do,
    game,
    legal,
    ordered,
    roll,
    to_battle,
    uid,
    unit,
)

X, S = "extra_unit_types", "infantry_support_weapons"


def _ready(text, who, types, opt=X, key=("probe", 1), **kw):
    """ALLIES order the units on ``who`` with ``types`` given by option ``opt``."""
    return ordered(text, who, key=key, options={opt: types}, **kw)


def _battle(st, frm, target):
    """Declare the battle and pass an Ambush window if one opens."""
    st = do(st, "battle", unit=uid(st, frm), target=[*target])
    if st.pending and st.pending["type"] == "ambush":
        st = do(st, "pass")
    return st


def _rolled(events):
    return next(e for e in events if e["type"] == "dice_rolled")


def _moves(st, frm):
    return {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == uid(st, frm)}


# ----------------------------------------------------------------------------- options
def test_option_off_and_true_alone_change_no_unit():
    """``true`` alone reassigns nothing: every unit keeps its standard profile."""
    text = "0@0: .:i\n2@10: .:a\n6@10: .:A\n6@12: .:G"
    plain = game(text, hand=[("probe", 1)])
    on = game(text, hand=[("probe", 1)], options={X: True, S: True})
    assert [u.spec for u in plain.units.values()] == [u.spec for u in on.units.values()]


@pytest.mark.parametrize(
    "opt,value,entry",
    [
        (X, {"6,10": "panzer"}, "6,10"),  # unknown type name
        (X, {"6,10": "mortar"}, "6,10"),  # a support weapon in the other option
        (X, {"3,3": "heavy_armour"}, "3,3"),  # no unit on that hex
        (X, {"tankru": "heavy_armour"}, "tankru"),  # no unit with that code
        (X, {"6,12": "heavy_armour"}, "6,12"),  # artillery given an armour type
        (X, {"6,10": "german_88"}, "6,10"),  # armour given an artillery type
        (S, {"6,10": "mortar"}, "6,10"),  # support weapons are infantry
        (X, {"gunus": "rocket_artillery"}, "rocket_artillery"),  # one per side
        (S, {"infus": "flame_thrower"}, "flame_thrower"),  # one per side
    ],
)
def test_option_errors_name_the_offending_entry(opt, value, entry):
    """Unknown types, empty hexes, types of the wrong class and the 004 per-side limits
    ("A player may have only one of these massed batteries"; "A player may only have one
    Flame-Thrower Unit on the Board") are refused with ``invalid_option_value``."""
    text = "0@0: .:i\n6@10: .:A\n6@12: .:G\n6@14: .:G\n6@16: .:I\n6@18: .:I"
    with pytest.raises(EngineError) as e:
        game(text, options={opt: value})
    assert e.value.code == "invalid_option_value"
    assert e.value.details["entry"] == entry


def test_option_value_must_be_true_or_a_mapping():
    with pytest.raises(EngineError) as e:
        game("0@0: .:i\n6@10: .:A", options={X: ["heavy_armour"]})
    assert e.value.code == "invalid_option_value"


def test_hex_entry_wins_over_code_entry():
    text = "0@0: .:i\n6@10: .:A\n6@12: .:A"
    st = game(text, options={X: {"tankus": "heavy_armour", "6,12": "reconnaissance"}})
    assert unit(st, (6, 10)).spec.kind == "heavy_armour"
    assert unit(st, (6, 12)).spec.kind == "reconnaissance"
    assert unit(st, (6, 12)).figures == 2


# ----------------------------------------------------------------------------- infantry
def test_militia_two_figures_range_two_with_2_1_dice():
    """004 "Militia Infantry Unit - Regular Infantry Unit, 2 Figures. ... Battle Range is
    2 hexes with 2, 1 Battle Dice.\""""
    st = _ready("0@0: .:i\n3@11: .:i\n4@10: .:i\n6@10: .:I", [(6, 10)], {"6,10": "militia"})
    st = to_battle(st)
    assert unit(st, (6, 10)).figures == 2
    assert battle_dice_vs(st, (6, 10), (4, 10)) == 1
    assert battle_dice_vs(st, (6, 10), (3, 11)) is None  # 3 hexes: out of range


def test_militia_close_assault_two_dice_and_may_not_take_ground():
    """004 Militia: "These Units may not make an Infantry Charge or Take Ground.\""""
    text = "0@0: .:i\n5@11: .:i1\n6@10: .:I"
    st = to_battle(_ready(text, [(6, 10)], {"6,10": "militia"}))
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 2
    st = _battle(st, (6, 10), (5, 11))
    st, _ = roll(st, "inf", "star")
    assert (5, 11) not in st.occ
    assert not st.pending or st.pending["type"] != "take_ground"
    plain = to_battle(ordered(text, [(6, 10)]))  # a standard infantry unit may
    plain = _battle(plain, (6, 10), (5, 11))
    plain, _ = roll(plain, "inf", "star", "star")
    assert plain.pending["type"] == "take_ground"


def test_militia_march_two_or_battle():
    """004 Militia: "A Militia Infantry Unit may March 2 hexes or Battle.\""""
    text = "0@0: .:i\n3@11: .:i\n6@10: .:I"
    for types, may in (({}, True), ({"6,10": "militia"}, False)):
        st = _ready(text, [(6, 10)], types)
        st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
        st = to_battle(st)
        can = st.active == "ALLIES" and any(
            a["unit"] == uid(st, (5, 11)) for a in legal(st, "battle")
        )
        assert can is may  # moved 1: regular infantry still battles


def test_militia_elimination_gives_no_medal():
    """004 Militia: "The elimination of these Units does not count towards the enemies
    Victory Points.\""""
    st = _ready("0@0: .:i\n5@11: .:i\n6@10: .:I", [(6, 10)], {"5,11": "militia"})
    st = to_battle(st)
    st = _battle(st, (6, 10), (5, 11))
    st, ev = roll(st, "inf", "inf", "star")
    assert (5, 11) not in st.occ and "unit_eliminated" in [e["type"] for e in ev]
    assert st.elim_medals["ALLIES"] == 0


def test_militia_may_not_infantry_charge():
    """004 Militia: "may not make an Infantry Charge"."""
    st = ordered(
        "0@0: .:i\n3@11: .:i\n6@12: .:I",
        [(6, 12)],
        key=("attack", 1),
        options={X: {"6,12": "militia"}, "infantry_charge": True},
    )
    st = do(st, "move", unit=uid(st, (6, 12)), to=[4, 12])
    st = to_battle(st)
    assert uid(st, (4, 12)) not in [a["unit"] for a in legal(st, "battle")]


# ----------------------------------------------------------------------------- armour
def test_reconnaissance_two_dice_range_two_not_against_medium_armour():
    """004 "Reconnaissance Units - Armour, 2 models. ... Battle Range is 2 hexes with 2
    Battle Dice against Infantry, Artillery and other Reconnaissance Units only.\""""
    text = "0@0: .:i\n4@8: .:i\n4@12: .:a\n4@10: .:a\n6@10: .:A"
    st = to_battle(
        _ready(
            text,
            [(6, 10)],
            {"6,10": "reconnaissance", "4,10": "reconnaissance", "4,12": "medium_armour"},
        )
    )
    assert unit(st, (6, 10)).figures == 2
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 2
    assert battle_dice_vs(st, (6, 10), (4, 10)) == 2
    assert battle_dice_vs(st, (6, 10), (4, 12)) is None


def test_reconnaissance_advances_four_with_infantry_terrain_rules():
    """004 Reconnaissance: "Advances upto 4 hexes. ... Move through Terrain using the
    Infantry Terrain modifiers instead of the Armour ones" (ruins are impassable to
    armour, not to infantry)."""
    st = _ready("0@0: .:i\n6@10: .:A", [(6, 10)], {"6,10": "reconnaissance"})
    assert (2, 10) in _moves(st, (6, 10))
    legend = {"Z": "wruins"}
    st = _ready(
        "0@0: .:i\n5@11: Z\n6@10: .:A", [(6, 10)], {"6,10": "reconnaissance"}, legend=legend
    )
    assert (5, 11) in _moves(st, (6, 10))
    st = _ready("0@0: .:i\n5@11: Z\n6@10: .:A", [(6, 10)], {"6,10": "medium_armour"}, legend=legend)
    assert (5, 11) not in _moves(st, (6, 10))


def test_light_medium_armour_3_2_2_not_against_medium_armour():
    """004 "Light-Medium Armour - Armour, 3 models. Battle Range is 3 hexes with 3, 2, 2
    Battle Dice against Infantry, Artillery, Reconnaissance and other Light-Medium Armour
    Units only.\""""
    text = "0@0: .:i\n3@11: .:a\n4@8: .:i\n4@12: .:a\n6@10: .:A"
    st = to_battle(
        _ready(text, [(6, 10)], {"6,10": "light_medium_armour", "3,11": "light_medium_armour"})
    )
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 2
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 2
    assert battle_dice_vs(st, (6, 10), (4, 12)) is None  # untyped = medium armour


def test_medium_armour_three_dice_against_any_unit():
    """004 "Medium Armour - Armour, 3 models. Battle Range is 3 hexes with 3 Battle Dice
    against any Unit.\""""
    st = to_battle(
        _ready(
            "0@0: .:i\n3@11: .:a\n4@8: .:g\n6@10: .:A",
            [(6, 10)],
            {"6,10": "medium_armour", "3,11": "heavy_armour"},
        )
    )
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 3
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 3
    assert unit(st, (6, 10)).figures == 3


def test_heavy_armour_four_dice_at_range_four():
    """004 "Heavy Armour - Armour, 4 models. Battle Range is 4 hexes with 4 Battle Dice
    against any Unit.\""""
    st = to_battle(_ready("0@0: .:i\n2@10: .:i\n6@10: .:A", [(6, 10)], {"6,10": "heavy_armour"}))
    assert unit(st, (6, 10)).figures == 4
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 4


def test_heavy_armour_not_affected_by_grenade_hits():
    """004 Heavy Armour: "Not effected by Grenade Hits.\""""
    st = to_battle(_ready("0@0: .:i\n5@11: .:a\n6@10: .:I", [(6, 10)], {"5,11": "heavy_armour"}))
    st = _battle(st, (6, 10), (5, 11))
    st, ev = roll(st, "grenade", "grenade", "armor")
    assert _rolled(ev)["hits"] == 1
    assert unit(st, (5, 11)).figures == 3


def test_very_heavy_armour_advances_two_in_open_road_bridge_town_only():
    """004 "Very Heavy Armour - Armour, 4 models. Advances upto 2 hexes in Open, Road,
    Bridge, or Towns & Villages Terrain only.\""""
    st = _ready(
        "0@0: .:i\n5@9: .:\n5@11: W\n4@10: T\n6@10: .:A", [(6, 10)], {"6,10": "very_heavy_armour"}
    )
    moves = _moves(st, (6, 10))
    assert (5, 11) not in moves and (5, 9) in moves and (4, 10) in moves
    assert (3, 9) not in moves and (4, 8) in moves  # 2 hexes at most
    plain = _ready("0@0: .:i\n5@11: W\n6@10: .:A", [(6, 10)], {"6,10": "heavy_armour"})
    assert (5, 11) in _moves(plain, (6, 10))


def test_very_heavy_armour_ignores_first_flag_and_grenades_infantry_close_assault_3():
    """004 Very Heavy Armour: "Not effected by Grenade Hits or the first Purple Flag.
    Infantry Units attack Very Heavy Armour in Close Assault with 3 Battle Dice.\""""
    text = "0@0: .:i\n5@11: .:a\n6@10: .:I"
    st = to_battle(_ready(text, [(6, 10)], {"5,11": "very_heavy_armour", "6,10": "militia"}))
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 3  # militia: 2 otherwise
    st = _battle(st, (6, 10), (5, 11))
    st, ev = roll(st, "flag", "grenade", "armor")
    assert _rolled(ev)["hits"] == 1
    assert (5, 11) in st.occ  # the one flag is ignored
    assert unit(st, (5, 11)).figures == 3


def test_infantry_tank_moves_two_ignores_grenades_like_light_medium():
    """004 "Infantry Tanks - Armour, 3 models. Advances upto 2 hexes, not affected by
    Grenade Hits, otherwise exactly like any other Light-Medium Tank.\""""
    text = "0@0: .:i\n3@11: .:a\n4@8: .:i\n6@10: .:A"
    st = _ready(text, [(6, 10)], {"6,10": "infantry_tank"})
    assert (3, 9) not in _moves(st, (6, 10)) and (4, 10) in _moves(st, (6, 10))
    st = to_battle(st)
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 2
    assert battle_dice_vs(st, (6, 10), (3, 11)) is None
    assert unit(st, (6, 10)).spec.hit_by == frozenset({"armor"})


def test_assault_gun_three_vs_infantry_two_vs_armour_infantry_close_assault_3():
    """004 "Assault Guns - ... Battle Range is 3 hexes with 3 Battle Dice against
    Infantry/Artillery or 2 Battle Dice against Armour. Infantry Units attack Assault
    Guns in Close Assault with 3 Battle Dice.\""""
    text = "0@0: .:i\n3@11: .:a\n4@8: .:i\n6@10: .:A"
    st = to_battle(_ready(text, [(6, 10)], {"6,10": "assault_gun"}))
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 3
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 2
    st = to_battle(
        _ready(
            "0@0: .:i\n5@11: .:a\n6@10: .:I", [(6, 10)], {"5,11": "assault_gun", "6,10": "militia"}
        )
    )
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 3


def test_tank_destroyer_four_vs_armour_at_four_two_vs_infantry():
    """004 "Tank Destroyers - ... Battle Range is 4 hexes with 4 Battle Dice against
    Armour or 2 Battle Dice against Infantry/Artillery. Infantry Units attack Tank
    Destroyers in Close Assault with 3 Battle Dice.\""""
    text = "0@0: .:i\n2@10: .:a\n4@8: .:i\n6@10: .:A"
    st = to_battle(_ready(text, [(6, 10)], {"6,10": "tank_destroyer"}))
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 4
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 2
    st = to_battle(
        _ready(
            "0@0: .:i\n5@11: .:a\n6@10: .:I",
            [(6, 10)],
            {"5,11": "tank_destroyer", "6,10": "militia"},
        )
    )
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 3


# ----------------------------------------------------------------------------- artillery
def test_medium_artillery_direct_fire_3_2_2_1_one_less_vs_armour():
    """004 "Medium Artillery - Direct Firing Artillery, 2 models. Battle Range is 4 hexes
    with 3, 2, 2, 1 Battle Dice. May attack Armour with 1 less Battle Die." and "Direct
    Firing Artillery require a Line Of Sight to the enemy Unit they are firing at.\""""
    text = "0@0: .:i\n2@10: .:i\n4@8: .:a\n4@12: .:i\n5@11: W\n6@10: .:G"
    st = to_battle(_ready(text, [(6, 10)], {"6,10": "medium_artillery"}))
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 1
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 1  # 2 - 1 against armour
    assert battle_dice_vs(st, (6, 10), (4, 12)) is None  # the wood blocks the sight
    plain = to_battle(ordered(text, [(6, 10)]))  # standard artillery: no LOS
    assert battle_dice_vs(plain, (6, 10), (4, 12)) == 3


def test_heavy_artillery_indirect_fire_needs_own_or_friendly_sight():
    """004 "Heavy Artillery - Indirect Firing Artillery ... 3, 3, 2, 2, 1, 1 Battle Dice.
    May attack Armour with 1 less Battle Die." and "Indirect Firing Artillery can fire at
    anything within their Line Of Sight or at a target within a friendly Unit's Line Of
    Sight. Indirect Fire can fire over any obstruction.\""""
    text = "0@0: .:i\n4@8: .:a\n4@12: .:i\n5@11: W\n6@10: .:G"
    st = to_battle(_ready(text, [(6, 10)], {"6,10": "heavy_artillery"}))
    assert battle_dice_vs(st, (6, 10), (4, 12)) is None  # nobody sees it
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 2  # 3 - 1 against armour
    st = to_battle(_ready(text + "\n6@14: .:I", [(6, 10)], {"6,10": "heavy_artillery"}))
    assert battle_dice_vs(st, (6, 10), (4, 12)) == 3  # the infantry sees it


def test_big_gun_eight_hexes_3_3_3_2_2_2_1_1():
    """004 "Big-Gun Batteries - Indirect Firing Artillery, 2 models. Battle Range is 8
    hexes with 3, 3, 3, 2, 2, 2, 1, 1 Battle Dice.\""""
    st = to_battle(
        _ready("0@0: .:i\n0@10: .:i\n4@10: .:i\n6@10: .:G", [(6, 10)], {"6,10": "big_gun"})
    )
    assert battle_dice_vs(st, (6, 10), (4, 10)) == 3  # range 2 (must not be adjacent)
    st2 = to_battle(_ready("0@0: .:i\n0@10: .:i\n6@10: .:G", [(6, 10)], {"6,10": "big_gun"}))
    assert battle_dice_vs(st2, (6, 10), (0, 10)) == 2  # range 6
    assert unit(st2, (6, 10)).spec.cross_hairs == 3


def test_anti_tank_artillery_four_dice_vs_armour_in_close_assault():
    """004 "Anti-Tank Artillery - Direct Firing Artillery, 2 Models. Battle Range is 3
    Hexes. Fires at 3 Battle Dice against Armour or 2 Battle Dice against
    Infantry/Artillery. Fires 4 dice against Armour in Close Assault.\""""
    st = to_battle(
        _ready("0@0: .:i\n5@11: .:a\n6@10: .:G", [(6, 10)], {"6,10": "anti_tank_artillery"})
    )
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 4
    st = to_battle(
        _ready(
            "0@0: .:i\n3@11: .:a\n4@8: .:i\n6@10: .:G", [(6, 10)], {"6,10": "anti_tank_artillery"}
        )
    )
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 3
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 2


def test_anti_tank_artillery_not_reduced_by_artillery_v_tank():
    """004 "Artillery v Tank Battle": "Infantry Support Weapons and Anti-Tank Artillery
    are excluded from this rule.\""""
    st = to_battle(
        ordered(
            "0@0: .:i\n3@11: .:a\n6@10: .:G",
            [(6, 10)],
            options={X: {"6,10": "anti_tank_artillery"}, "artillery_v_tank": True},
        )
    )
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 3


def test_german_88_star_against_armour_counts_as_flag():
    """004 "German 88mm Anti-Tank Artillery - ... Battle Range is 4 Hexes. Fires at 4
    Battle Dice against Armour or 2 Battle Dice against Infantry/Artillery. A Green Star
    against Armour also counts as a Purple Flag.\""""
    text = "0@0: .:i\n2@10: .:a\n6@10: .:G"
    st = to_battle(_ready(text, [(6, 10)], {"6,10": "german_88"}))
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 4
    st = _battle(st, (6, 10), (2, 10))
    st, ev = roll(st, "star", "star", "inf", "armor")
    r = _rolled(ev)
    assert (r["hits"], r["flags"]) == (1, 2)
    st = to_battle(_ready("0@0: .:i\n2@10: .:i\n6@10: .:G", [(6, 10)], {"6,10": "german_88"}))
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 2
    st = _battle(st, (6, 10), (2, 10))
    st, ev = roll(st, "star", "inf")
    assert (_rolled(ev)["hits"], _rolled(ev)["flags"]) == (1, 0)  # not against infantry


def test_self_propelled_artillery_marches_two_as_armour_or_battles():
    """004 "Self-Propelled Artillery - Indirect Firing Artillery & Armour, 2 models.
    March 2 hexes as Armour or Battles as Artillery. Battle Range is 4 hexes with 3, 2, 2,
    1 Battle Dice. May not make an Armour Overrun or Take Ground. May attack Armour with 1
    less Battle Die.\""""
    text = "0@0: .:i\n2@10: .:i\n3@11: .:a\n6@10: .:G"
    st = _ready(text, [(6, 10)], {"6,10": "self_propelled_artillery"})
    assert (4, 10) in _moves(st, (6, 10)) and (3, 9) not in _moves(st, (6, 10))
    b = to_battle(st)
    assert battle_dice_vs(b, (6, 10), (2, 10)) == 1
    assert battle_dice_vs(b, (6, 10), (3, 11)) == 1  # range 3: 2 - 1
    assert unit(b, (6, 10)).spec.take_ground == 0
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    st = to_battle(st)
    assert st.active == "AXIS" or not legal(st, "battle")


def test_rocket_artillery_four_dice_at_four_hexes():
    """004 "Rocket Artillery - Indirect Firing Artillery, 2 models. March 2 hexes or
    Battles as Artillery. Battle Range is 4 hexes with 4 Battle Dice.\""""
    st = _ready("0@0: .:i\n2@10: .:i\n6@10: .:G", [(6, 10)], {"6,10": "rocket_artillery"})
    assert (4, 10) in _moves(st, (6, 10))
    st = to_battle(st)
    assert battle_dice_vs(st, (6, 10), (2, 10)) == 4


# ----------------------------------------------------------------------------- support
def test_anti_tank_infantry_3_2_vs_armour_2_1_vs_infantry_hit_as_artillery():
    """004 "Anti-Tank Infantry Unit ... Direct Firing Artillery. Battle Range is 2 hexes
    with 3, 2 Battle Dice against Armour Units and 2, 1 against Infantry Units." and "All
    Infantry Support Weapons are Infantry with 2 Figures ... the other Infantry Support
    Weapons are Artillery Units.\""""
    st = to_battle(
        _ready(
            "0@0: .:i\n4@8: .:a\n4@12: .:i\n6@10: .:I",
            [(6, 10)],
            {"6,10": "anti_tank_infantry"},
            opt=S,
        )
    )
    assert battle_dice_vs(st, (6, 10), (4, 8)) == 2
    assert battle_dice_vs(st, (6, 10), (4, 12)) == 1
    u = unit(st, (6, 10))
    assert (u.figures, u.cls) == (2, "art")
    st = to_battle(
        _ready("0@0: .:i\n5@11: .:a\n6@10: .:I", [(6, 10)], {"6,10": "anti_tank_infantry"}, opt=S)
    )
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 3


def test_machine_gun_4_3_2_vs_infantry_one_die_vs_light_armour_in_close_assault():
    """004 "Machine-Gun Infantry Unit ... Battle Range is 3 hexes with 4, 3, 2 Battle
    Dice against Infantry Unit or 1 against a Light Armour Unit when in Close Assault
    only.\""""
    text = "0@0: .:i\n3@11: .:i\n4@8: .:g\n6@10: .:I"
    st = to_battle(_ready(text, [(6, 10)], {"6,10": "machine_gun"}, opt=S))
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 2
    assert battle_dice_vs(st, (6, 10), (4, 8)) is None  # not against artillery
    st = to_battle(
        ordered(
            "0@0: .:i\n5@11: .:a\n6@10: .:I",
            [(6, 10)],
            options={S: {"6,10": "machine_gun"}, X: {"5,11": "reconnaissance"}},
        )
    )
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 1
    st = to_battle(
        ordered(
            "0@0: .:i\n4@10: .:a\n6@10: .:I",
            [(6, 10)],
            options={S: {"6,10": "machine_gun"}, X: {"4,10": "reconnaissance"}},
        )
    )
    assert battle_dice_vs(st, (6, 10), (4, 10)) is None  # close assault only
    st = to_battle(
        _ready("0@0: .:i\n5@11: .:a\n6@10: .:I", [(6, 10)], {"6,10": "machine_gun"}, opt=S)
    )
    assert battle_dice_vs(st, (6, 10), (5, 11)) is None  # medium armour


def test_flame_thrower_close_assault_only_three_dice_no_terrain_stars_are_flags():
    """004 "Flame-Thrower Infantry Unit - Battle Range is Close Assault only with any Unit
    Type. Battles at 3 with no dice lost due to Terrain. A Flame-Thrower Unit treats Star
    results as additional Purple Flags.\""""
    st = to_battle(
        _ready("0@0: .:i\n4@10: .:i\n6@10: .:I", [(6, 10)], {"6,10": "flame_thrower"}, opt=S)
    )
    assert battle_dice_vs(st, (6, 10), (4, 10)) is None
    st = to_battle(
        _ready("0@0: .:i\n5@11: W:i\n6@10: .:I", [(6, 10)], {"6,10": "flame_thrower"}, opt=S)
    )
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 3  # the wood takes no die
    st = _battle(st, (6, 10), (5, 11))
    st, ev = roll(st, "star", "star", "grenade")
    assert (_rolled(ev)["hits"], _rolled(ev)["flags"]) == (1, 2)


def test_mortar_grenades_are_flags_ignores_terrain_infantry_and_artillery_only():
    """004 "Mortar Infantry Unit - Indirect Firing Artillery. Battle Range is 3 hexes with
    3, 2, 1 Battle Dice against Infantry or Artillery Unit only. Red Grenade Hits count as
    Purple Flags. A Mortar Unit ignores Battle Dice Terrain restrictions.\""""
    text = "0@0: .:i\n4@10: W:i\n4@12: .:a\n6@10: .:I"
    st = to_battle(_ready(text, [(6, 10)], {"6,10": "mortar"}, opt=S))
    assert battle_dice_vs(st, (6, 10), (4, 10)) == 2  # no die lost for the wood
    assert battle_dice_vs(st, (6, 10), (4, 12)) is None  # not against armour
    st = _battle(st, (6, 10), (4, 10))
    st, ev = roll(st, "grenade", "inf")
    assert (_rolled(ev)["hits"], _rolled(ev)["flags"]) == (2, 1)


def test_mortar_may_not_occupy_bunkers():
    """004 Mortar: "Mortars may not occupy Bunkers or Take Ground.\""""
    st = _ready("0@0: .:i\n5@11: K\n6@10: .:I", [(6, 10)], {"6,10": "mortar"}, opt=S)
    moves = _moves(st, (6, 10))
    assert (5, 11) not in moves and (5, 9) in moves
    assert unit(st, (6, 10)).spec.take_ground == 0


def test_artillery_bombard_activates_mortars():
    """004 Mortar: "The "Artillery Bombard" card also activates Mortars.\""""
    from tests.engine.rulehelp import play

    st = game(
        "0@0: .:i\n6@10: .:I\n6@14: .:I",
        hand=["artillery_bombard"],
        options={S: {"6,10": "mortar"}},
    )
    st = play(st, "artillery_bombard")
    assert unit(st, (6, 10)).ordered and not unit(st, (6, 14)).ordered


# ----------------------------------------------------------------------------- games
def test_random_games_with_unit_types_finish_and_replay_equals_live():
    """Random legal play with types over Pegasus Bridge (infantry types) and Prokhorovka
    (armour and artillery types) finishes; replay == live."""
    cases = [
        (
            "2-PegasusBridge.m44",
            {
                S: {
                    "7,9": "mortar",
                    "8,10": "machine_gun",
                    "5,5": "flame_thrower",
                    "2,4": "anti_tank_infantry",
                },
                X: {"0,0": "militia", "6,24": "militia"},
            },
        ),
        (
            "5913-BattleOfProkhorovka.m44",
            {
                X: {
                    "tank2ger": "heavy_armour",
                    "tankger": "assault_gun",
                    "tankru": "light_medium_armour",
                    "1,9": "german_88",
                    "3,19": "big_gun",
                    "12,2": "rocket_artillery",
                    "13,11": "medium_artillery",
                    "14,18": "self_propelled_artillery",
                }
            },
        ),
    ]
    for name, options in cases:
        scn = load_scenario(f"{SCN_DIR}/{name}")
        for seed in (1, 2):
            st, actions = play_random_game(scn, seed, options, max_turns=400, record=True)
            assert st.game_over
            assert replay(scn, seed, actions, options) == st


def test_very_heavy_armour_may_not_take_ground_into_woods():
    """004 "Taking Ground": "Terrain Movement and Battle restrictions still apply when
    Units Take Ground"; Very Heavy Armour advances "in Open, Road, Bridge, or Towns &
    Villages Terrain only"."""
    text = "0@0: .:i\n5@11: W:i1\n6@10: .:A"
    for tname, offered in (("heavy_armour", True), ("very_heavy_armour", False)):
        st = to_battle(_ready(text, [(6, 10)], {"6,10": tname}))
        st = _battle(st, (6, 10), (5, 11))
        st, _ = roll(st, *(["inf"] * st.pending["dice"]))
        assert (5, 11) not in st.occ
        assert (st.pending is not None and st.pending["type"] == "take_ground") is offered
