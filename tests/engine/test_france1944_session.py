"""001 France 1944 Revisions through the ruleset protocol: combat declaration order,
reaction segments (examples 1 and 2), single-piece reaction, HQ errata, air power per
combat increment, fair dice as chance steps, strict actions, random sessions."""

import json
import random

import pytest

import engine.rulesets  # noqa: F401  (fills the registry)
from engine.core.errors import EngineError, IllegalAction
from engine import simulate
from engine.core.ruleset import get

RS = get("france1944")


def act(st, seat, kind, **fields):
    st, _ = RS.apply(st, {"type": kind, "seat": seat, **fields})
    return st


def roll(st, die):
    return act(st, "chance", "roll", dice=[die])


def started(options=None, allied=(5, 2, 4), german=(6, 2)):
    """A session past the turn entries: (reaction points, initiative markers[, air])."""
    st = RS.new_game(7, options or {})
    st = act(
        st,
        "ALLIED",
        "turn_entries",
        reaction_points=allied[0],
        initiative_markers=allied[1],
        air_availability=allied[2],
    )
    return act(
        st, "GERMAN", "turn_entries", reaction_points=german[0], initiative_markers=german[1]
    )


def declaration(n, **kw):
    base = {
        "attackers": [f"a{n}"],
        "attack_hexes": [f"{n}01"],
        "defenders": [f"d{n}"],
        "defence_hexes": [f"{n}02"],
        "attack_strength": 6,
        "defence_strength": 3,
        "attacker_morale": 5,
        "defender_morale": 4,
    }
    base.update(kw)
    return base


def in_increment(st, side="ALLIED", hq="1st Army"):
    st = act(st, side, "begin_initiative_phase", hq=hq)
    return act(st, side, "open_increment")


def kinds(st):
    return [e["type"] for e in st["log"]]


# Combat declaration order (clarification) -------------------------------------------


def test_three_combats_declared_then_resolved_in_the_attackers_order():
    """ "All combats in an attack increment must be declared before being resolved ...
    Combats may be resolved in any order chosen by the attacking player"."""
    st = in_increment(started())
    for n in (1, 2, 3):
        st = act(st, "ALLIED", "declare_combat", **declaration(n))
    with pytest.raises(IllegalAction) as e:
        act(st, "ALLIED", "resolve_combat", combat=1)
    assert e.value.code == "wrong_phase"  # not before all are declared
    st = act(st, "ALLIED", "end_declarations")
    for number, die in ((3, 4), (1, 1), (2, 6)):
        st = act(st, "ALLIED", "resolve_combat", combat=number)
        assert RS.to_act(st) == ["chance"]
        st = roll(st, die)
    resolved = [e for e in st["log"] if e["type"] == "combat_resolved"]
    assert [e["combat"] for e in resolved] == [3, 1, 2]
    assert [e["cell"] for e in resolved] == ["DF", "BB", "CC"]  # 2-1, morale +1 -> 3-1
    assert st["step"] == "phase"


def test_declared_combats_cannot_be_changed_or_cancelled():
    """ "the units involved in a declared combat may not be changed ... a declared
    combat may not be cancelled after it has been declared"."""
    st = in_increment(started())
    st = act(st, "ALLIED", "declare_combat", **declaration(1))
    st = act(st, "ALLIED", "declare_combat", **declaration(2))
    st = act(st, "ALLIED", "end_declarations")
    with pytest.raises(IllegalAction) as e:
        act(st, "ALLIED", "declare_combat", **declaration(3))
    assert e.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as e:
        RS.apply(st, {"type": "cancel_combat", "seat": "ALLIED", "combat": 2})
    assert e.value.code == "unknown_action"
    st = act(st, "ALLIED", "resolve_combat", combat=1)
    st = roll(st, 1)
    with pytest.raises(IllegalAction) as e:  # an increment ends only
        act(st, "ALLIED", "end_phase")  # when all are resolved
    assert e.value.code == "wrong_phase"
    assert [a["type"] for a in RS.legal_actions(st, "ALLIED")] == ["resolve_combat", "air_power"]


def test_a_unit_attacks_in_one_declared_combat_per_increment():
    """ "Declaring a combat requires the specification of which attacking units are
    attacking which defending units"."""
    st = in_increment(started())
    st = act(st, "ALLIED", "declare_combat", **declaration(1))
    with pytest.raises(IllegalAction) as e:
        act(st, "ALLIED", "declare_combat", **declaration(2, attackers=["a1"]))
    assert e.value.code == "unit_already_declared"


