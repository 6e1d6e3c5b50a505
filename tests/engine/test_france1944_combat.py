"""001 France 1944 Revisions, "Combat Resolution": one test per numbered rule and
worked example, quoting the text (engine/rulesets/france1944/combat.py)."""

import pytest

from engine.core.errors import IllegalAction
from engine.rulesets.france1944 import combat
from engine.rulesets.france1944.tables import (
    COMBAT_TABLE,
    DEFAULT_CONTROL_LIMITS,
    ODDS_LABELS,
    PUBLISHED_ANOMALIES,
)

COL = {label: i for i, label in enumerate(ODDS_LABELS)}


def decl(**kw):
    base = {
        "attackers": ["a1"],
        "hqs": [],
        "attack_hexes": ["0101"],
        "defenders": ["d1"],
        "defence_hexes": ["0102"],
        "attack_strength": 6,
        "defence_strength": 6,
        "attacker_morale": 5,
        "defender_morale": 5,
        "terrain": [],
        "armoured_79th": 0,
        "heavy_bombing": 0,
        "mobile": False,
    }
    base.update(kw)
    return base


# Table 1 --------------------------------------------------------------------------


def test_table_1_as_published_with_roll_6_at_1_1_printed_db():
    """Issue: "roll 6 / 1-1, which the published page prints as "DB"; keep it as
    published" - and the rows of the published table, letter for letter."""
    assert COMBAT_TABLE[0] == ("AA", "AA", "AA", "AA", "AE", "AE", "AE", "BB", "BD")
    assert COMBAT_TABLE[5] == ("AE", "BB", "BB", "BB", "DB", "DF", "CC", "CC", "CC")
    assert combat.table_result(6, COL["1-1"]) == "DB"
    assert (6, "1-1") in PUBLISHED_ANOMALIES
    # the other two cells where the diagonal pattern does not hold, kept as published
    assert combat.table_result(2, COL["3-1"]) == "BB"
    assert combat.table_result(4, COL["2-3"]) == "BB"


def test_first_letter_set_piece_second_letter_mobile():
    """Table 3 heading: "Set-Piece Combat / Mobile Combat"."""
    assert combat.result_letter("BD", mobile=False) == "B"
    assert combat.result_letter("BD", mobile=True) == "D"


# Odds and the first recommendation -------------------------------------------------


@pytest.mark.parametrize(
    "attack,defence,label",
    [
        (6, 6, "1-1"),
        (5, 2, "2-1"),
        (7, 3, "2-1"),
        (5, 4, "1-1"),
        (3, 4, "2-3"),
        (2, 5, "1-3"),
        (2, 8, "1-4"),
        (9, 6, "3-2"),
        (40, 2, "4-1"),
        (11, 3, "3-1"),
    ],
)
def test_odds_rounded_in_the_defenders_favour(attack, defence, label):
    """ "Determine odds according to the standard rules": the ratio rounded down to a
    column (in the defender's favour); above 4-1 the 4-1 column."""
    assert ODDS_LABELS[combat.odds_column(attack, defence)] == label


def test_attacks_below_1_4_are_refused():
    """ "prohibit attacks at less than 1:4 odds"."""
    assert combat.odds_column(1, 5) is None
    with pytest.raises(IllegalAction) as e:
        combat.assess(decl(attack_strength=1, defence_strength=5), {5: 8}, False)
    assert e.value.code == "odds_below_1_4"


def test_attacker_may_use_any_lower_odds_column_as_an_option():
    """ "allow the attacker to use any odds column less than or equal to the computed
    odds ratio instead of mandating that the column for the computed odds ratio be
    used"."""
    assert combat.chosen_odds_column(COL["3-1"], COL["1-1"], True) == COL["1-1"]
    with pytest.raises(IllegalAction) as e:
        combat.chosen_odds_column(COL["1-1"], COL["3-1"], True)
    assert e.value.code == "odds_column_too_high"
    with pytest.raises(IllegalAction) as e:
        combat.chosen_odds_column(COL["3-1"], COL["1-1"], False)
    assert e.value.code == "lower_odds_not_allowed"
    a = combat.assess(
        decl(attack_strength=9, defence_strength=3, odds_column=COL["1-1"]), {5: 8}, True
    )
    assert (a["computed_column"], a["column"], a["final_column"]) == (COL["3-1"], 4, 4)


