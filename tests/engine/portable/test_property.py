"""Properties: random legal play finishes, replay equals live, apply never mutates its
input, snapshots round-trip, canonical actions are strict."""

import json
import random

import pytest

from engine.core import ruleset
from engine.core.errors import EngineError, IllegalAction

from .helpers import R, roll


def random_game(seed, options=None):
    st = R.new_game(seed, options)
    rnd = random.Random(seed)
    actions = []
    while not R.is_over(st):
        if R.is_chance(st):
            a = R.sample_chance(st)
        else:
            a = rnd.choice(R.legal_actions(st, R.to_act(st)[0]))
        before = json.dumps(R.dump_state(st), sort_keys=True)
        new, ev = R.apply(st, a)
        assert json.dumps(R.dump_state(st), sort_keys=True) == before, a
        json.dumps(ev)
        actions.append(R.canonical_action(st, a))
        st = new
        assert len(actions) < 5000
    return st, actions


@pytest.mark.parametrize("seed", range(6))
def test_random_legal_play_finishes_and_replay_equals_live(seed):
    st, actions = random_game(seed)
    assert R.is_over(st) and R.result(st)["reason"]
    again = R.new_game(seed)
    for a in actions:
        again, _ = R.apply(again, json.loads(json.dumps(a)))
    assert R.dump_state(again) == R.dump_state(st)
    assert R.view_for(again, None) == R.view_for(st, None)


def test_random_play_with_every_option_changed_finishes():
    opts = {
        "turn_limit": 4,
        "break_units": 6,
        "break_units_general": 0,
        "flank_attacks": False,
        "hill_cover_vs_artillery": True,
        "built_up_fortified": True,
        "river_crossing_stops": False,
        "river_defence": False,
        "red_army": "mahdist",
        "blue_army": [{"type": "artillery", "quality": "elite"}] * 3
        + [{"type": "mounted", "quality": "poor", "name": "Scouts"}] * 3,
    }
    for seed in range(3):
        st, _ = random_game(seed, opts)
        assert R.is_over(st)


def test_snapshot_round_trip_mid_game():
    st = R.new_game(5)
    rnd = random.Random(5)
    for _ in range(120):
        if R.is_over(st):
            break
        a = (
            R.sample_chance(st)
            if R.is_chance(st)
            else rnd.choice(R.legal_actions(st, R.to_act(st)[0]))
        )
        st, _ = R.apply(st, a)
        data = json.loads(json.dumps(R.dump_state(st)))
        back = R.load_state(data)
        assert R.dump_state(back) == R.dump_state(st)
        assert R.legal_actions(back, (R.to_act(back) or [None])[0]) == R.legal_actions(
            st, (R.to_act(st) or [None])[0]
        )
    with pytest.raises(EngineError) as e:
        R.load_state(dict(R.dump_state(st), version="0"))
    assert e.value.code == "snapshot_version"


@pytest.mark.parametrize(
    "action,code",
    [
        ({"type": "roll", "seat": "chance", "dice": [1, 2], "x": 1}, "unknown_field"),
        ({"type": "roll", "seat": "chance", "dice": [0, 2]}, "bad_value"),
        ({"type": "roll", "seat": "chance", "dice": [1, 7]}, "bad_value"),
        ({"type": "roll", "seat": "chance", "dice": "12"}, "bad_value"),
        ({"type": "roll", "seat": "chance", "dice": [True, 2]}, "bad_value"),
        ({"type": "roll", "seat": "chance", "dice": [1]}, "bad_value"),
        ({"type": "fly", "seat": "RED"}, "unknown_action"),
        ({"seat": "RED"}, "malformed_action"),
        ("roll", "malformed_action"),
        ({"type": "deploy", "seat": "RED", "unit": "r1"}, "malformed_action"),
        ({"type": "deploy", "seat": "RED", "unit": "z9", "to": "a3"}, "bad_value"),
        ({"type": "deploy", "seat": "RED", "unit": "r1", "to": "d4"}, "bad_value"),
        ({"type": "end_phase", "seat": "GREEN"}, "bad_value"),
        ({"type": "end_phase", "seat": "RED"}, "not_your_turn"),
    ],
)
def test_canonical_action_is_strict(action, code):
    st = R.new_game(1)
    with pytest.raises(IllegalAction) as e:
        R.apply(st, action)
    assert e.value.code == code


def test_canonical_roll_fills_in_the_sampled_dice_and_keeps_known_keys():
    st = R.new_game(9)
    c = R.canonical_action(st, {"type": "roll", "seat": "chance"})
    assert c == R.sample_chance(st)
    assert R.apply(st, c)[1] == R.apply(st, {"type": "roll", "seat": "chance"})[1]


def test_options_are_checked():
    for bad, code in (
        ({"nope": 1}, "unknown_option"),
        ({"turn_limit": 0}, "invalid_option_value"),
        ({"turn_limit": True}, "invalid_option_value"),
        ({"red_army": "martians"}, "invalid_option_value"),
        ({"blue_army": [{"type": "foot", "quality": "average"}] * 5}, "invalid_option_value"),
        ({"blue_army": [{"type": "tank", "quality": "average"}] * 6}, "invalid_option_value"),
    ):
        with pytest.raises(EngineError) as e:
            R.new_game(1, bad)
        assert e.value.code == code, bad


def test_protocol_attributes_and_registry():
    assert "portable" in ruleset.names() and isinstance(R, ruleset.Ruleset)
    assert R.setup == "none" and R.renderer == "square" and R.modes == ("1v1",)
    assert R.accepts(None, None) and not R.accepts(object(), None)
    assert {o["name"] for o in R.options()} >= {"turn_limit", "red_army", "flank_attacks"}
    st = R.new_game(1)
    assert R.seats(st) == ["RED", "BLUE"]
    board = R.board(st)
    assert len(board["areas"]) == 11 and board["sides"]["RED"]["position"] == "top"
    assert R.events_for(st, [{"type": "x"}], None) == [{"type": "x"}]
    st2, _ = roll(st, 3, 4)
    assert R.view_for(st2, "RED")["attacker"] == "BLUE"
    assert "rng" not in json.dumps(R.view_for(st2, "RED"))


def test_option_values_as_lobby_forms_send_them():
    """The lobby sends a choice as text ("12", "off"); a checkbox as true."""
    st = R.new_game(
        1,
        {
            "turn_limit": "8",
            "flank_attacks": "off",
            "built_up_fortified": True,
            "red_army": "egyptian",
        },
    )
    assert st.options["turn_limit"] == 8 and st.options["flank_attacks"] is False
    listed = {o["name"]: o for o in R.options()}
    assert all(o["implemented"] for o in listed.values())
    assert (
        listed["flank_attacks"]["values"] == ["on", "off"]
        and "values" not in listed["built_up_fortified"]
    )
    assert "egyptian" in listed["red_army"]["values"] and 12 in listed["turn_limit"]["values"]
    with pytest.raises(EngineError):
        R.new_game(1, {"turn_limit": "twelve"})