def test_at_most_three_hexes_in_a_combat():
    """ "at most 3 hexes can be involved in a combat.  Attackers in two adjacent hexes
    may attack a single mutually adjacent defending hex or attackers in a single hex may
    attack defending units in two mutually adjacent defending hexes"."""
    st = in_increment(started())
    act(
        st,
        "ALLIED",
        "declare_combat",
        **declaration(1, attack_hexes=["0101", "0103"], defence_hexes=["0102"]),
    )
    act(
        st,
        "ALLIED",
        "declare_combat",
        **declaration(1, attack_hexes=["0101"], defence_hexes=["0102", "0202"]),
    )
    with pytest.raises(IllegalAction) as e:
        act(
            st,
            "ALLIED",
            "declare_combat",
            **declaration(1, attack_hexes=["0101", "0103"], defence_hexes=["0102", "0202"]),
        )
    assert e.value.code == "too_many_hexes"


# Reaction Phase: all or nothing -------------------------------------------------------


def after_allied_initiative(st):
    st = act(st, "ALLIED", "begin_initiative_phase", hq="1st Army")
    return act(st, "ALLIED", "end_phase")


def test_example_1_army_reaction_phase_spends_3_and_loses_nothing_more():
    """Example 1: "The German player decides to engage in a Reaction Segment after the
    Allied Initiative Phase.  He engages in an Army Reaction Phase, spending 3 reaction
    points.  He loses no additional reaction points."""
    st = after_allied_initiative(started(german=(6, 1)))
    assert RS.to_act(st) == ["GERMAN"]
    st = act(st, "GERMAN", "engage_reaction")
    st = act(st, "GERMAN", "army_reaction", hq="7th Army")
    st = act(st, "GERMAN", "end_phase")
    assert [a["type"] for a in RS.legal_actions(st, "GERMAN")] == ["end_segment"]
    st = act(st, "GERMAN", "end_segment")
    end = [e for e in st["log"] if e["type"] == "reaction_segment_ended"][-1]
    assert (end["spent"], end["lost"], end["points_left"]) == (3, 0, 3)


def test_example_2_declined_segment_then_allied_single_piece_loses_2():
    """Example 2: "The German player declines to engage in a Reaction Segment after the
    Allied Initiative Phase.  He loses no reaction points.  The Allied player is now
    allowed to engage ... spends 1 reaction point for a Single-Piece Reaction Phase,
    moving an HQ unit using administrative movement.  He declines to spend any more ...
    He immediately loses 2 reaction points (if available), bringing the total spent
    to 3."""
    st = after_allied_initiative(started(allied=(10, 4, 3), german=(6, 1)))
    st = act(st, "GERMAN", "decline_reaction")
    assert st["entries"]["GERMAN"]["reaction_points"] == 6
    assert RS.to_act(st) == ["ALLIED"]
    st = act(st, "ALLIED", "engage_reaction")
    st = act(st, "ALLIED", "single_piece_reaction", unit="Second Army HQ", hq=True)
    st = act(st, "ALLIED", "end_phase")
    st = act(st, "ALLIED", "end_segment")
    end = [e for e in st["log"] if e["type"] == "reaction_segment_ended"][-1]
    assert (end["spent"], end["lost"], end["points_left"]) == (1, 2, 7)


def test_shortfall_forfeits_what_remains_and_sets_the_track_to_0():
    """ "If an insufficient number of reaction points remains to bring the total spent
    to 3, then the remaining reaction points are forfeited and the reaction point track
    is set to 0."""
    st = after_allied_initiative(started(german=(2, 1)))
    st = act(st, "GERMAN", "engage_reaction")
    st = act(st, "GERMAN", "single_piece_reaction", unit="21 Pz")
    st = act(st, "GERMAN", "end_phase")
    st = act(st, "GERMAN", "end_segment")
    assert st["entries"]["GERMAN"]["reaction_points"] == 0


def test_declining_costs_nothing_and_no_points_no_segment():
    """ "If a player declines to engage in a Reaction Segment, then he loses no reaction
    points"; with none, there is nothing to spend."""
    st = after_allied_initiative(started(german=(0, 1)))
    assert [a["type"] for a in RS.legal_actions(st, "GERMAN")] == ["decline_reaction"]
    st = act(st, "GERMAN", "decline_reaction")
    st = act(st, "ALLIED", "decline_reaction")
    assert st["entries"]["ALLIED"]["reaction_points"] == 5
    assert RS.to_act(st) == ["GERMAN"] and st["step"] == "floor"


