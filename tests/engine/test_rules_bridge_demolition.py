"""004 Appendix 2 "Bridge Demolition Rules", Options 1 and 3 (option ``bridge_demolition``):
an engineer rigs a bridge, its side then blows it (Option 2's roll); four tank symbols
from artillery / Barrage / Air Power destroy an unrigged bridge.  Boards drawn as text,
dice chosen."""

import pytest

from engine import apply, legal_actions, view_for
from engine.core.errors import IllegalAction
from engine.procedures.common import terrain_at
from tests.engine.rulehelp import (
    act,
    axis_turn,
    battle_dice_vs,
    do,
    game,
    give,
    legal,
    ordered,
    order_units,
    play,
    random_games,
    roll,
    types,
    uid,
)

ON = {"bridge_demolition": True}
ENGINEER = {"name": "infus", "badge": "badge6"}
# a bridge at (5,11); the Allied unit on (6,10) stands at one end of it
BOARD = "0@0: .:i\n5@11: RB\n6@10: .:I\n8@10: .:G"


def allied_turn(st, who, key=("probe", 1)):
    st = play(st, give(st, "ALLIES", *key))
    st = order_units(st, who)
    return do(st, "end_movement") if st.phase == "move" else st


def bridges(st):
    return view_for(st, None).get("bridges")


def test_engineer_next_to_a_bridge_places_charges_instead_of_moving_or_battling():
    st = ordered(
        BOARD + "\n4@10: .:i\n6@12: .:I",
        [(6, 10), (6, 12)],
        units={(6, 10): ENGINEER},
        axis_hand=[("probe", 1)] * 2,
        options=ON,
    )
    st = do(st, "end_movement")
    eng, rifle = uid(st, (6, 10)), uid(st, (6, 12))
    assert battle_dice_vs(st, (6, 10), (4, 10)) is not None
    rig = [a for a in legal(st, "rig_bridge")]
    assert rig == [{"type": "rig_bridge", "seat": "ALLIES", "unit": eng, "hex": [5, 11]}]
    assert bridges(st) == []
    st, ev = act(st, "rig_bridge", unit=eng, hex=[5, 11])
    assert {"type": "bridge_rigged", "unit": eng, "side": "ALLIES", "hex": [5, 11]} in ev
    assert bridges(st) == [{"hex": [5, 11], "rigged": "ALLIES", "hits": 0}]
    assert not [a for a in legal(st) if a.get("unit") == eng]  # no battle this turn
    assert [a["unit"] for a in legal(st, "battle")] == [rifle]
    assert terrain_at(st, (5, 11)).bridge  # still standing


def test_engineer_that_moved_or_a_regular_unit_may_not_rig_a_bridge():
    st = ordered(BOARD, [(6, 10)], units={(6, 10): ENGINEER}, options=ON)
    st = do(st, "move", unit=uid(st, (6, 10)), to=[6, 12])  # still next to it
    st = do(st, "end_movement") if st.phase == "move" else st
    assert "rig_bridge" not in types(st)
    st = ordered(BOARD + "\n4@10: .:i", [(6, 10)], options=ON)  # plain infantry
    st = do(st, "end_movement")
    assert "battle" in types(st) and "rig_bridge" not in types(st)
    before = st.snapshot()
    with pytest.raises(IllegalAction) as e:
        apply(
            st, {"type": "rig_bridge", "seat": "ALLIES", "unit": uid(st, (6, 10)), "hex": [5, 11]}
        )
    assert e.value.code == "no_bridge" and st.snapshot() == before


