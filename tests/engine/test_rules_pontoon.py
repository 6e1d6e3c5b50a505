"""004 Appendix 2 "Bridge, Pontoon" (option ``pontoon_bridges``): "To construct a Pontoon
Bridge, play an Attack Command Card. An Engineer Unit next to a River uses the turn to
place a Pontoon Bridge on the River hex. The Command Card has to be for the correct
Section of the Board."  Boards drawn as text."""

import pytest

from engine import apply
from engine.core.errors import IllegalAction
from engine.procedures.common import terrain_at
from tests.engine.rulehelp import (
    act,
    axis_turn,
    do,
    game,
    give,
    legal,
    order_units,
    ordered,
    play,
    random_games,
    types,
    uid,
)

ON = {"pontoon_bridges": True}
ENGINEER = {"name": "infus", "badge": "badge6"}
# a river along row 5; (6,6) is a river hex too (left section only); the Allied unit on
# (6,8) (centre section) has river hexes (5,7) (on the left/centre line), (5,9) (centre)
# and (6,6) (left) next to it
RIVER = "5@1: " + " ".join(["R"] * 12)
BOARD = f"3@9: .:i\n{RIVER}\n6@6: R .:I .:I"  # the Axis unit: a target in range


def to_battle(st):
    return do(st, "end_movement") if st.phase == "move" else st


def refused(st, action, code):
    before = st.snapshot()
    with pytest.raises(IllegalAction) as e:
        apply(st, {"seat": "ALLIES", **action})
    assert e.value.code == code and st.snapshot() == before


def test_engineer_on_an_attack_card_builds_a_pontoon_and_a_unit_crosses_next_turn():
    st = ordered(
        BOARD,
        [(6, 8), (6, 10)],
        key=("attack", 1),
        units={(6, 8): ENGINEER},
        axis_hand=[("probe", 1)] * 2,
        options=ON,
    )
    eng, rifle = uid(st, (6, 8)), uid(st, (6, 10))
    moves = {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == rifle}
    assert (5, 9) not in moves and (4, 10) not in moves  # the river is impassable
    st = to_battle(st)
    assert legal(st, "build_pontoon") == [
        {"type": "build_pontoon", "seat": "ALLIES", "unit": eng, "hex": [5, 7]},
        {"type": "build_pontoon", "seat": "ALLIES", "unit": eng, "hex": [5, 9]},
    ]
    st, ev = act(st, "build_pontoon", unit=eng, hex=[5, 9])
    assert {"type": "pontoon_built", "unit": eng, "hex": [5, 9]} in ev
    t = terrain_at(st, (5, 9))
    assert t.bridge and "pontoon" in [x.spec.code for x in t.tiles]
    assert not [a for a in legal(st) if a.get("unit") == eng]  # it used the turn
    st = axis_turn(st)
    st = play(st, give(st, "ALLIES", "probe", 1))
    st = order_units(st, [(6, 10)])
    moves = {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == rifle}
    assert {(5, 9), (4, 10)} <= moves and (5, 11) not in moves
    st = do(st, "move", unit=rifle, to=[4, 10])
    assert uid(st, (4, 10)) == rifle


def test_counter_attack_copying_an_attack_card_may_build():
    st = game(
        BOARD,
        hand=["counter_attack"],
        axis_hand=[("attack", 1), ("probe", 1)],
        units={(6, 8): ENGINEER},
        starting="PLAYER1",
        options=ON,
    )
    st = axis_turn(st)
    st = play(st, "counter_attack")  # copies the Axis Attack Centre
    st = to_battle(order_units(st, [(6, 8)]))
    assert [a["hex"] for a in legal(st, "build_pontoon")] == [[5, 7], [5, 9]]