# Rule 1 ----------------------------------------------------------------------------


@pytest.mark.parametrize("die,mod,adjusted", [(6, 1, 6), (5, 3, 6), (1, -2, 1), (3, -1, 2)])
def test_rule_1_adjusted_die_clamped(die, mod, adjusted):
    """ "Adjusted die rolls greater than 6 are treated as 6 and results lower than 1 are
    treated as 1."""
    assert combat.adjusted_die_roll(die, mod) == adjusted


# Rule 2 ----------------------------------------------------------------------------


def test_rule_2_modifier_minus_3_at_3_2_uses_1_2():
    """ "a combat modifier of -3 at 3-2 odds results in the 1-2 column being used"."""
    assert combat.shift_column(COL["3-2"], -3) == (COL["1-2"], 0)
    a = combat.assess(
        decl(attack_strength=9, defence_strength=6, attacker_morale=2, defender_morale=5),
        {2: 8},
        False,
    )
    assert (a["combat_modifier"], a["final_odds"], a["die_modifier"]) == (-3, "1-2", 0)


def test_rule_2_combat_modifier_is_morale_plus_control():
    """ "Calculate the combat modifier by adding the morale and control modifiers"."""
    assert combat.combat_modifier(2, -1) == 1
    a = combat.assess(
        decl(attackers=[f"a{i}" for i in range(6)], attacker_morale=4, defender_morale=2),
        {4: 4},
        False,
    )
    assert (a["morale_modifier"], a["control_modifier"], a["combat_modifier"]) == (2, -2, 0)


# Rule 3 ----------------------------------------------------------------------------


def test_rule_3_one_to_one_at_plus_5_is_4_1_with_plus_1():
    """ "a 1-1 attack with a combat modifier of +5 results in the 4-1 odds column being
    used to resolve the combat with a +1 die roll modifier"."""
    assert combat.shift_column(COL["1-1"], 5) == (COL["4-1"], 1)
    a = combat.assess(decl(attacker_morale=6, defender_morale=1), {6: 8}, False)
    assert (a["final_odds"], a["die_modifier"]) == ("4-1", 1)
    r = combat.resolve(a, 6, mobile=False)
    assert (r["adjusted_die"], r["cell"], r["result"]) == (6, "CC", "C")


def test_rule_3_one_to_three_at_minus_3_is_1_4_with_minus_2():
    """ "A 1-3 attack with a modifier of -3 results in a 1-4 attack with a -2 die roll
    modifier"."""
    assert combat.shift_column(COL["1-3"], -3) == (COL["1-4"], -2)
    a = combat.assess(
        decl(attack_strength=2, defence_strength=6, attacker_morale=2, defender_morale=5),
        {2: 8},
        False,
    )
    assert (a["final_odds"], a["die_modifier"]) == ("1-4", -2)
    r = combat.resolve(a, 2, mobile=True)
    assert (r["adjusted_die"], r["cell"], r["result"]) == (1, "AA", "A")


# Rule 4 ----------------------------------------------------------------------------


def test_rule_4_attacker_4_defender_5_gives_minus_1():
    """ "an attacker with a morale of 4 and a defender with a morale of 5 results in a
    morale modifier of -1"."""
    assert combat.morale_modifier(4, 5) == -1


def test_rule_4_defender_morale_kept_within_1_and_6():
    """ "The morale of a defender may not be adjusted to a value greater than 6 or less
    than 1 by terrain, air power, or other adjustment"."""
    assert combat.adjusted_defender_morale(6, 2) == 6
    assert combat.adjusted_defender_morale(2, -3) == 1
    a = combat.assess(decl(defender_morale=6, terrain=[2]), {5: 8}, False)
    assert a["defender_morale"] == 6