def test_single_piece_phases_need_different_units_up_to_three():
    """ "up to three Single-Piece Reaction Phases.  No combat or HQ unit may be activated
    more than once during a Reaction Segment"."""
    st = after_allied_initiative(started(german=(9, 1)))
    st = act(st, "GERMAN", "engage_reaction")
    st = act(st, "GERMAN", "single_piece_reaction", unit="21 Pz")
    st = act(st, "GERMAN", "end_phase")
    with pytest.raises(IllegalAction) as e:
        act(st, "GERMAN", "single_piece_reaction", unit="21 Pz")
    assert e.value.code == "unit_already_reacted"
    with pytest.raises(IllegalAction) as e:
        act(st, "GERMAN", "army_reaction", hq="7th Army")
    assert e.value.code == "segment_has_phases"
    for unit in ("12 SS", "Lehr"):
        st = act(st, "GERMAN", "single_piece_reaction", unit=unit)
        st = act(st, "GERMAN", "end_phase")
    with pytest.raises(IllegalAction) as e:
        act(st, "GERMAN", "single_piece_reaction", unit="352")
    assert e.value.code == "too_many_single_piece_phases"
    st = act(st, "GERMAN", "end_segment")
    assert st["entries"]["GERMAN"]["reaction_points"] == 6


def test_out_of_supply_single_piece_costs_a_step_and_hq_may_not():
    """ "Out of supply combat units may move ... or attack using single-piece reaction
    at the cost of being reduced a step before commencing the first increment";
    "Out of supply HQ units may not move ... during a Single-Piece Reaction Phase"."""
    st = after_allied_initiative(started(german=(6, 1)))
    st = act(st, "GERMAN", "engage_reaction")
    with pytest.raises(IllegalAction) as e:
        act(st, "GERMAN", "single_piece_reaction", unit="LXXXIV HQ", hq=True, out_of_supply=True)
    assert e.value.code == "hq_out_of_supply"
    st = act(st, "GERMAN", "single_piece_reaction", unit="91 LL", out_of_supply=True)
    assert kinds(st)[-1] == "out_of_supply_step_loss"
    assert st["log"][-1]["unit"] == "91 LL"


# Official errata: HQ activation --------------------------------------------------------


def test_no_hq_activated_more_than_twice_per_turn():
    """ "No Headquarters unit may be activated more than twice per game turn"
    (game turn 1: twice in a row allowed)."""
    st = started(allied=(0, 4, 3), german=(0, 4))
    for _ in range(2):
        st = act(st, "ALLIED", "begin_initiative_phase", hq="1st Army")
        st = act(st, "ALLIED", "end_phase")
        st = act(st, "GERMAN", "decline_reaction")
        st = act(st, "ALLIED", "decline_reaction")
        st = act(st, "GERMAN", "pass")
    with pytest.raises(IllegalAction) as e:
        act(st, "ALLIED", "begin_initiative_phase", hq="1st Army")
    assert e.value.code == "hq_activated_twice"


def test_no_hq_twice_in_a_row_except_on_turn_1():
    """ "On all game turns, except game turn one, a Headquarters unit may not be
    activated twice in a row.  Another friendly Headquarters unit must be activated
    between"."""
    st = started(options={"turns": 3}, allied=(0, 0, 3), german=(0, 0))
    st = act(st, "ALLIED", "pass")
    st = act(st, "GERMAN", "pass")
    assert st["turn"] == 2
    st = act(
        st, "ALLIED", "turn_entries", reaction_points=0, initiative_markers=3, air_availability=2
    )
    st = act(st, "GERMAN", "turn_entries", reaction_points=0, initiative_markers=0)

    def cycle(s, hq):
        s = act(s, "ALLIED", "begin_initiative_phase", hq=hq)
        s = act(s, "ALLIED", "end_phase")
        s = act(s, "GERMAN", "decline_reaction")
        s = act(s, "ALLIED", "decline_reaction")
        return act(s, "GERMAN", "pass")

    st = cycle(st, "1st Army")
    with pytest.raises(IllegalAction) as e:
        act(st, "ALLIED", "begin_initiative_phase", hq="1st Army")
    assert e.value.code == "hq_activated_in_a_row"
    st = cycle(st, "2nd Army")
    st = act(st, "ALLIED", "begin_initiative_phase", hq="1st Army")


# Air power per combat increment --------------------------------------------------------