def test_rigged_bridge_blown_by_its_side_next_turn_with_the_option_2_roll():
    st = ordered(
        BOARD, [(6, 10)], units={(6, 10): ENGINEER}, axis_hand=[("probe", 1)] * 2, options=ON
    )
    st = do(st, "end_movement")
    assert "blow_bridge" not in types(st)  # not rigged yet
    st = do(st, "rig_bridge", unit=uid(st, (6, 10)), hex=[5, 11])
    st = axis_turn(st)
    st = allied_turn(st, [(6, 10)])
    assert [a["hex"] for a in legal(st, "blow_bridge")] == [[5, 11]]
    st, _ = act(st, "blow_bridge", unit=uid(st, (6, 10)), hex=[5, 11])
    assert st.pending["for"] == "blow_bridge" and st.pending["dice"] == 2
    st, ev = roll(st, "flag", "star")
    assert not terrain_at(st, (5, 11)).bridge
    assert {
        "type": "terrain_changed",
        "hex": [5, 11],
        "removed": "bridge",
        "added": "broken_bridge",
    } in ev
    assert bridges(st) == []
    changed = {tuple(c["hex"]): c for c in view_for(st, None)["changed_hexes"]}
    assert "brkbridge" in [t["code"] for t in changed[(5, 11)]["tiles"]]


def test_enemy_on_the_bridge_removes_the_charges():
    st = ordered(
        BOARD.replace("0@0: .:i", "4@12: .:i"),
        [(6, 10)],
        units={(6, 10): ENGINEER},
        axis_hand=[("probe", 1)] * 2,
        options=ON,
    )
    st = do(st, "end_movement")
    st = do(st, "rig_bridge", unit=uid(st, (6, 10)), hex=[5, 11])
    assert st.active == "AXIS"
    st = play(st, st.hands["AXIS"][0])
    st = order_units(st, [(4, 12)])
    st, ev = act(st, "move", unit=uid(st, (4, 12)), to=[5, 11])
    assert {
        "type": "bridge_charges_removed",
        "hex": [5, 11],
        "side": "ALLIES",
        "unit": uid(st, (5, 11)),
    } in ev
    assert bridges(st) == []


def test_artillery_tank_hits_accumulate_across_turns_fourth_destroys_the_bridge():
    st = ordered(BOARD, [(8, 10)], axis_hand=[("probe", 1)] * 4, options=ON)
    st = do(st, "end_movement")
    gun = uid(st, (8, 10))
    assert legal(st, "bombard_bridge") == [
        {"type": "bombard_bridge", "seat": "ALLIES", "unit": gun, "hex": [5, 11]}
    ]
    st, _ = act(st, "bombard_bridge", unit=gun, hex=[5, 11])
    assert st.pending["for"] == "bombard_bridge" and st.pending["dice"] == 2  # range 3
    st, ev = roll(st, "armor", "armor")
    assert {"type": "bridge_hit", "hex": [5, 11], "hits": 2, "total": 2} in ev
    assert bridges(st) == [{"hex": [5, 11], "rigged": None, "hits": 2}]
    st = axis_turn(st)
    st = allied_turn(st, [(8, 10)])
    st = do(st, "bombard_bridge", unit=gun, hex=[5, 11])
    st, _ = roll(st, "armor", "grenade")
    assert bridges(st)[0]["hits"] == 3 and terrain_at(st, (5, 11)).bridge
    st = axis_turn(st)
    st = allied_turn(st, [(8, 10)])
    st = do(st, "bombard_bridge", unit=gun, hex=[5, 11])
    st, ev = roll(st, "star", "armor")
    assert {"type": "bridge_hit", "hex": [5, 11], "hits": 1, "total": 4} in ev
    assert not terrain_at(st, (5, 11)).bridge and bridges(st) == []


def test_infantry_fire_and_fire_at_a_unit_on_the_bridge_do_not_count():
    st = ordered(BOARD.replace("RB", "RB:i"), [(6, 10), (8, 10)], options=ON)
    st = do(st, "end_movement")
    assert "bombard_bridge" not in types(st)  # infantry never; enemy on the bridge
    st = do(st, "battle", unit=uid(st, (8, 10)), target=[5, 11])
    st, _ = roll(st, "armor", "armor")
    assert bridges(st) == []
    st = ordered(BOARD, [(6, 10)], options=ON)
    st = do(st, "end_movement")
    assert "bombard_bridge" not in types(st)  # plain infantry next to an empty bridge


