"""Movement (003) and the battlefield's General rules."""

from engine.rulesets.portable.textboard import position

from .helpers import R, act, last, moves_of, refused, roll


def test_foot_and_artillery_move_1_area_mounted_and_generals_2():
    """ "Foot units 1 grid area / Artillery units 1 grid area / Mounted units 2 grid areas /
    Generals 2 grid areas\""""
    st = position("""
    r:
    3  .    .    .
    2  .    .    .
    1  .:F  .:A  .:M,G
    R:
    """)
    assert moves_of(st, "b1") == ["a2", "b1"]
    assert moves_of(st, "b2") == ["a1", "b2", "c1"]
    assert moves_of(st, "b3") == ["a1", "b1", "b2", "c2", "c3"]
    assert moves_of(st, "bG") == ["a1", "b1", "b2", "c2", "c3"]


def test_reserve_units_may_enter_any_own_baseline_area_and_never_go_back():
    """ "Units in the Reserve Area may move into any of their side's baseline squares.\""""
    st = position("""
    r:
    3  .    .    .
    2  .    .    .
    1  .    .:F  .
    R: F,M
    """)
    assert moves_of(st, "b2") == ["a1", "b1", "c1"]
    assert moves_of(st, "b3") == ["a1", "a2", "b1", "b2", "c1", "c2"]
    assert "blue_reserve" not in moves_of(st, "b1")


def test_stacking_and_interpenetration():
    """ "No more than two units and a General may occupy the same grid area.  Units may
    interpenetrate friendly units.\""""
    st = position("""
    r:
    3  .    .    .
    2  .    .:F,F .
    1  .    .:M  .
    R:
    """)
    assert moves_of(st, "b3") == ["a1", "a2", "b3", "c1", "c2"]  # through b2 (full) to b3


def test_enemy_areas_block_movement():
    st = position("""
    r:
    3  .    .    .
    2  .    .:f  .
    1  .    .:M  .
    R:
    """)
    assert moves_of(st, "b1") == ["a1", "a2", "c1", "c2"]


def test_a_unit_must_stop_as_soon_as_it_enters_a_wood():
    """ "A unit must stop as soon as it enters a wood.\""""
    st = position("""
    r:
    3  .    .    .
    2  W    .    .
    1  .:M  .    .
    R:
    """)
    assert moves_of(st, "b1") == ["a2", "b1", "b2", "c1"]  # not a3 through the wood


def test_a_unit_moving_through_a_wood_moves_at_most_1_area():
    """ "A unit moving through a wood has a maximum movement rate of 1 grid area per turn.\""""
    st = position("""
    r:
    3  .    .    .
    2  W:M  .    .
    1  .    .    .
    R:
    """)
    assert moves_of(st, "b1") == ["a1", "a3", "b2"]


def test_units_involved_in_combat_may_not_move_but_supports_can():
    """ "Units involved in combat may not move, but units moving up to support them can.\""""
    st = position("""
    r:
    3  .    .    .
    2  .    .:f  .
    1  .    .:F  .:F
    R:
    """)
    st, _ = act(st, "attack", unit="b1", target="r1")
    st, _ = roll(st, 6, 6)
    assert st.units["b1"].engaged == ("r1",)
    assert moves_of(st, "b1") == []
    refused(st, "illegal_move", "move", unit="b1", to="a1")
    assert "b1" in moves_of(st, "b2")  # c1 -> b1 to support


def test_a_unit_not_engaged_may_leave_an_enemy():
    st = position("""
    r:
    3  .    .    .
    2  .    .:f  .
    1  .    .:F  .
    R:
    """)
    assert moves_of(st, "b1") == ["a1", "c1"]


def test_river_crossing_stops_a_unit_option():
    """The river (set-up roll 6) has no stated effect; option ``river_crossing_stops``
    (default on): a unit crossing it stops beyond it."""
    board = """
    r:
    3  .    .    .
    2  .    .    .
    1  .:M  .    .
    R:
    """
    assert moves_of(position(board, river="1-2"), "b1") == ["a2", "b1", "b2", "c1"]
    assert moves_of(
        position(board, river="1-2", options={"river_crossing_stops": False}), "b1"
    ) == ["a2", "a3", "b1", "b2", "c1"]


def test_a_general_left_alone_is_captured_by_an_enemy_unit_entering_his_area():
    st = position("""
    r:
    3  .    .    .
    2  .:g  .    .
    1  .:F  .    .
    R:
    """)
    st, ev = act(st, "move", unit="b1", to="a2")
    assert last(ev, "general_captured")["unit"] == "rG" and st.units["rG"].lost


def test_each_unit_moves_once_per_phase_and_artillery_may_not_move_and_fire():
    """ "Artillery may not move and fire during the same turn.\""""
    st = position("""
    r:
    3  .:f  .    .
    2  .    .    .
    1  .:A  .    .
    R:
    """)
    assert R.legal_actions(st, "BLUE")[-2]["type"] == "fire"
    st, _ = act(st, "move", unit="b1", to="b1")
    assert moves_of(st, "b1") == []
    assert not [a for a in R.legal_actions(st, "BLUE") if a["type"] == "fire"]


def test_moving_the_general_uses_an_activation():
    st = position(
        """
    r:
    3  .    .    .
    2  .    .    .
    1  .:F,G  .    .
    R:
    """,
        activations=1,
    )
    st, ev = act(st, "move", unit="bG", to="b2")
    assert last(ev, "unit_activated")["left"] == 0 and st.units["bG"].area == "b2"