def test_air_power_one_roll_per_combat_increment_against_the_entered_availability():
    """ "roll during each Combat Increment you try to use air power.  The Allied player
    may try to use air power for one combat situation in each Combat Increment ...
    If the roll succeeds, air power may be allocated to the designated combat
    situation ... Another roll may not be made until the next Combat Increment"."""
    st = in_increment(started(allied=(5, 2, 4)))
    st = act(st, "ALLIED", "declare_combat", **declaration(1, defender_morale=4))
    st = act(st, "ALLIED", "declare_combat", **declaration(2))
    st = act(st, "ALLIED", "end_declarations")
    st = act(st, "ALLIED", "air_power", combat=1, morale_adjustment=-2)
    assert RS.to_act(st) == ["chance"]
    st = roll(st, 4)  # 4 <= availability 4
    assert st["log"][-1]["available"] is True
    combat1 = st["increment"]["combats"][0]
    assert combat1["assessment"]["defender_morale"] == 2  # 4 - 2
    with pytest.raises(IllegalAction) as e:
        act(st, "ALLIED", "air_power", combat=2, morale_adjustment=-1)
    assert e.value.code == "air_power_tried"


def test_failed_air_power_roll_changes_nothing():
    st = in_increment(started(allied=(5, 2, 3)))
    st = act(st, "ALLIED", "declare_combat", **declaration(1))
    st = act(st, "ALLIED", "end_declarations")
    before = st["increment"]["combats"][0]["assessment"]
    st = act(st, "ALLIED", "air_power", combat=1, morale_adjustment=-2)
    st = roll(st, 5)
    assert st["log"][-1]["available"] is False
    assert st["increment"]["combats"][0]["assessment"] == before


def test_only_the_allies_roll_for_air_power():
    st = started()
    st = act(st, "ALLIED", "pass")
    st = act(act(st, "GERMAN", "begin_initiative_phase", hq="7th Army"), "GERMAN", "open_increment")
    st = act(st, "GERMAN", "declare_combat", **declaration(1))
    st = act(st, "GERMAN", "end_declarations")
    with pytest.raises(IllegalAction) as e:
        act(st, "GERMAN", "air_power", combat=1, morale_adjustment=-1)
    assert e.value.code == "air_power_is_allied"


# Fair dice: explicit chance steps --------------------------------------------------------


def test_dice_are_chance_steps_from_the_state_rng():
    st = in_increment(started())
    st = act(st, "ALLIED", "declare_combat", **declaration(1))
    st = act(st, "ALLIED", "end_declarations")
    st = act(st, "ALLIED", "resolve_combat", combat=1)
    assert RS.is_chance(st)
    sample = RS.sample_chance(st)
    assert sample == RS.sample_chance(st)  # does not advance the RNG
    assert sample["seat"] == "chance" and 1 <= sample["dice"][0] <= 6
    after, _ = RS.apply(st, sample)
    assert after["rng"][1] == st["rng"][1] + 1
    assert [e for e in after["log"] if e["type"] == "combat_resolved"][-1]["die"] == sample["dice"][
        0
    ]


def test_alternative_crdt_session_asks_the_ratio_result():
    st = in_increment(started({"alternative_crdt": True}))
    st = act(st, "ALLIED", "declare_combat", **declaration(1, attacker_morale=3))
    st = act(st, "ALLIED", "end_declarations")
    st = act(st, "ALLIED", "resolve_combat", combat=1)
    st = roll(st, 3)
    assert st["step"] == "ratio_result" and RS.to_act(st) == ["ALLIED"]
    st = act(st, "ALLIED", "enter_ratio_result", ratio_result=2)
    last = st["log"][-2]
    assert (last["type"], last["result_columns"], last["morale_reference"]) == (
        "ratio_result_entered",
        3,
        2,
    )


# Strict actions, options, snapshots -----------------------------------------------------


@pytest.mark.parametrize(
    "action,code",
    [
        ({"type": "declare_combat", "seat": "ALLIED", **declaration(1), "foo": 1}, "unknown_field"),
        (
            {"type": "declare_combat", "seat": "ALLIED", **declaration(1, attack_strength=0)},
            "bad_value",
        ),
        (
            {
                "type": "declare_combat",
                "seat": "ALLIED",
                **declaration(1, attackers=[f"u{i}" for i in range(9)]),
            },
            "bad_value",
        ),
        ({"type": "declare_combat", "seat": "ALLIED", **declaration(1, terrain=[3])}, "bad_value"),
        (
            {"type": "declare_combat", "seat": "ALLIED", **declaration(1, defender_morale=7)},
            "bad_value",
        ),
        ({"type": "roll", "seat": "chance", "dice": [7]}, "bad_value"),
        (
            {
                "type": "turn_entries",
                "seat": "ALLIED",
                "reaction_points": -1,
                "initiative_markers": 1,
            },
            "bad_value",
        ),
        ({"type": "begin_initiative_phase", "seat": "ALLIED"}, "missing_field"),
        ({"type": "nope", "seat": "ALLIED"}, "unknown_action"),
        ("declare", "malformed_action"),
    ],
)
def test_canonical_action_is_strict(action, code):
    with pytest.raises(IllegalAction) as e:
        RS.canonical_action(RS.new_game(1), action)
    assert e.value.code == code


