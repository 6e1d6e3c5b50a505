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
