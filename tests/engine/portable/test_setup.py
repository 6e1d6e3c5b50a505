"""Setting up the battlefield and Deployment (003), played as chance steps and decisions."""

import pytest

from .helpers import R, act, kinds, last, refused, roll


def fresh(seed=1, **options):
    return R.new_game(seed, options)


def test_both_sides_throw_a_d6_the_highest_is_the_attacker():
    """ "Before the battle begins, both sides throw a D6.  The side with the highest D6 die
    score is deemed to be the attacker."  Dice are [RED, BLUE]."""
    st = fresh()
    assert R.to_act(st) == ["chance"] and st.pending["for"] == "attacker"
    st2, ev = roll(st, 2, 5)
    assert st2.attacker == "BLUE" and st2.defender == "RED"
    assert last(ev, "attacker_chosen") == {
        "type": "attacker_chosen",
        "attacker": "BLUE",
        "defender": "RED",
    }
    st3, _ = roll(st, 6, 1)
    assert st3.attacker == "RED"


def test_tied_attacker_dice_are_rethrown():
    """ "(Any tied D6 dice scores are rethrown.)\""""
    st, ev = roll(fresh(), 4, 4)
    assert st.attacker is None and st.pending["for"] == "attacker"
    assert last(ev, "dice_rolled")["result"] == "tie"
    st, _ = roll(st, 3, 4)
    assert st.attacker == "BLUE"


def test_sample_chance_does_not_advance_the_rng_and_a_roll_does():
    st = fresh(7)
    a = R.sample_chance(st)
    assert R.sample_chance(st) == a and a["seat"] == "chance" and len(a["dice"]) == 2
    st2, _ = R.apply(st, a)
    assert st2.rng.counter == st.rng.counter + 2


def to_terrain(attacker="BLUE"):
    st, _ = roll(fresh(), *((1, 6) if attacker == "BLUE" else (6, 1)))
    assert st.pending["for"] == "terrain"
    return st


def test_terrain_1_flat_no_feature():
    """ "1: Flat terrain with no significant features\""""
    st, _ = roll(to_terrain(), 1)
    assert st.terrain == {} and st.river is None
    assert st.pending == {"type": "deploy", "seat": "RED"}


@pytest.mark.parametrize("die", [2, 3])
def test_terrain_2_or_3_hill_in_a_defender_baseline_area(die):
    """ "2 or 3: The defender places a hill in one of their baseline grid areas."  RED
    defends: its baseline is rank 3."""
    st, _ = roll(to_terrain(), die)
    assert st.pending["type"] == "place_terrain" and st.pending["seat"] == "RED"
    assert st.pending["feature"] == "hill" and st.pending["options"] == ["a3", "b3", "c3"]
    refused(st, "illegal_action", "place_terrain", at="b2")
    st, ev = act(st, "place_terrain", at="b3")
    assert st.terrain == {"b3": "hill"} and st.pending == {"type": "deploy", "seat": "RED"}


def test_terrain_4_built_up_area_in_a_defender_baseline_area():
    """ "4: The defender places a built-up area in one of their baseline grid areas."
    BLUE defends: baseline rank 1."""
    st, _ = roll(to_terrain("RED"), 4)
    assert st.pending["feature"] == "built_up" and st.pending["options"] == ["a1", "b1", "c1"]
    st, _ = act(st, "place_terrain", at="a1")
    assert st.terrain == {"a1": "built_up"}


def test_terrain_5_wood_in_the_left_or_right_baseline_area():
    """ "5: The defender places a wood in either the left or right-hand grid area of their
    baseline.\""""
    st, _ = roll(to_terrain(), 5)
    assert st.pending["feature"] == "wood" and st.pending["options"] == ["a3", "c3"]