# Clarification: Morale Adjustment ---------------------------------------------------


def test_only_the_most_favourable_terrain_adjustment():
    """ "a fortress hex containing a city would provide a morale adjustment of +2 ...
    not +1 (for the city) or +3"; "You cannot add a fortress hex modifier to a rough
    terrain modifier to a river modifier to derive a +5"."""
    assert combat.terrain_morale_adjustment([2, 1]) == 2
    assert combat.terrain_morale_adjustment([2, 1, 2]) == 2
    assert combat.terrain_morale_adjustment([]) == 0


def test_79th_armoured_and_heavy_bombing_are_cumulative_within_minus_3_plus_2():
    """ "heavy bombing plus the effects of the 79th would yield a -3 adjustment.  The
    worst possible adjustment to defender morale is -3 and the best possible adjustment
    is +2"."""
    assert combat.defender_morale_adjustment([], -1, -2) == -3
    assert combat.defender_morale_adjustment([], -3, -2) == -3
    assert combat.defender_morale_adjustment([2], -1, 0) == 1
    assert combat.defender_morale_adjustment([2], 0, 0, 0) == 2


# Rule 5 ----------------------------------------------------------------------------


def test_rule_5_control_modifier_is_units_minus_limit_never_positive():
    """ "the control modifier is simply the number of attacking units involved in a
    combat minus the control limit.  The control modifier may never be positive"."""
    assert combat.control_modifier(3, 4) == 0
    assert combat.control_modifier(6, 4) == -2


def test_rule_5_hq_units_are_not_included():
    """ "HQ units are not included in the total"."""
    a = combat.assess(
        decl(attackers=["a1", "a2"], hqs=["HQ1", "HQ2"], attacker_morale=3), {3: 2}, False
    )
    assert a["control_modifier"] == 0


@pytest.mark.parametrize("units", range(1, 9))
def test_rule_5_morale_5_attacker_never_suffers_a_control_penalty(units):
    """ "an attacker with a morale of 5 (control limit of 8) will never suffer a penalty
    because the maximum number of attacking units ... is 8" (the default limit table
    holds that one value)."""
    a = combat.assess(
        decl(attackers=[f"a{i}" for i in range(units)]), DEFAULT_CONTROL_LIMITS, False
    )
    assert a["control_modifier"] == 0


def test_a_morale_without_an_entered_control_limit_is_refused():
    with pytest.raises(IllegalAction) as e:
        combat.assess(decl(attacker_morale=3), {5: 8}, False)
    assert e.value.code == "no_control_limit"


# Alternative CRDT -----------------------------------------------------------------


def test_alternative_crdt_uses_result_columns_one_greater():
    """ "use the result columns for 2 to determine the results for 1, but retain the
    defender morale reference column for 1"; "the ratio result 5 set-piece combat rows
    become D D D D D C and A A A A A B"."""
    ref = combat.alternative_crdt_reference(1)
    assert (ref["result_columns"], ref["morale_reference"]) == (2, 1)
    ref5 = combat.alternative_crdt_reference(5)
    assert ref5["result_columns"] == 5 and ref5["adjusted_rows"] == ["D D D D D C", "A A A A A B"]


def test_alternative_crdt_mode_has_no_shifts():
    """ "can be used in lieu of the original without any additional rule changes"."""
    a = combat.assess(decl(attacker_morale=6, defender_morale=1), {}, False, revised=False)
    assert (a["final_column"], a["die_modifier"]) == (COL["1-1"], 0)


def test_explanation_lines_name_every_step():
    a = combat.assess(
        decl(
            attack_strength=9,
            defence_strength=6,
            attacker_morale=2,
            terrain=[1, 2],
            heavy_bombing=-1,
        ),
        {2: 8},
        False,
    )
    text = "\n".join(a["lines"])
    for part in (
        "Odds 9 : 6 -> 3-2",
        "best only",
        "Morale modifier",
        "Control modifier",
        "Combat modifier",
    ):
        assert part in text
