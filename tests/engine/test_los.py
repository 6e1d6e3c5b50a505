"""Line of sight (004 Battle "Line Of Sight", "Hills", Appendix 2 "Lake", "Mountains")."""

import time

import pytest

from engine.core.los import has_line_of_sight, sight_lines
from engine.core.scenario import load_scenario
from engine.core.textboard import board_from_text
from tests.engine.paths import SCN_DIR

HILLS = load_scenario(SCN_DIR / "1096-HillsExamplesOfLineOfSight.m44")
OCCUPIED = {u.hex for u in HILLS.units}

# Scenario 1096 "Hills (Examples of Line of Sight)": each example's label says whether the
# German and the US unit of that example see each other.
EXAMPLES = {
    "A": ((1, 1), (3, 1), True),  # from a hill down to open ground, nothing between
    "B": ((0, 8), (3, 7), False),  # firer on the hill, the hill's slope hides the flat target
    "C": ((0, 14), (3, 13), False),  # flat to flat across a hill
    "D": ((0, 22), (2, 22), True),  # same hill mass: plateau, line along two hill hexes
    "E": ((6, 2), (8, 2), True),  # hill to hill over open ground (edge between open hexes)
    "F": ((6, 8), (8, 8), True),  # edge between a plateau hill and a town: one side only
    "G": ((6, 14), (8, 12), False),  # through a town
    "H": ((6, 18), (8, 16), False),  # hill to hill with a unit in between
    "I": ((6, 24), (8, 22), False),  # a town between two hexes of the same hill mass
    "J": ((4, 16), (4, 22), False),  # hill to hill over another, separate hill
}


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_rulebook_hill_examples(example):
    a, b, expected = EXAMPLES[example]
    assert {HILLS.unit_at(a).side, HILLS.unit_at(b).side} == {"AXIS", "ALLIES"}
    assert has_line_of_sight(HILLS, OCCUPIED, a, b) is expected
    assert has_line_of_sight(HILLS, OCCUPIED, b, a) is expected  # symmetric


def test_edge_line_blocked_only_if_both_sides_obstructed():
    # (2, 4) -> (4, 4) runs along the edge between (3, 3) and (3, 5).
    assert len(sight_lines((2, 4), (4, 4))) == 2
    one = board_from_text("2@4: :i\n3@3: W .\n4@4: :I")
    both = board_from_text("2@4: :i\n3@3: W W\n4@4: :I")
    units = {(2, 4), (4, 4)}
    assert has_line_of_sight(one, units, (2, 4), (4, 4))
    assert not has_line_of_sight(both, units, (2, 4), (4, 4))
    assert not has_line_of_sight(one, units | {(3, 5)}, (2, 4), (4, 4))  # woods + unit


def test_units_block_but_not_at_start_or_target():
    scn = board_from_text("4@4: :i  :i  :I  :I")
    occ = {(4, 4), (4, 6), (4, 8), (4, 10)}
    assert has_line_of_sight(scn, occ, (4, 4), (4, 6))
    assert not has_line_of_sight(scn, occ, (4, 4), (4, 8))
    assert has_line_of_sight(scn, occ - {(4, 6)}, (4, 4), (4, 8))


def test_terrain_that_does_not_block():
    scn = board_from_text("4@2: :i  R  RB  X  S  b  O  t  :I")
    assert has_line_of_sight(scn, {(4, 2), (4, 18)}, (4, 2), (4, 18))


def test_lakes_block_only_two_or_more():
    one = board_from_text("4@2: :i  L  .  :I")
    two = board_from_text("4@2: :i  L  L  :I")
    assert has_line_of_sight(one, set(), (4, 2), (4, 8))
    assert not has_line_of_sight(two, set(), (4, 2), (4, 8))


def test_wide_river_blocks_infantry_attackers_only():
    scn = board_from_text("4@2: :i  w  :I")
    assert not has_line_of_sight(scn, set(), (4, 2), (4, 6), attacker_class="inf")
    assert has_line_of_sight(scn, set(), (4, 2), (4, 6), attacker_class="armor")


def test_mountain_plateau_and_blocking_hill():
    scn = board_from_text(
        "4@2: M  M  M  .  M",
        hexes=[
            {
                "row": 6,
                "col": 2,
                "terrain": {"name": "mountain", "behavior": "IMPASSABLE_BLOCKING_HILL"},
            }
        ],
    )
    assert has_line_of_sight(scn, set(), (4, 2), (4, 6))  # same mountain mass
    assert not has_line_of_sight(scn, set(), (4, 2), (4, 10))  # over the mountain to another
    assert has_line_of_sight(scn, set(), (6, 0), (6, 4), needs_los=False) is False
    assert has_line_of_sight(scn, {(4, 4)}, (4, 2), (4, 6), needs_los=False)


def test_terrain_override():
    scn = board_from_text("4@2: :i  W  :I")
    opened = dict(scn.terrain)
    del opened[(4, 4)]
    assert not has_line_of_sight(scn, set(), (4, 2), (4, 6))
    assert has_line_of_sight(scn, set(), (4, 2), (4, 6), terrain=opened)


def test_speed_all_pairs_of_a_real_board():
    scn = load_scenario(SCN_DIR / "2-PegasusBridge.m44")
    occ = {u.hex for u in scn.units}
    pairs = [(a.hex, b.hex) for a in scn.units for b in scn.units if a.side != b.side]
    has_line_of_sight(scn, occ, *pairs[0])
    start = time.perf_counter()
    for a, b in pairs:
        has_line_of_sight(scn, occ, a, b)
    per_call = (time.perf_counter() - start) / len(pairs)
    print(f"{per_call * 1e6:.1f} us per LOS call ({len(pairs)} pairs)")


def test_has_los_alias_with_terrain_function():
    from engine.core.los import has_los
    from engine.core.terrain import OPEN

    scn = board_from_text("4@2: :i  W  :I")
    assert not has_los(scn, (4, 2), (4, 6), frozenset())
    assert has_los(scn, (4, 2), (4, 6), frozenset(), lambda h: OPEN)