def test_terrain_6_river_then_a_further_d6():
    """ "6: The defender places a river parallel to their baseline and throws a further D6
    die to determine the placement of another terrain feature."  The river lies on the
    line between two ranks, the defender's choice."""
    st, _ = roll(to_terrain(), 6)
    assert st.pending["feature"] == "river" and st.pending["options"] == ["1-2", "2-3"]
    st, _ = act(st, "place_terrain", at="2-3")
    assert st.river == "2-3" and st.pending["for"] == "terrain2"
    st, _ = roll(st, 4)
    assert st.pending["feature"] == "built_up"
    st, _ = act(st, "place_terrain", at="c3")
    assert st.terrain == {"c3": "built_up"} and st.pending["type"] == "deploy"


def test_second_terrain_die_of_6_adds_nothing():
    """ "If the second D6 die score is 6, no further terrain features are added.\""""
    st, _ = roll(to_terrain(), 6)
    st, _ = act(st, "place_terrain", at="1-2")
    st, ev = roll(st, 6)
    assert st.terrain == {} and st.river == "1-2" and st.pending["type"] == "deploy"
    assert last(ev, "dice_rolled")["result"] == "nothing"


def deployed_defender(st):
    """RED defends: every piece on its baseline, two per area, the General in b3."""
    for uid, to in (
        ("r1", "a3"),
        ("r2", "a3"),
        ("r3", "b3"),
        ("r4", "b3"),
        ("r5", "c3"),
        ("r6", "red_reserve"),
        ("rG", "b3"),
    ):
        st, ev = act(st, "deploy", unit=uid, to=to)
        assert last(ev, "unit_deployed")["to"] == to
    return st


def test_deployment_defender_then_attacker_then_defender_moves_one_unit():
    """ "The defender places all their units on the battlefield.  The attacker then places
    all their units.  The defender may then move one of their units to a new position."
    Each side deploys on its baseline or in its Reserve Area; stacking applies."""
    st, _ = roll(to_terrain(), 1)
    assert R.to_act(st) == ["RED"]
    refused(st, "illegal_deployment", "deploy", unit="r1", to="b2")  # not its zone
    refused(st, "not_your_turn", "deploy", unit="b1", to="a1", seat="BLUE")
    st = deployed_defender(st)
    refused(st, "illegal_deployment", "deploy", unit="b1", to="a3", seat="BLUE")
    assert R.to_act(st) == ["BLUE"]
    for uid, to in (
        ("b1", "a1"),
        ("b2", "a1"),
        ("b3", "b1"),
        ("b4", "c1"),
        ("b5", "c1"),
        ("b6", "blue_reserve"),
        ("bG", "b1"),
    ):
        refused(st, "not_your_turn", "deploy", unit="r6", to="c3", seat="RED")
        st, _ = act(st, "deploy", unit=uid, to=to)
    assert st.pending == {"type": "redeploy", "seat": "RED"}
    acts = R.legal_actions(st, "RED")
    assert {"type": "pass", "seat": "RED"} in acts
    assert {"type": "redeploy", "seat": "RED", "unit": "r6", "to": "c3"} in acts
    assert not any(
        a.get("to") == "a3" and a["unit"] != "rG" for a in acts if a["type"] == "redeploy"
    )
    st, ev = act(st, "redeploy", unit="r6", to="c3")
    assert st.units["r6"].area == "c3"
    assert "turn_started" in kinds(ev) and st.turn == 1 and st.pending["for"] == "initiative"


def test_stacking_two_units_and_a_general_when_deploying():
    """ "No more than two units and a General may occupy the same grid area.\""""
    st, _ = roll(to_terrain(), 1)
    st, _ = act(st, "deploy", unit="r1", to="a3")
    st, _ = act(st, "deploy", unit="r2", to="a3")
    refused(st, "illegal_deployment", "deploy", unit="r3", to="a3")
    st, _ = act(st, "deploy", unit="rG", to="a3")
    st, _ = act(st, "deploy", unit="r3", to="red_reserve")
    st, _ = act(st, "deploy", unit="r4", to="red_reserve")
    st, _ = act(st, "deploy", unit="r5", to="red_reserve")
    assert [u.area for u in st.side_units("RED", generals=True)].count("red_reserve") == 3
