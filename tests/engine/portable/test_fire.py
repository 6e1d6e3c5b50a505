"""Artillery fire rules (003)."""

from engine.rulesets.portable.textboard import position

from .helpers import act, fire_targets, kinds, last, roll


def test_range_four_areas_covers_the_battlefield_and_reserves_are_out_of_it():
    """ "Artillery has a range of four grid areas" (orthogonal steps: corner to corner is 4)."""
    st = position("""
    r: f
    3  .    .    .:f
    2  .    .    .
    1  .:A  .    .
    R:
    """)
    assert fire_targets(st, "b1") == ["c3"]


def test_line_of_sight_blocked_by_units_of_either_side():
    """ "Artillery may only fire at enemy units that are in direct line of sight (i.e. there
    are no other units between the firing artillery unit and the target unit).\""""
    st = position("""
    r:
    3  .:f  .    .:f
    2  .:F  .:f  .
    1  .:A  .    .
    R:
    """)
    # a3 behind a friendly unit, c3 behind the enemy in b2 (the diagonal line runs through b2)
    assert fire_targets(st, "b2") == ["b2"]


def test_a_line_through_a_corner_is_clear_if_either_side_is():
    st = position("""
    r:
    3  .    .    .
    2  .:F  .:f  .
    1  .:A  .    .
    R:
    """)
    assert fire_targets(st, "b2") == ["b2"]  # a1 -> b2: diagonal neighbours, nothing between
    st = position("""
    r:
    3  .    .    .
    2  .:F  .:f  .
    1  .:A  .:F  .
    R:
    """)
    assert fire_targets(st, "b3") == []  # a2 and b1 both hold units


def test_from_a_hill_artillery_fires_over_friendly_units_not_on_a_hill():
    """Hills: "Artillery can fire over friendly units that are in front of them if they are
    on a hill that is higher than the unit they are firing over.\""""
    st = position("""
    r:
    3  .:f  .    .
    2  .:F  .    .
    1  H:A  .    .
    R:
    """)
    assert fire_targets(st, "b2") == ["a3"]
    st = position("""
    r:
    3  .:f  .    .
    2  H:F  .    .
    1  H:A  .    .
    R:
    """)
    assert fire_targets(st, "b2") == []


def test_fire_lands_on_5_or_more_and_every_unit_in_the_area_is_hit():
    """ "Modified D6 die roll score = 5 or more: Artillery fire lands on the target grid area
    ... any unit that is in the grid area in which the artillery fire lands is hit\""""
    st = position("""
    r:
    3  .:f,f  .    .
    2  .      .    .
    1  .:A    .    .
    R:
    """)
    st, ev = act(st, "fire", unit="b1", target="a3")
    assert st.pending == {"type": "roll", "seat": "chance", "for": "fire", "dice": 1}
    st1, ev = roll(st, 5)
    assert last(ev, "dice_rolled")["result"] == "lands"
    assert [e["unit"] for e in ev if e["type"] == "unit_hit"] == ["r1"]
    st1, ev = roll(st1, 1)  # r1's hit roll: loses 1 SP
    assert [e["unit"] for e in ev if e["type"] == "unit_hit"] == ["r2"]
    st2, ev = roll(st, 4)
    assert last(ev, "dice_rolled")["result"] == "ineffective" and "unit_hit" not in kinds(ev)


def test_minus_1_against_cover_and_plus_1_with_the_general():
    """ "Increase the D6 die roll score by 1 if a friendly General is in the same grid area
    as the artillery unit.  Reduce the D6 die roll score by 1 if the target is in cover or
    fortifications.\""""
    st = position("""
    r:
    3  W:f  .    .
    2  .    .    .
    1  .:A  .    .
    R:
    """)
    st, _ = act(st, "fire", unit="b1", target="a3")
    st, ev = roll(st, 5)
    r = last(ev, "dice_rolled")
    assert r["modifiers"] == [["target in cover", -1]] and r["score"] == 4
    st = position("""
    r:
    3  B:f  .    .
    2  .    .    .
    1  .:A,G  .    .
    R:
    """)
    st, _ = act(st, "fire", unit="b1", target="a3")
    st, ev = roll(st, 4)
    r = last(ev, "dice_rolled")
    assert r["score"] == 4 and r["result"] == "ineffective"


def test_hill_cover_against_artillery_is_an_option():
    board = """
    r:
    3  H:f  .    .
    2  .    .    .
    1  .:A  .    .
    R:
    """
    for on, score in ((False, 5), (True, 4)):
        st = position(board, options={"hill_cover_vs_artillery": on})
        st, _ = act(st, "fire", unit="b1", target="a3")
        st, ev = roll(st, 5)
        assert last(ev, "dice_rolled")["score"] == score


def test_plus_1_for_the_same_stationary_target_as_the_previous_turn():
    """ "Increase the D6 die roll score by 1 if the artillery unit has fired at the same
    stationary target during the previous turn.\""""
    board = """
    r:
    3  .:f  .    .
    2  .    .    .
    1  .:A  .    .
    R:
    """
    st = position(board, turn=2, first="BLUE")
    st, _ = act(st, "fire", unit="b1", target="a3")
    st, _ = roll(st, 1)  # BLUE's phase ends by itself
    assert st.active == "RED"
    st, _ = act(st, "end_phase")  # RED's phase: nothing moves
    st, _ = roll(st, 6, 1)  # turn 3
    st, _ = act(st, "choose_first", first="BLUE")
    st2, _ = act(st, "fire", unit="b1", target="a3")
    st2, ev = roll(st2, 4)
    assert last(ev, "dice_rolled")["modifiers"] == [["same stationary target", 1]]
    # the target moved away and back: no longer stationary
    st.units["r1"].moves += 2
    st3, _ = act(st, "fire", unit="b1", target="a3")
    st3, ev = roll(st3, 4)
    assert last(ev, "dice_rolled")["modifiers"] == []


def test_a_general_alone_is_no_target_and_does_not_block_sight():
    """Only units are fired at ("any unit that is in the grid area ... is hit"); a General
    standing alone is neither a target nor a unit "between" (house rule)."""
    st = position("""
    r:
    3  .:f  .    .
    2  .:g  .    .
    1  .:A  .    .
    R:
    """)
    assert fire_targets(st, "b1") == ["a3"]