def test_not_offered_to_a_regular_unit_an_engineer_that_moved_or_on_a_probe_card():
    st = to_battle(ordered(BOARD, [(6, 8)], key=("attack", 1), options=ON))
    assert "build_pontoon" not in types(st)  # plain infantry
    refused(st, {"type": "build_pontoon", "unit": uid(st, (6, 8)), "hex": [5, 9]}, "no_river")
    st = ordered(
        BOARD.replace(".:I .:I", ".:I ."),
        [(6, 8)],
        key=("attack", 1),
        units={(6, 8): ENGINEER},
        options=ON,
    )
    st = to_battle(do(st, "move", unit=uid(st, (6, 8)), to=[6, 10]))  # still on the bank
    assert "build_pontoon" not in types(st)
    refused(st, {"type": "build_pontoon", "unit": uid(st, (6, 10)), "hex": [5, 9]}, "no_river")
    st = to_battle(ordered(BOARD, [(6, 8)], key=("probe", 1), units={(6, 8): ENGINEER}, options=ON))
    assert "build_pontoon" not in types(st)
    refused(st, {"type": "build_pontoon", "unit": uid(st, (6, 8)), "hex": [5, 9]}, "no_river")


def test_not_away_from_a_river_in_another_section_or_with_the_option_off():
    st = to_battle(
        ordered(
            BOARD + "\n8@8: .:I .:i",
            [(8, 8)],
            key=("attack", 1),
            units={(8, 8): ENGINEER},
            options=ON,
        )
    )
    assert "build_pontoon" not in types(st)
    refused(st, {"type": "build_pontoon", "unit": uid(st, (8, 8)), "hex": [5, 9]}, "no_river")
    st = to_battle(
        ordered(BOARD, [(6, 8)], key=("attack", 1), units={(6, 8): ENGINEER}, options=ON)
    )  # (6,6) is a left-section river hex
    assert [6, 6] not in [a["hex"] for a in legal(st, "build_pontoon")]
    refused(st, {"type": "build_pontoon", "unit": uid(st, (6, 8)), "hex": [6, 6]}, "no_river")
    st = to_battle(ordered(BOARD, [(6, 8)], key=("attack", 1), units={(6, 8): ENGINEER}))
    assert "build_pontoon" not in types(st)
    refused(st, {"type": "build_pontoon", "unit": uid(st, (6, 8)), "hex": [5, 9]}, "no_river")


def test_no_pontoon_on_a_bridged_river_hex_or_a_lake():
    board = BOARD.replace(RIVER, "5@1: " + " ".join(["R"] * 3 + ["RB", "L"] + ["R"] * 7))
    st = to_battle(
        ordered(board, [(6, 8)], key=("attack", 1), units={(6, 8): ENGINEER}, options=ON)
    )
    assert legal(st, "build_pontoon") == []  # (5,7) has a bridge, (5,9) is a lake
    refused(st, {"type": "build_pontoon", "unit": uid(st, (6, 8)), "hex": [5, 9]}, "no_river")


def test_with_bridge_demolition_a_built_pontoon_can_be_rigged():
    st = ordered(
        BOARD,
        [(6, 8)],
        key=("attack", 1),
        units={(6, 8): ENGINEER},
        axis_hand=[("probe", 1)] * 2,
        options={**ON, "bridge_demolition": True},
    )
    st = to_battle(st)
    assert "rig_bridge" not in types(st)
    st = do(st, "build_pontoon", unit=uid(st, (6, 8)), hex=[5, 9])
    st = axis_turn(st)
    st = play(st, give(st, "ALLIES", "probe", 1))
    st = to_battle(order_units(st, [(6, 8)]))
    assert [a["hex"] for a in legal(st, "rig_bridge")] == [[5, 9]]


def test_pontoon_random_games_replay_equals_live():
    from engine.core.textboard import board_from_text

    axis_eng = {"name": "infger", "badge": "badge6"}
    scn = board_from_text(
        """
        1: .:i W:i .:a .:i .:g .:i .:a .:i H:i
        3: R  RB R  R  R  R  R  R  R  R  RB  R
        7: .:I W:I .:A .:I .:G .:I .:A .:I H:I
    """,
        units={
            (2, 4): axis_eng,
            (2, 12): axis_eng,
            (2, 20): axis_eng,
            (4, 4): ENGINEER,
            (4, 12): ENGINEER,
            (4, 20): ENGINEER,
        },
        victory=(6, 6),
    )
    random_games(ON, {"build_pontoon"}, scn)
