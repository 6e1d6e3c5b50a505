"""Terrain table and combination (004 "Basic Tiles", "Obstacles", Appendix 2; vocabulary 1.3)."""

import pytest

from engine.core.geometry import make_board
from engine.core.terrain import ALL_CLASSES, OPEN, Tile, combine
from engine.core.terrain_table import TERRAIN, link_directions, lookup
from engine.core.textboard import board_from_text

VOCABULARY_CODES = """woods wforest palmtrees whillforest pjungle hedgerow buildings bled wvillage
pvillage church barracks factory wfactory lighthouse powerplant whillvillage station wruins camp
radar fortress bunker casemate wbunker dbunker pbunker hills whill dhill dridge hillroad hillcurve
pcave mountain pmcave descarpment lakeA lakeB lakeC river riverFL riverFR riverY curve pond pmouth
ford wriver wriverFR wcurved bridge pbridge wbridge pontoon railbridge wrailbridge brkbridge road
roadcurve roadFL roadFR roadX roadY droad droadX droadcurve droadFL droadFR wroad wroadcurve wroadFL
wroadFR wroadX wroadY rail railcurve railFL railFR railX wrail wrailcurve roadblock droadblock
hedgehog dragonteeth wire sand wtrenches ptrenches wravine marshes wmarshes price oasis phospital
dcamp pheadquarter cemetery dam depot airfield airfieldX dairfield dairfieldX pairfield pairfieldX
wairfield highground pbeach beach coast coastcurve wadi wcurve ppier""".split()
VARIANTS = [
    ("hills", "STEEP_HILL"),
    ("hills", "BLUFF"),
    ("hills", "CLIFF"),
    ("whill", "CLIFF"),
    ("river", "WIDE_RIVER"),
    ("curve", "FORDABLE_STREAM"),
    ("river", "FORD"),
    ("bridge", "BRIDGE_SECTION"),
    ("sand", "SEAWALL"),
    ("mountain", "IMPASSABLE_BLOCKING_HILL"),
    ("woods", "IMPASSABLE_HILL"),
    ("bridge", "CAN_BE_BLOWN"),
    ("buildings", "HEADQUARTER"),
]


def _hex(*codes, owner=None):
    return combine(
        tuple(Tile(lookup(*c.split("+")) if "+" in c else TERRAIN[c], owner=owner) for c in codes)
    )


def test_every_vocabulary_code_and_variant_has_a_row():
    missing = [c for c in VOCABULARY_CODES if c not in TERRAIN]
    assert missing == []
    for name, behavior in VARIANTS:
        assert lookup(name, behavior).name
    for engine_row in ("ocean", "beach", "sandbag"):
        assert engine_row in TERRAIN


def test_unknown_lookup_raises_keyerror():
    with pytest.raises(KeyError):
        lookup("moonbase")
    with pytest.raises(KeyError):
        lookup("hills", "FLYING")


def test_forest_and_village_cards():
    woods = _hex("woods")
    assert woods.must_stop == ALL_CLASSES and woods.blocks_los
    assert woods.no_battle_after_entering == ALL_CLASSES
    assert [woods.defense_against(c, "ALLIES", 0) for c in ("inf", "armor", "art")] == [-1, -2, 0]
    town = _hex("buildings")
    assert town.firing_from == (0, -2, 0)


def test_hill_defends_only_against_lower_attackers():
    hill = _hex("hills")
    assert hill.defense_against("inf", "ALLIES", 0) == -1
    assert hill.defense_against("armor", "ALLIES", 0) == -1
    assert hill.defense_against("inf", "ALLIES", 1) == 0  # same height
    assert hill.defense_against("art", "ALLIES", 0) == 0
    assert _hex("mountain").defense_against("inf", "ALLIES", 1) == -2
    assert _hex("mountain").defense_against("inf", "ALLIES", 2) == 0


def test_reductions_are_not_cumulative_bunker_on_hill():
    """004 "Obstacles": a bunker on a hill reduces a lower tank by 2, not 2+1."""
    h = _hex("hills", "bunker", owner="AXIS")
    assert h.defense_against("armor", "ALLIES", 0) == -2
    assert h.defense_against("inf", "ALLIES", 0) == -1
    assert h.defense_against("armor", "AXIS", 0) == -1  # bunker protects its owner only


