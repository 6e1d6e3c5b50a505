"""Close Combat rules (003).  Dice of a close combat are [attacker, defender]."""

from engine.rulesets.portable.textboard import position

from .helpers import R, act, attacks_of, kinds, last, refused, roll


def fight(board, attacker, target, dice, **kw):
    st = position(board, **kw)
    st, _ = act(st, "attack", unit=attacker, target=target)
    assert st.pending == {"type": "roll", "seat": "chance", "for": "close_combat", "dice": 2}
    st, ev = roll(st, *dice)
    return st, last(ev, "dice_rolled"), ev


def test_close_combat_only_between_adjacent_areas_and_not_by_artillery():
    """ "Other than artillery, all combat takes place between units in adjacent grid areas.\""""
    st = position("""
    r:
    3  .:f  .    .
    2  .    .:f  .
    1  .:F  .:A  .
    R:
    """)
    assert attacks_of(st, "b1") == []  # a3 is two areas away; b2 is diagonal
    assert attacks_of(st, "b2") == []  # artillery fires, it does not close
    assert [a["target"] for a in R.legal_actions(st, "BLUE") if a["type"] == "fire"] == [
        "b2"
    ]  # b2 hides a3


def test_only_one_unit_in_an_area_may_fight_an_adjacent_area():
    """ "Only one unit in a grid area may fight an enemy unit in an adjacent grid area.\""""
    st = position("""
    r:
    3  .    .    .
    2  .:f,f .   .
    1  .:F,F .   .
    R:
    """)
    assert attacks_of(st, "b1") == ["r1", "r2"] and attacks_of(st, "b2") == ["r1", "r2"]
    st, _ = act(st, "attack", unit="b1", target="r1")
    st, _ = roll(st, 6, 6)
    assert attacks_of(st, "b2") == []
    refused(st, "illegal_target", "attack", unit="b2", target="r2")


def test_a_hit_on_2_or_less_and_unaffected_on_3_or_more():
    """ "Modified D6 die roll score = 2 or less: The unit is hit.  3 or more: unaffected.\""""
    board = """
    r:
    3  .    .    .
    2  .:f  .    .
    1  .:F  .    .
    R:
    """
    st, r, ev = fight(board, "b1", "r1", [3, 2])
    assert r["hit"] == ["r1"] and last(ev, "unit_hit")["unit"] == "r1"
    st, r, ev = fight(board, "b1", "r1", [2, 1])
    assert r["hit"] == ["r1", "b1"]  # the defender's hit is resolved first
    st, r, ev = fight(board, "b1", "r1", [3, 3])
    assert r["hit"] == [] and "unit_hit" not in kinds(ev)


def test_same_type_support_and_general_plus_1():
    """ "Increase the D6 die roll score by 1 if a friendly unit of the same type is in the
    same grid area ... by 1 if a friendly General is in the same grid area\""""
    st, r, _ = fight(
        """
    r:
    3  .    .    .
    2  .:f,a  .    .
    1  .:F,F,G  .    .
    R:
    """,
        "b1",
        "r1",
        [1, 2],
    )
    assert r["modifiers"]["b1"] == [["same-type support", 1], ["General present", 1]]
    assert r["modifiers"]["r1"] == []  # artillery is not the same type
    assert r["score"] == {"b1": 3, "r1": 2} and r["hit"] == ["r1"]


def test_flank_and_rear_attacks():
    """ "Increase the D6 die roll score of the unit initiating the Close Combat by 1 if the
    attack is being made against the flank or rear of an enemy unit.  Reduce the D6 die
    roll score by 1 if the unit is being attacked in the flank or rear."  A unit faces the
    enemy baseline: from beside it is a flank attack, from behind a rear attack."""
    st, r, _ = fight(
        """
    r:
    3  .    .    .
    2  .:M  .:f  .
    1  .    .    .
    R:
    """,
        "b1",
        "r1",
        [3, 3],
    )
    assert r["modifiers"] == {"b1": [["flank attack", 1]], "r1": [["attacked in the flank", -1]]}
    st, r, _ = fight(
        """
    r:
    3  .    .:M  .
    2  .    .:f  .
    1  .    .    .
    R:
    """,
        "b1",
        "r1",
        [3, 3],
    )
    assert r["modifiers"] == {"b1": [["rear attack", 1]], "r1": [["attacked in the rear", -1]]}
    st, r, _ = fight(
        """
    r:
    3  .    .    .
    2  .    .:f  .
    1  .    .:F  .
    R:
    """,
        "b1",
        "r1",
        [3, 3],
    )
    assert r["modifiers"] == {"b1": [], "r1": []}
    st, r, _ = fight(
        """
    r:
    3  .    .    .
    2  .:M  .:f  .
    1  .    .    .
    R:
    """,
        "b1",
        "r1",
        [3, 3],
        options={"flank_attacks": False},
    )
    assert r["modifiers"] == {"b1": [], "r1": []}


