"""004 Object Of The Game: medals, objectives, victory."""

from engine import legal_actions
from tests.engine.rulehelp import do, event_types, game, play, roll, uid


def _attack(st, a, t, faces):
    st = play(st, "probe", 1)
    st = do(st, "order", unit=uid(st, a))
    if st.phase == "order":
        st = do(st, "end_orders")
    if st.phase == "move":
        st = do(st, "end_movement")
    st = do(st, "battle", unit=uid(st, a), target=list(t))
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, *faces)


def test_victory_at_the_scenario_medal_count_ends_the_game_at_once():
    st = game("5@11: .:g\n0@0: .:i\n6@10: .:I", hand=[("probe", 1)], victory=(4, 1))
    st, ev = _attack(st, (6, 10), (5, 11), ["grenade", "grenade", "star"])
    assert st.game_over and st.winner == "ALLIES" and "game_over" in event_types(ev)
    assert legal_actions(st, "ALLIES") == [] and legal_actions(st, "AXIS") == []


def test_victory_when_the_enemy_has_no_units_left():
    st = game("5@11: .:g\n6@10: .:I", hand=[("probe", 1)], victory=(4, 4))
    st, ev = _attack(st, (6, 10), (5, 11), ["grenade", "grenade", "star"])
    assert st.game_over and st.winner == "ALLIES"


def test_objective_medal_gained_on_occupation_and_lost_when_left():
    st = game("0@0: .:i\n6@10: .:I", hand=[("probe", 1)], tags={(5, 11): "medal1"}, victory=(4, 4))
    st = play(st, "probe", 1)
    st = do(st, "order", unit=uid(st, (6, 10)))
    if st.phase == "order":
        st = do(st, "end_orders")
    obj = st.scn.objectives[0].id
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert st.objectives[obj] == "ALLIES" and st.medals("ALLIES") == 1
    st.mut(uid(st, (5, 11))).hex = (6, 10)
    st.occ = {st.units[k].hex: k for k in st.units}
    from engine.procedures.medals import update_objectives

    ev = []
    update_objectives(st, ev)
    assert st.objectives[obj] is None and "medal_lost" in event_types(ev)


def test_objective_for_one_side_only():
    st = game("0@0: .:i\n6@10: .:I", hand=[("probe", 1)], tags={(5, 11): "medal2"}, victory=(4, 4))
    st = play(st, "probe", 1)
    st = do(st, "order", unit=uid(st, (6, 10)))
    if st.phase == "order":
        st = do(st, "end_orders")
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert st.medals("ALLIES") == 0  # medal2: Axis-only objective


def test_counter_attack_last_turn_option():
    st = game(
        "5@11: .:g\n0@0: .:i\n6@10: .:I",
        hand=[("probe", 1)],
        victory=(4, 1),
        options={"counter_attack_last_turn": True},
    )
    st, ev = _attack(st, (6, 10), (5, 11), ["grenade", "grenade", "star"])
    assert not st.game_over and st.last_turn_for == "AXIS"
    if st.pending and st.pending["type"] == "take_ground":
        st = do(st, "take_ground", take=False)
    assert st.active == "AXIS"
    cid = st.hands["AXIS"][0]
    st = do(st, "play_card", card=cid)
    while not st.game_over:
        from engine import is_chance, sample_chance, apply, to_act

        if is_chance(st):
            st, _ = apply(st, sample_chance(st))
        else:
            acts = legal_actions(st, to_act(st)[0])
            ends = [a for a in acts if a["type"].startswith("end_") or a["type"] == "pass"]
            st, _ = apply(st, (ends or acts)[0])
    assert st.game_over and st.winner == "ALLIES"
