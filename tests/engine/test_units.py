"""Unit profiles (vocabulary 2.1-2.6; printed rules 004 for vehicles)."""

import pytest

from engine.core.units import unit_spec


def test_base_profiles():
    inf = unit_spec("infger")
    assert (inf.unit_class, inf.side, inf.figures, inf.move, inf.move_fire, inf.dice) == (
        "inf",
        "AXIS",
        4,
        2,
        1,
        (3, 2, 1),
    )
    sf = unit_spec("inf2us")
    assert (sf.kind, sf.side, sf.move_fire) == ("special_forces", "ALLIES", 2)
    tank = unit_spec("tankru")
    assert (tank.unit_class, tank.figures, tank.move, tank.dice, tank.take_ground) == (
        "armor",
        3,
        3,
        (3, 3, 3),
        2,
    )
    assert unit_spec("tank2brit").figures == 4
    gun = unit_spec("gunger")
    assert (
        gun.unit_class,
        gun.figures,
        gun.move,
        gun.move_fire,
        gun.dice,
        gun.needs_los,
        gun.take_ground,
    ) == ("art", 2, 1, 0, (3, 3, 2, 2, 1, 1), False, 0)


def test_nations_and_japanese_flags():
    assert unit_spec("infjp").ignore_flags == 1 and unit_spec("infjp").side == "AXIS"
    assert unit_spec("tankjp").ignore_flags == 0
    assert unit_spec("infit").side == "AXIS" and unit_spec("infbrit").side == "ALLIES"
    # vocabulary 2.1: any other nation suffix is an Allied nation (BGA); non-letters are not
    assert unit_spec("infpl").side == "ALLIES" and unit_spec("tankfin").side == "ALLIES"
    with pytest.raises(KeyError):
        unit_spec("inf_99")
    with pytest.raises(KeyError):
        unit_spec("zeppelinger")


def test_tiger_and_behaviours():
    tiger = unit_spec("tank2ger", nbr_units="1")
    assert tiger.kind == "tiger" and tiger.figures == 1 and not tiger.can_heal and tiger.badge == 4
    assert unit_spec("tank2us", nbr_units=1).kind == "elite_armor"
    assert unit_spec("tankger", behavior="ARMOR_MOVE_TWO").move == 2
    assert unit_spec("infus", behavior="CAN_IGNORE_ONE_FLAG").ignore_flags == 1
    assert unit_spec("gunger", behavior="GERMAN_2VICTANK").medal_value == 2
    assert unit_spec("inf2us", behavior="FRENCH_RESISTANCE").kind == "resistance"
    assert unit_spec("infger", nbr_units=2).figures == 2


def test_badges():
    assert unit_spec("inf2us", "badge3").figures == 3
    assert unit_spec("gunus", "badge5").dice == (3, 3, 2, 2, 1, 1, 1, 1)
    eng = unit_spec("inf2us", "badge12")
    assert eng.kind == "engineer" and eng.move_fire == 1 and eng.ignore_terrain_defense_at_1
    sniper = unit_spec("infus", "badge26")
    assert (
        sniper.medal_value == 0 and sniper.hit_by == {"grenade"} and "armor" in sniper.cannot_target
    )
    assert unit_spec("infru", "badge29").take_ground == 2
    assert unit_spec("tankus", "badge33").flame_cap
    assert unit_spec("gunger", "badge46").needs_los
    assert unit_spec("inf2us", "badge1").kind == "special_forces"  # decorative
    assert unit_spec("inf2us", "badge77").kind == "special_forces"  # unknown = decorative
    early = unit_spec("infus", "badge37", date_begin="1941-12-07")
    late = unit_spec("infus", "badge37", date_begin="1944-06-06")
    assert early.no_move_and_fire and not late.no_move_and_fire and late.star_hits_if_not_moved
    assert unit_spec("infger", "badge41", date_begin="1944-01-01").stationary_dice == (3, 2, 1, 1)


def test_vehicle_prefix_is_a_recon_armor_unit():
    veh = unit_spec("vehus")
    assert veh.unit_class == "armor" and veh.move_class == "inf" and veh.figures == 2
    assert veh.move == 4 and veh.dice == (2, 2) and veh.side == "ALLIES"
    assert unit_spec("vehger").side == "AXIS"


def test_ships_and_trains():
    ship = unit_spec("pdestroyer", nation="us")
    assert ship.side == "ALLIES" and ship.hit_by == {"grenade"} and ship.ignore_flags == 1
    assert unit_spec("wagon", nation="ger").medal_value == 0