def test_enemy_uphill_or_in_cover_minus_1():
    """ "Reduce the D6 die roll score by 1 if the enemy unit is uphill or in cover.\""""
    for ter in ("H", "W", "B"):
        st, r, _ = fight(
            f"""
        r:
        3  .    .    .
        2  {ter}:f  .    .
        1  .:F  .    .
        R:
        """,
            "b1",
            "r1",
            [3, 3],
        )
        assert r["modifiers"] == {"b1": [["enemy uphill or in cover", -1]], "r1": []}
    st, r, _ = fight(
        """
    r:
    3  .    .    .
    2  H:f  .    .
    1  H:F  .    .
    R:
    """,
        "b1",
        "r1",
        [3, 3],
    )
    assert r["modifiers"] == {"b1": [], "r1": []}  # both on hills: not uphill


def test_fortifications_minus_1_option():
    """ "Reduce the D6 die roll score by 1 if the enemy unit is fortifications."  Option
    ``built_up_fortified``: a built-up area is a fortification too."""
    st, r, _ = fight(
        """
    r:
    3  .    .    .
    2  B:f  .    .
    1  .:F  .    .
    R:
    """,
        "b1",
        "r1",
        [3, 3],
        options={"built_up_fortified": True},
    )
    assert r["modifiers"]["b1"] == [
        ["enemy uphill or in cover", -1],
        ["enemy in fortifications", -1],
    ]


def test_attacking_across_the_river_option():
    st, r, _ = fight(
        """
    r:
    3  .    .    .
    2  .:f  .    .
    1  .:F  .    .
    R:
    """,
        "b1",
        "r1",
        [3, 3],
        river="1-2",
    )
    assert r["modifiers"] == {"b1": [["attacking across the river", -1]], "r1": []}


def advance_board():
    return position("""
    r:
    3  .:f  .    .
    2  .:f  .    .
    1  .:F  .    .
    R:
    """)


def test_winner_may_advance_into_the_area_and_fight_on():
    """ "Infantry units and cavalry units that win a Close Combat (i.e. because the enemy
    unit has been destroyed or has retreated 1 grid area) can move forward and occupy the
    grid area that was occupied by the enemy unit and can conduct further Close Combats if
    this puts them adjacent to a grid area occupied by an enemy unit.\""""
    st = advance_board()
    st, _ = act(st, "attack", unit="b1", target="r2")
    st, _ = roll(st, 6, 1)  # r2 hit
    st, _ = roll(st, 1)  # average 1: loses 1 SP (stays: no advance)
    assert st.units["r2"].sp == 1 and st.pending["type"] == "activate"
    st = advance_board()
    st, _ = act(st, "attack", unit="b1", target="r2")
    st, _ = roll(st, 6, 1)
    st, _ = roll(st, 6)  # retreat or lose
    assert st.pending == {"type": "hit_choice", "seat": "RED", "unit": "r2", "to": "a3"}
    st, ev = act(st, "retreat")
    assert st.units["r2"].area == "a3"
    assert st.pending == {"type": "advance", "seat": "BLUE", "unit": "b1", "to": "a2"}
    st2, _ = act(st, "stay")
    assert st2.units["b1"].area == "a1"
    st, ev = act(st, "advance")
    assert last(ev, "unit_advanced") == {
        "type": "unit_advanced",
        "unit": "b1",
        "side": "BLUE",
        "from": "a1",
        "to": "a2",
    }
    assert attacks_of(st, "b1") == ["r1", "r2"]
    st, ev = act(st, "attack", unit="b1", target="r1")
    assert "unit_activated" not in kinds(ev)


def test_artillery_winner_does_not_advance():
    st = position(
        """
    r:
    3  .    .    .
    2  .:f  .    .
    1  .:A  .    .
    R:
    """,
        active="RED",
    )
    st, _ = act(st, "attack", unit="r1", target="b1")
    st, _ = roll(st, 1, 6)  # r1 hit, not the artillery
    st, _ = roll(st, 6)
    st, _ = act(st, "retreat")
    assert st.pending["type"] != "advance"
