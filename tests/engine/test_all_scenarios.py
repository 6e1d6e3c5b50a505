"""Every real scenario under every ruleset that plays ``.m44`` files (issue 35 finding 4):
each loads, starts in every mode the ruleset offers for its board and plays seeded random
games (set-up steps included) without an engine error; replaying a game's actions gives
the live state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.core.ruleset import all_rulesets, turn_of
from engine.core.scenario import load_scenario
from tests.engine.paths import SCN_DIR

SHARED = Path("/work/shared/scenarios/m44")
FILES = sorted(
    {p.name: p for d in (SHARED, SCN_DIR) if d.is_dir() for p in d.glob("*.m44")}.values()
)
PLAYS = [(rs.name, f) for rs in all_rulesets() if rs.setup == "scenario" for f in FILES]


def _play(rs, scn, seed: int, mode: str, max_turns: int):
    st = rs.new_game(seed, None, scn, mode)
    rng, actions = random.Random(seed), []
    while not rs.is_over(st) and (turn_of(rs, st) or 0) <= max_turns:
        a = (
            rs.sample_chance(st)
            if rs.is_chance(st)
            else rng.choice(rs.legal_actions(st, rs.to_act(st)[0]))
        )
        actions.append(a)
        st, _ = rs.apply(st, a)
    return st, actions


@pytest.mark.parametrize("name,path", PLAYS, ids=[f"{n}-{p.stem}" for n, p in PLAYS])
def test_every_scenario_plays_under_every_ruleset(name, path):
    from engine.core.ruleset import get

    rs = get(name)
    scn = load_scenario(str(path))
    for mode in rs.modes_for(scn):
        for seed in (1, 2):
            st, actions = _play(rs, scn, seed, mode, max_turns=6)
            again = rs.new_game(seed, None, scn, mode)
            for a in actions:
                again, _ = rs.apply(again, a)
            assert rs.dump_state(again) == rs.dump_state(st)


# ------------------------------------------------------------- the vocabulary's shapes
from engine.core.textboard import board_from_text  # noqa: E402

#: Fields of vocabulary 2-3 whose value takes several shapes in scenario files: scalars
#: (ints, numeric strings, booleans), lists, per-side dicts.
SHAPES: dict[str, list] = {
    "airdrop": [
        {"side": "ALLIES", "nbr_units": 2},
        {"side": "ALLIES", "nbr_units": "2"},
        {"side": "ALLIES", "nbr_units": [3, 3, 3], "range": "1"},
        {"side": "ALLIES", "nbr_units": [1, 1], "range": [1, 2], "nbr_drops": 2},
        {"ALLIES": {"nbr_units": 1}, "AXIS": {"nbr_units": [1, 1]}},
    ],
    "smoke_screen": [True, {"side": "AXIS"}, {"side": "allies", "nbr_hexes": "2"}],
    "night_visibility_rules": [True, "true", 1],
    "night_visibility_team_turn": ["ALLIES", "axis"],
    "partial_blitz_rules": ["ALLIES", "AXIS", "all"],
    "russian_commissar_rule": ["ALLIES", "axis", True],
    "supply_train_rules": [
        {"side": "ALLIES", "nbr_units": 2, "unit": {"name": "inf2us"}},
        {"side": "AXIS", "nbr_units": "1", "unit": "infger"},
    ],
    "armor_breakthrough_rules": [
        {"ALLIES": {"nbr_units": 1, "name": "tankus"}},
        {"side": "AXIS", "nbr_units": "2", "name": "tankger"},
    ],
    "hill317": [["F5", "g4"], []],
    "empty_section_medals": [
        {"sections": [0, 1], "side": "AXIS", "count_for": 1},
        {"sections": 2, "side": "ALLIES", "count_for": "2"},
    ],
    "must_have_unit_exit": [
        {"side": "ALLIES", "min_nbr_units": 1},
        {"side": "ALLIES", "min_nbr_units": "2"},
    ],
    "deck_reshuffling": [False, "false"],
    "infantry_exit_counts_2": [True],
    "blitz_rules": [True],
    "air_strikes_rules": ["ALLIES", "AXIS"],
    "british_commonwealth": [True],
    "gung_ho": [True],
    "italy_royal_army": [True],
    "italy_high_command": [True],
    "north_african_desert_rules": [True],
    "blowbridge_opt2": [True, {"side": "AXIS"}],
}
SHAPE_CASES = [(k, i) for k, vs in sorted(SHAPES.items()) for i in range(len(vs))]


@pytest.mark.parametrize("name", ["m44", "fastplay"])
@pytest.mark.parametrize("field,i", SHAPE_CASES, ids=[f"{k}-{i}" for k, i in SHAPE_CASES])
def test_every_option_shape_starts_and_plays(name, field, i):
    from engine.core.ruleset import get

    rs = get(name)
    scn = board_from_text(
        "0@0: .:i .:a .:i\n1@11: .:i\n7@11: .:I\n8@0: .:I .:A .:I",
        game_info={"options": {field: SHAPES[field][i]}},
    )
    for seed in (1, 2):
        _play(rs, scn, seed, "1v1", max_turns=4)


@pytest.mark.parametrize(
    "unit",
    [
        {"name": "infus", "nbr_units": "3"},
        {"name": "infus", "nbr_units": 2, "badge": "badge6"},
        {"name": "tank2ger", "nbr_units": "1"},
        {"name": "gunger", "behavior": "GERMAN_2VICTANK"},
    ],
)
@pytest.mark.parametrize("name", ["m44", "fastplay"])
def test_unit_fields_in_every_shape(name, unit):
    from engine.core.ruleset import get

    scn = board_from_text("0@0: .:i\n8@0: .:I", units={(4, 10): unit})
    _play(get(name), scn, 1, "1v1", max_turns=4)