def test_options_checked_and_defaults():
    st = RS.new_game(1)
    assert st["options"]["control_limits"] == {"5": 8}
    assert st["options"]["attacker_may_choose_lower_odds"] is False
    for bad in (
        {"nope": True},
        {"control_limits": {"9": 3}},
        {"turns": 0},
        {"result_meanings": {"Z": "x"}},
    ):
        with pytest.raises(EngineError):
            RS.new_game(1, bad)
    assert RS.new_game(1, {"turns": "4", "control_limits": True})["options"]["turns"] == 4
    assert all(o["implemented"] for o in RS.options())
    st = RS.new_game(
        1,
        {
            "control_limits": {"3": 4, "5": 8, "6": None},
            "result_meanings": {"A": "attacker loses a step"},
        },
    )
    assert st["options"]["control_limits"] == {"3": 4, "5": 8}


def test_result_meaning_shown_with_the_letter():
    st = in_increment(started({"result_meanings": {"B": "meaning entered for B"}}))
    st = act(st, "ALLIED", "declare_combat", **declaration(1))
    st = roll(act(act(st, "ALLIED", "end_declarations"), "ALLIED", "resolve_combat", combat=1), 1)
    ev = [e for e in st["log"] if e["type"] == "combat_resolved"][-1]
    assert (ev["result"], ev["meaning"]) == ("B", "meaning entered for B")


def test_spectators_and_players_see_the_same_log():
    st = in_increment(started())
    st = act(st, "ALLIED", "declare_combat", **declaration(1))
    views = [RS.view_for(st, s) for s in ("ALLIED", "GERMAN", None)]
    assert views[0]["log"] == views[1]["log"] == views[2]["log"]
    assert any(e["type"] == "combat_declared" for e in views[2]["log"])


def test_snapshot_round_trip_through_json():
    st = in_increment(started({"control_limits": {"4": 6, "5": 8}}))
    data = json.loads(json.dumps(RS.dump_state(st)))
    assert RS.load_state(data) == st
    again = act(
        RS.load_state(data), "ALLIED", "declare_combat", **declaration(1, attacker_morale=4)
    )
    assert again == act(st, "ALLIED", "declare_combat", **declaration(1, attacker_morale=4))
    json.dumps(RS.view_for(again, None))
    json.dumps(RS.board(again))
    with pytest.raises(EngineError):
        RS.load_state({**data, "version": "0"})


# Random sessions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"turns": 3},
        {"turns": 2, "alternative_crdt": True},
        {"turns": 2, "attacker_may_choose_lower_odds": True},
    ],
)
def test_random_sessions_end_replay_and_never_mutate_their_input(options):
    for seed in (1, 2, 3):
        st = RS.new_game(seed, options)
        rng = random.Random(seed)
        actions = []
        while not RS.is_over(st):
            if RS.is_chance(st):
                action = RS.sample_chance(st)
            else:
                seat = RS.to_act(st)[0]
                legal = RS.legal_actions(st, seat)
                assert legal, st["step"]
                action = rng.choice(legal)
            frozen = RS.dump_state(st)
            st, _ = RS.apply(st, action)
            assert RS.dump_state(RS.load_state(frozen)) == frozen
            actions.append(RS.canonical_action(st, action))
            assert len(actions) < 5000
        again = RS.new_game(seed, options)
        for action in actions:
            again, _ = RS.apply(again, action)
        assert again == st
        assert json.loads(json.dumps(RS.dump_state(st))) == st  # JSON-exact state
        assert RS.result(st)["reason"] == "session_over"


def test_simulate_cli_runs_random_sessions_to_an_end():
    """``python -m engine simulate --ruleset france1944``: random sessions end, no error."""
    out = simulate.run(None, 2, 5, 200, {"turns": 2}, "france1944")
    assert (out["finished"], out["errors"], out["turn_limit"]) == (2, 0, 0)


def test_preview_assesses_a_declaration_without_applying_it():
    st = in_increment(started())
    out = RS.preview(st, {"type": "declare_combat", **declaration(1)})
    assert out["assessment"]["final_odds"] == "3-1"
    assert st == in_increment(started())
    with pytest.raises(IllegalAction) as e:
        RS.preview(
            st, {"type": "declare_combat", **declaration(1, attack_strength=1, defence_strength=5)}
        )
    assert e.value.code == "odds_below_1_4"
    with pytest.raises(IllegalAction) as e:
        RS.preview(st, {"type": "pass"})
    assert e.value.code == "no_preview"
