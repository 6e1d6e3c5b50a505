"""Army lists: "Each army is composed of six units and a General" (house rule presets and
the custom builder, options red_army / blue_army); the text board helper."""

import pytest

from engine.rulesets.portable import armies
from engine.rulesets.portable.textboard import draw, parse, position

from .helpers import R, act, roll


@pytest.mark.parametrize("preset", sorted(armies.PRESETS))
def test_every_preset_is_six_units_and_a_general(preset):
    st = R.new_game(1, {"red_army": preset})
    red = st.side_units("RED", generals=True)
    assert len([u for u in red if not u.general]) == 6 and [u.id for u in red if u.general] == [
        "rG"
    ]
    assert all(u.sp == 2 and u.area is None for u in red)


def test_default_armies_british_column_against_zulu_impi():
    v = R.view_for(R.new_game(1), None)
    assert v["armies"] == {"RED": "British column", "BLUE": "Zulu impi"}
    assert sorted({u["type"] for u in v["units"] if u["side"] == "RED"}) == [
        "artillery",
        "foot",
        "general",
        "mounted",
    ]


def test_custom_army_builder():
    custom = [{"type": "foot", "quality": "elite", "name": "Guards"}] * 2 + [
        {"type": "artillery", "quality": "poor"}
    ] * 4
    st = R.new_game(1, {"blue_army": custom})
    assert [(u.name, u.type, u.quality) for u in st.side_units("BLUE")][:3] == [
        ("Guards", "foot", "elite"),
        ("Guards", "foot", "elite"),
        ("Poor artillery", "artillery", "poor"),
    ]
    assert R.view_for(st, None)["armies"]["BLUE"] == "Custom army"


def test_losses_are_resolved_one_at_a_time_the_first_army_to_break_withdraws():
    """Both units hit in one close combat: the defender's hit is resolved first."""
    board = """
    r:
    3  .     .    .
    2  .:f1  .    .
    1  .:F1  .    .
    R:
    """
    st = position(board, lost={"RED": 2, "BLUE": 2})
    st, _ = act(st, "attack", unit="b1", target="r1")
    st, _ = roll(st, 1, 1)  # both hit
    st, ev = roll(st, 1)  # r1 destroyed: RED withdraws before b1's hit is rolled
    assert R.is_over(st) and st.winner == "BLUE" and st.units["b1"].sp == 1


def test_a_general_captured_counts_at_once():
    st = position(
        """
    r:
    3  .    .    .
    2  .:g  .    .
    1  .:F  .    .
    R:
    """,
        lost={"RED": 2},
    )
    st, ev = act(st, "move", unit="b1", to="a2")
    assert R.is_over(st) and st.winner == "BLUE" and ev[-1]["type"] == "game_over"


def test_textboard_parse_and_draw_round_trip():
    text = """
    r: f
    3  .   .:fe2   W:m1
    2  .   .       .
    1  H:A  B:Fp,G  .
    R: M
    """
    terrain, pieces = parse(text)
    assert terrain == {"c3": "wood", "a1": "hill", "b1": "built_up"}
    assert ("b1", "BLUE", "foot", "poor", 2) in pieces and (
        "c3",
        "RED",
        "mounted",
        "average",
        1,
    ) in pieces
    st = position(text)
    t2, p2 = parse(draw(st))
    assert t2 == terrain and sorted(p2) == sorted(pieces)
    assert st.units["bG"].area == "b1" and st.units["rG"].area is None