def test_barrage_and_air_power_may_target_the_bridge_tank_symbols_are_hits():
    st = game(BOARD, hand=["barrage"], options=ON)
    st = play(st, "barrage")
    assert [a["hex"] for a in legal(st, "target")] == [[0, 0], [5, 11]]
    st = do(st, "target", hex=[5, 11])
    if st.phase == "target":
        st = do(st, "end_targets")
    assert st.pending["for"] == "bombard_bridge" and st.pending["dice"] == 4
    st, ev = roll(st, "armor", "armor", "armor", "star")
    assert bridges(st) == [{"hex": [5, 11], "rigged": None, "hits": 3}]
    st = game(BOARD, hand=["air_power"], options=ON)
    st = play(st, "air_power")
    st = do(st, "target", hex=[5, 11])
    if st.phase == "target":
        st = do(st, "end_targets")
    assert st.pending["for"] == "bombard_bridge" and st.pending["dice"] == 2  # Allies
    st, ev = roll(st, "armor", "inf")
    assert {"type": "bridge_hit", "hex": [5, 11], "hits": 1, "total": 1} in ev


def test_option_off_nothing_new_is_offered():
    st = ordered(BOARD, [(6, 10), (8, 10)], units={(6, 10): ENGINEER})
    st = do(st, "end_movement")
    assert not {"rig_bridge", "bombard_bridge", "blow_bridge"} & set(types(st))
    assert "bridges" not in view_for(st, None)
    st = game(BOARD, hand=["barrage"])
    st = play(st, "barrage")
    assert [a["hex"] for a in legal(st, "target")] == [[0, 0]]


def test_bridge_demolition_random_games_replay_equals_live():
    from engine.core.textboard import board_from_text

    scn = board_from_text(
        """
        1: .:i W:i .:a .:i .:g .:i .:a .:i H:i
        3: R  RB RB R  RB  RB  R  RB
        7: .:I W:I .:A .:I .:G .:I .:A .:I H:I
    """,
        units={(2, 10): {"name": "infger", "badge": "badge6"}, (4, 4): ENGINEER},
        victory=(6, 6),
    )
    random_games(ON, {"bombard_bridge", "rig_bridge"}, scn)


def test_bridge_demolition_pegasus_random_games_finish_replay_equals_live():
    from engine import replay
    from engine.bot import play_random_game
    from engine.core.scenario import load_scenario
    from tests.engine.paths import SCN_DIR

    scn = load_scenario(f"{SCN_DIR}/2-PegasusBridge.m44")
    for seed in (1, 2, 3):
        st, actions = play_random_game(scn, seed, ON, max_turns=600, record=True)
        assert st.game_over
        assert replay(scn, seed, actions, ON) == st
        assert "bridges" in view_for(st, None)
        assert legal_actions(st, "ALLIES") == []


def test_bombarding_a_bridge_in_fog_follows_the_weather_spotter_rule():
    """With option ``weather`` FOG (visibility 2) a bridge 3 hexes away is beyond sight,
    except that indirect-firing artillery may fire "provided that ... a friendly Unit is
    within 2 hexes of the target" (004 Night & Severe Weather) - as for a unit target."""
    fog = {**ON, "weather": "FOG"}
    st = do(ordered(BOARD, [(8, 10)], options=fog), "end_movement")
    assert [a["hex"] for a in legal(st, "bombard_bridge")] == [[5, 11]]  # spotter on (6,10)
    alone = BOARD.replace("\n6@10: .:I", "")
    st = do(ordered(alone, [(8, 10)], options=fog), "end_movement")
    assert legal(st, "bombard_bridge") == []
    st = do(ordered(alone, [(8, 10)], options=ON), "end_movement")  # clear weather
    assert [a["hex"] for a in legal(st, "bombard_bridge")] == [[5, 11]]
