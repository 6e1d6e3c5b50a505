"""Optional rules of the 004 house-rules compilation (engine/options.py)."""
from tests.engine.rulehelp import do, game, legal, play, roll, uid


def _ready(text, attacker, options):
    st = game(text, hand=[("probe", 1)], options=options)
    st = play(st, "probe", 1)
    st = do(st, "order", unit=uid(st, attacker))
    if st.phase == "order":
        st = do(st, "end_orders")
    if st.phase == "move":
        st = do(st, "end_movement")
    return st


def test_no_retreat_option_offers_staying_at_the_cost_of_figures():
    text = "0@0: .:i\n5@11: .:i\n6@10: .:I"
    for opt, expect in (({}, False), ({"no_retreat": True}, True)):
        st = _ready(text, (6, 10), opt)
        st = do(st, "battle", unit=uid(st, (6, 10)), target=[5, 11])
        st = do(st, "pass")
        st, _ = roll(st, "flag", "star", "star")
        stay = {"to": [5, 11], "losses": 1, "ignore": 0}
        assert (stay in st.pending["options"]) is expect


def test_infantry_v_tank_only_in_close_assault():
    text = "0@0: .:i\n4@10: .:a\n6@10: .:I"
    st = _ready(text, (6, 10), {})
    assert [a["target"] for a in legal(st, "battle")] == [[4, 10]]
    st = _ready(text, (6, 10), {"infantry_v_tank": True})
    assert st.active == "AXIS"     # no legal target: the turn ended


def test_artillery_v_tank_one_die_less():
    text = "0@0: .:i\n4@10: .:a\n6@10: .:G"
    st = _ready(text, (6, 10), {"artillery_v_tank": True})
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[4, 10])
    assert st.pending["dice"] == 2


def test_infantry_charge_marching_two_hexes_battles_defender_first():
    from tests.engine.rulehelp import (act, battle_dice_vs, do, legal, ordered, roll,
                                       to_battle, uid)
    text = "0@0: .:i\n3@11: .:i\n3@15: .:a\n6@12: .:I\n6@16: .:I"
    # without the option: marching 2 hexes = no battle
    st = ordered(text, [(6, 12), (6, 16)], key=("attack", 1))
    st = do(st, "move", unit=uid(st, (6, 12)), to=[4, 12])
    st = to_battle(st)
    assert uid(st, (4, 12)) not in [a["unit"] for a in legal(st, "battle")]
    st = ordered(text, [(6, 12), (6, 16)], key=("attack", 1),
                 options={"infantry_charge": True})
    st = do(st, "move", unit=uid(st, (6, 12)), to=[4, 12])
    st = do(st, "move", unit=uid(st, (6, 16)), to=[4, 16])
    st = to_battle(st)
    acts = [(a["unit"], a["target"]) for a in legal(st, "battle")]
    assert (uid(st, (4, 12)), [3, 11]) in acts                # charge the infantry
    assert uid(st, (4, 16)) not in [u for u, _ in acts]       # not armor
    assert battle_dice_vs(st, (4, 12), (3, 11)) == 3
    st, ev = act(st, "battle", unit=uid(st, (4, 12)), target=[3, 11])
    assert st.pending["for"] == "charge_defence" and st.pending["unit"] == uid(st, (3, 11))
    st, ev = roll(st, "inf", "armor", "grenade")             # the defender first: 2 hits
    assert st.units[uid(st, (4, 12))].figures == 2
    assert st.pending["type"] == "roll" and st.pending["for"] == "battle"
    assert st.pending["unit"] == uid(st, (4, 12))


def test_firefight_continuing_close_assault_goes_on_next_turn_without_orders():
    from tests.engine.rulehelp import act, do, legal, ordered, roll, to_battle, uid
    st = ordered("0@0: .:i\n4@12: .:i\n5@11: .:I", [(5, 11)], key=("probe", 1),
                 axis_hand=[("probe", 0), ("probe", 2)], options={"firefight_continuing": True})
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 12])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "armor", "star", "grenade")          # 1 hit, both stay
    assert st.ext["firefights"] == ((uid(st, (5, 11)), uid(st, (4, 12)), (5, 11), (4, 12)),)
    # Axis turn: Probe Left orders nobody near; the Axis unit fights on without an order
    st = do(st, "play_card", card=st.hands["AXIS"][0])
    if st.phase == "order":
        st = do(st, "end_orders")
    acts = legal(st, "firefight")
    assert acts == [{"type": "firefight", "seat": "AXIS", "unit": uid(st, (4, 12)),
                     "target": [5, 11]}]
    st, ev = act(st, "firefight", unit=uid(st, (4, 12)), target=[5, 11])
    assert st.pending["for"] == "firefight" and st.pending["dice"] == 2   # one die less
    st, ev = roll(st, "grenade", "grenade")                # grenades are ignored
    assert [e for e in ev if e["type"] == "dice_rolled"][0]["hits"] == 0
