"""004 Game Turn Explanation 1-2: play a command card, order units."""

import pytest

from engine import IllegalAction, apply, legal_actions
from tests.engine.rulehelp import act, card_id, do, game, legal, play, uid, unit

BOARD = """
0@2: .:i
6@0: .:I .:I .:I .:I .:I .:I .:I
7@7: .:I
"""


def test_play_card_must_be_in_hand():
    st = game(BOARD, hand=[("probe", 0)])
    with pytest.raises(IllegalAction) as e:
        act(st, "play_card", card=card_id("attack", 1))
    assert e.value.code == "card_not_in_hand"


def test_not_your_turn_is_refused_and_state_unchanged():
    st = game(BOARD, hand=[("probe", 0)])
    before = st.snapshot()
    with pytest.raises(IllegalAction) as e:
        apply(st, {"type": "play_card", "seat": "AXIS", "card": st.hands["AXIS"][0]})
    assert e.value.code == "not_your_turn"
    assert st.snapshot() == before


def test_unknown_and_malformed_actions():
    st = game(BOARD, hand=[("probe", 0)])
    with pytest.raises(IllegalAction) as e:
        act(st, "dance")
    assert e.value.code == "unknown_action"
    with pytest.raises(IllegalAction) as e:
        act(st, "play_card", card="x")
    assert e.value.code == "malformed_action"


def test_section_card_orders_only_units_in_its_section():
    st = play(game(BOARD, hand=[("probe", 0)]), "probe", 0)
    ordered = {a["unit"] for a in legal(st, "order")}
    # Allies (bottom): left section = cols 0..7
    assert ordered == {uid(st, h) for h in [(6, 0), (6, 2), (6, 4), (6, 6), (7, 7)]}
    with pytest.raises(IllegalAction) as e:
        act(st, "order", unit=uid(st, (6, 12)))
    assert e.value.code == "unit_not_eligible"


def test_unit_on_section_border_counts_in_either_section():
    st = play(game(BOARD, hand=[("probe", 1)]), "probe", 1)
    assert uid(st, (7, 7)) in {a["unit"] for a in legal(st, "order")}
    st = play(game(BOARD, hand=[("probe", 0)]), "probe", 0)
    assert uid(st, (7, 7)) in {a["unit"] for a in legal(st, "order")}


def test_a_unit_gets_only_one_order():
    st = play(game(BOARD, hand=[("attack", 0)]), "attack", 0)
    st = do(st, "order", unit=uid(st, (6, 0)))
    with pytest.raises(IllegalAction) as e:
        act(st, "order", unit=uid(st, (6, 0)))
    assert e.value.code == "unit_already_ordered"


def test_too_many_orders_refused():
    st = play(game(BOARD, hand=[("probe", 0)]), "probe", 0)
    st = do(st, "order", unit=uid(st, (6, 0)))
    st = do(st, "order", unit=uid(st, (6, 2)))
    assert st.phase == "move"  # quota used: orders end by themselves
    assert not unit(st, (6, 4)).ordered


def test_orders_beyond_units_in_section_are_lost():
    text = """
0@2: .:i
6@20: .:I
"""
    st = play(game(text, hand=[("attack", 2)]), "attack", 2)  # 3 orders, 1 unit there
    st = do(st, "order", unit=uid(st, (6, 20)))
    assert st.phase == "move" and st.play.ordered == [uid(st, (6, 20))]


def test_general_advance_needs_a_valid_assignment_per_section():
    st = play(game(BOARD, hand=["general_advance"]), "general_advance")
    for h in [(6, 0), (6, 2)]:
        st = do(st, "order", unit=uid(st, h))
    # left quota (2) full; the border unit (7,7) may still use the centre quota
    ids = {a["unit"] for a in legal(st, "order")}
    assert uid(st, (6, 4)) not in ids and uid(st, (7, 7)) in ids and uid(st, (6, 8)) in ids


def test_assault_orders_all_units_in_the_section():
    st = play(game(BOARD, hand=[("assault", 0)]), "assault", 0)
    assert st.phase == "move"
    assert sorted(st.play.ordered) == sorted(
        uid(st, h) for h in [(6, 0), (6, 2), (6, 4), (6, 6), (7, 7)]
    )


def test_end_orders_then_move_phase_and_units_need_orders_to_move():
    st = play(game(BOARD, hand=[("probe", 1)]), "probe", 1)
    st = do(st, "order", unit=uid(st, (6, 8)))
    st = do(st, "end_orders")
    assert st.phase == "move"
    with pytest.raises(IllegalAction) as e:
        act(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert e.value.code == "unit_not_ordered"


def test_turn_passes_to_other_side_and_card_is_discarded_and_replaced():
    st = game(BOARD, hand=[("probe", 0), ("probe", 1)])
    cid = card_id("probe", 0)
    st = play(st, "probe", 0)
    st = do(st, "end_orders")
    assert st.active == "AXIS" and st.phase == "play_card"
    assert cid in st.discard and len(st.hands["ALLIES"]) == 2 and cid not in st.hands["ALLIES"]
    assert legal_actions(st, "ALLIES") == []


def test_deck_reshuffled_from_discard_when_empty():
    st = game(BOARD, hand=[("probe", 0)])
    st.discard = st.deck[: -0 or None]
    st.deck = []
    n = len(st.discard)
    st = play(st, "probe", 0)
    st2, ev = act(st, "end_orders")
    assert "deck_reshuffled" in [e["type"] for e in ev]
    assert len(st2.deck) == n + 1 - 1 and len(st2.hands["ALLIES"]) == 1