def test_bunker_owner_and_seawall():
    bunker = _hex("bunker", owner="AXIS")
    assert bunker.flags_ignorable("inf", "AXIS") == 1
    assert bunker.flags_ignorable("inf", "ALLIES") == 0
    assert bunker.impassable == {"armor", "art"} and bunker.cannot_leave == {"armor", "art"}
    field = _hex("casemate")
    assert (
        field.defense_against("inf", "AXIS", 0) == -1
        and field.flags_ignorable("inf", "ALLIES") == 1
    )
    assert _hex("sand+SEAWALL").defense_against("inf", "ALLIES", 0) == 0  # unowned sea wall
    assert _hex("sand+SEAWALL", owner="AXIS").defense_against("inf", "ALLIES", 0) == -1


def test_sandbag_in_village_ignores_only_one_flag():
    assert _hex("buildings", "sand").flags_ignorable("inf", "AXIS") == 1
    assert _hex("fortress").flags_ignorable("armor", "AXIS") == 99
    assert _hex("wtrenches").flags_ignorable("armor", "AXIS") == 0
    assert _hex("pcave").flags_ignorable("inf", "AXIS", unit_nation="jp") == 99


def test_river_impassable_unless_bridge_or_ford():
    assert _hex("river").impassable == ALL_CLASSES
    assert _hex("river", "bridge").impassable == frozenset()
    assert _hex("curve", "ford").must_stop == ALL_CLASSES
    assert _hex("river+FORD").impassable == frozenset()
    assert _hex("river", "brkbridge").impassable == ALL_CLASSES
    stream = _hex("river+FORDABLE_STREAM")
    assert (
        not stream.impassable and stream.must_stop == ALL_CLASSES and stream.stop_allows_take_ground
    )
    assert _hex("river+WIDE_RIVER").blocks_los_against("inf")
    assert not _hex("river+WIDE_RIVER").blocks_los_against("armor")
    assert _hex("wriver").entry_hazard_dice == 2 and _hex("wriver", "bridge").entry_hazard_dice == 0


def test_obstacle_and_landmark_rows():
    assert (
        _hex("hedgehog").impassable == {"armor", "art"}
        and _hex("hedgehog").flags_ignorable("inf", "X") == 1
    )
    wire = _hex("wire")
    assert wire.must_stop == ALL_CLASSES and wire.firing_from == (-1, 0, 0) and not wire.blocks_los
    assert _hex("dam").impassable == {"armor", "art"}
    assert _hex("lakeA").impassable == ALL_CLASSES and _hex("lakeA").lake
    hedgerow = _hex("hedgerow")
    assert hedgerow.only_first_step and hedgerow.leave_one_hex == ALL_CLASSES
    assert _hex("roadblock").defense_against("inf", "X", 0, defender_class="armor") == 0
    assert _hex("roadblock").defense_against("inf", "X", 0, defender_class="inf") == -1
    assert _hex("wadi").defense_against("art", "X", 0) == -1
    assert _hex("wadi").defense_against("art", "X", 0, attacker_terrain=_hex("wcurve")) == 0
    assert _hex("mountain+IMPASSABLE_BLOCKING_HILL").blocks_all_fire
    assert (
        _hex("ocean").no_battle_in == ALL_CLASSES
        and _hex("ocean").retreat_impassable == ALL_CLASSES
    )
    assert _hex("pbeach").move_cap == 2
    assert OPEN.defense_against("inf", "AXIS", 0) == 0 and not OPEN.impassable


def test_road_links_follow_tile_shape():
    assert link_directions(TERRAIN["road"], 1) == (0, 3)  # east-west
    assert set(link_directions(TERRAIN["road"], 2)) == {5, 2}  # NE-SW
    scn = board_from_text("4@4: r  r  r1  .  r2", legend={})
    assert scn.road_links[(4, 6)] == {(4, 4), (4, 8)}
    assert (4, 12) not in scn.road_links or not scn.road_links[(4, 12)]
    b = make_board("STANDARD")
    assert all(n in b.neighbours(h) for h, ns in scn.road_links.items() for n in ns)


def test_tile_effect_text_is_derived_from_the_table_row():
    from engine.core.terrain_table import TERRAIN, describe

    woods = describe(TERRAIN["woods"])
    assert "must stop" in woods and "blocks line of sight" in woods and "-1" in woods
    assert "does not block line of sight" in describe(TERRAIN["wire"])
