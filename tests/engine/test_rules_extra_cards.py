"""004 Appendix 3 "Army Manoeuvres", Extra Command Cards (option ``army_manoeuvres``):
"At least one Command Card may be played for each Board Section to a maximum of three
cards. Units may not receive more than one Order per turn. Sections may not receive more
than one Command Card, even if a card being used applies to more than one Section. A
Section cannot be given any orders if the player has no cards for it that turn."
Boards drawn as text, actions through legal_actions/apply."""

import pytest

from engine import IllegalAction
from engine.rulesets.m44.options import REGISTRY
from tests.engine.rulehelp import (
    act,
    card_id,
    do,
    event_types,
    game,
    legal,
    play,
    random_games,
    roll,
    types,
    uid,
    unit,
)

AM = {"army_manoeuvres": True}
# ALLIES (bottom): left section cols 0..6, centre 8..16, right 18..; (7, 7) is on the
# left/centre line (in both sections)
BOARD = "0@2: .:i\n0@12: .:i\n0@22: .:i\n7@3: .:I\n7@5: .:I\n7@13: .:I\n7@21: .:I\n8@10: .:I"
LEFT, LEFT2, CENTRE, RIGHT, CENTRE2 = (7, 3), (7, 5), (7, 13), (7, 21), (8, 10)
HAND = [("probe", 0), ("probe", 1), ("attack", 2), "general_advance", "direct_from_hq"]


def orderable(st):
    return sorted(st.units[a["unit"]].hex for a in legal(st, "order"))


def cards_offered(st):
    return sorted(a["card"] for a in legal(st, "play_card"))


def test_two_cards_in_two_sections_order_units_only_in_their_own_sections():
    st = play(game(BOARD, hand=HAND, options=AM), "probe", 0)
    assert orderable(st) == [LEFT, LEFT2]
    st = do(st, "order", unit=uid(st, LEFT))
    st = do(st, "end_orders")
    # back to the card play: only cards for the free sections, or end_cards
    assert st.phase == "play_card"
    assert cards_offered(st) == sorted([card_id("probe", 1), card_id("attack", 2)])
    assert "end_cards" in types(st)
    assert "restoring_order" not in types(st)  # only instead of the first card
    st = play(st, "probe", 1)
    assert orderable(st) == [CENTRE, CENTRE2]  # not the left or right units
    with pytest.raises(IllegalAction) as e:
        act(st, "order", unit=uid(st, RIGHT))
    assert e.value.code == "unit_not_eligible"
    with pytest.raises(IllegalAction) as e:
        act(st, "order", unit=uid(st, LEFT2))
    assert e.value.code == "unit_not_eligible"
    st = do(st, "order", unit=uid(st, CENTRE))
    st = do(st, "end_orders")
    st = do(st, "end_cards")
    assert st.phase == "move"
    moving = {st.units[a["unit"]].hex for a in legal(st, "move")}
    assert moving == {LEFT, CENTRE}  # the units of both cards, no other


def test_a_second_card_for_a_claimed_section_is_refused():
    st = play(game(BOARD, hand=HAND + [("recon", 0)], options=AM), "probe", 0)
    st = do(st, "order", unit=uid(st, LEFT))
    st = do(st, "end_orders")
    before = st.snapshot()
    for key in (("recon", 0), ("general_advance",), ("direct_from_hq",)):
        with pytest.raises(IllegalAction) as e:
            act(st, "play_card", card=card_id(*key))
        assert e.value.code == "section_already_claimed"
        assert card_id(*key) not in cards_offered(st)
    assert st.snapshot() == before


def test_general_advance_claims_all_three_sections_and_is_played_alone():
    st = play(game(BOARD, hand=HAND, options=AM), "general_advance")
    for h in (LEFT, CENTRE, RIGHT):
        st = do(st, "order", unit=uid(st, h))
    st = do(st, "end_orders")
    assert st.phase == "move"  # no further card, no end_cards
    assert "end_cards" not in types(st) and "play_card" not in types(st)
    # nor may it follow another card
    st = play(game(BOARD, hand=HAND, options=AM), "attack", 2)
    st = do(st, "end_orders")
    assert card_id("general_advance") not in cards_offered(st)


def test_at_most_three_cards_then_movement():
    st = game(BOARD, hand=HAND, options=AM)
    for key, h in ((("probe", 0), LEFT), (("probe", 1), CENTRE), (("attack", 2), RIGHT)):
        st = play(st, *key)
        st = do(st, "order", unit=uid(st, h))
        if st.phase == "order":
            st = do(st, "end_orders")
    assert st.phase == "move"
    assert {st.units[a["unit"]].hex for a in legal(st, "move")} == {LEFT, CENTRE, RIGHT}
    assert [p.key for p in st.plays] == ["probe", "probe", "attack"]


def test_a_unit_receives_one_order_across_cards():
    text = BOARD + "\n7@7: .:I"
    st = play(game(text, hand=HAND + [("assault", 1)], options=AM), "probe", 0)
    assert (7, 7) in orderable(st)  # on the left/centre line
    st = do(st, "order", unit=uid(st, (7, 7)))
    st = do(st, "end_orders")
    st = play(st, "probe", 1)
    assert (7, 7) not in orderable(st)
    with pytest.raises(IllegalAction) as e:
        act(st, "order", unit=uid(st, (7, 7)))
    assert e.value.code == "unit_already_ordered"
    # an Assault ("all units in the section") leaves it with its first card
    st = play(game(text, hand=HAND + [("assault", 1)], options=AM), "probe", 0)
    st = do(st, "order", unit=uid(st, (7, 7)))
    st = do(st, "end_orders")
    st = play(st, "assault", 1)
    first, second = st.plays
    assert first.ordered == [uid(st, (7, 7))]
    assert sorted(st.units[u].hex for u in second.ordered) == [CENTRE, CENTRE2]


def _battle(st, h, target):
    st = do(st, "battle", unit=uid(st, h), target=target)
    return do(st, "pass") if st.pending["type"] == "ambush" else st  # no Ambush card


def test_every_card_moves_before_any_battle():
    text = "5@3: .:i\n5@13: .:i\n7@3: .:I\n7@13: .:I"
    st = play(game(text, hand=HAND, options=AM), "probe", 0)
    st = do(st, "order", unit=uid(st, (7, 3)))  # the only unit there: orders end
    st = play(st, "probe", 1)
    st = do(st, "order", unit=uid(st, (7, 13)))
    st = do(st, "end_cards")
    st = do(st, "move", unit=uid(st, (7, 3)), to=[6, 4])
    assert st.phase == "move"  # the other card's unit still moves
    assert "battle" not in types(st)
    st = do(st, "move", unit=uid(st, (7, 13)), to=[6, 12])
    assert st.phase == "battle"
    assert {st.units[a["unit"]].hex for a in legal(st, "battle")} == {(6, 4), (6, 12)}
    st = _battle(st, (6, 4), [5, 3])
    st, ev = roll(st, "grenade", "grenade", "grenade")
    assert "unit_hit" in event_types(ev) and unit(st, (5, 3)).figures == 1
    assert st.phase == "battle" and st.active == "ALLIES"
    st = _battle(st, (6, 12), [5, 13])
    st, ev = roll(st, "grenade", "grenade", "grenade")
    assert "unit_hit" in event_types(ev) and unit(st, (5, 13)).figures == 1
    assert st.active == "AXIS"  # both cards' battles done


def _finish_turn(st):
    for t in ("end_cards", "end_orders", "end_movement", "end_battles"):
        if t in types(st):
            st = do(st, t)
    return st


def test_the_draw_at_the_end_equals_the_cards_played():
    st = game(BOARD, hand=HAND, options=AM)
    st = play(st, "probe", 0)
    st = do(st, "end_orders")
    st = play(st, "attack", 2)
    st = do(st, "end_orders")
    deck = len(st.deck)
    st, ev = act(st, "end_cards")
    while st.active == "ALLIES":
        st, more = act(st, types(st)[-1])
        ev += more
    assert [e["count"] for e in ev if e["type"] == "card_drawn"] == [2]
    assert len(st.hands["ALLIES"]) == len(HAND) and len(st.deck) == deck - 2


def test_each_recon_draws_two_and_keeps_one():
    st = game(BOARD, hand=[("recon", 0), ("recon", 2), ("probe", 1)], options=AM)
    deck = len(st.deck)
    for key in (("recon", 0), ("probe", 1), ("recon", 2)):
        st = play(st, *key)
        st = do(st, "end_orders")  # no order: after the third card the turn ends
    assert st.phase == "recon" and st.active == "ALLIES"
    assert len(st.hands["ALLIES"]) == 1  # the Probe's card drawn outright
    st = do(st, "choose_card", card=st.recon_cards[0])
    assert st.phase == "recon"  # the second Recon's choice
    st = do(st, "choose_card", card=st.recon_cards[1])
    assert st.active == "AXIS"
    assert len(st.hands["ALLIES"]) == 3 and len(st.deck) == deck - 5


def test_counter_attack_copies_the_last_card_the_opponent_played():
    st = game(BOARD, hand=HAND, axis_hand=["counter_attack", ("probe", 1)], options=AM)
    st = play(st, "probe", 1)
    st = do(st, "end_orders")
    st = play(st, "probe", 0)
    st = do(st, "end_orders")
    st = _finish_turn(st)
    assert st.active == "AXIS"
    st, ev = act(st, "play_card", card=card_id("counter_attack"))
    copied = [e for e in ev if e["type"] == "card_copied"]
    assert copied and copied[0]["card"]["key"] == "probe" and copied[0]["card"]["sections"] == [0]
    # the copy acts on the same physical flank: the Axis right section (cols 0..6)
    assert [st.units[a["unit"]].hex for a in legal(st, "order")] == [(0, 2)]


def test_declarations_replace_the_card_play_and_are_offered_only_first():
    st = do(game(BOARD, hand=HAND, options=AM), "restoring_order")
    assert st.phase == "move" and "play_card" not in types(st)
    st = play(game(BOARD, hand=HAND, options=AM), "probe", 0)
    st = do(st, "end_orders")
    with pytest.raises(IllegalAction) as e:
        act(st, "big_push")
    assert e.value.code == "wrong_phase"


def test_end_cards_needs_a_card_and_a_tactic_card_is_played_alone():
    st = game(BOARD, hand=HAND, options=AM)
    assert "end_cards" not in types(st)
    with pytest.raises(IllegalAction) as e:
        act(st, "end_cards")
    assert e.value.code == "no_card_played"
    st = play(st, "direct_from_hq")
    st = do(st, "order", unit=uid(st, LEFT))
    st = do(st, "end_orders")
    assert st.phase == "move"


def test_option_off_keeps_one_card_a_turn():
    st = play(game(BOARD, hand=HAND), "probe", 0)
    st = do(st, "order", unit=uid(st, LEFT))
    st = do(st, "end_orders")
    assert st.phase == "move" and st.active == "ALLIES"
    assert "end_cards" not in types(st) and "play_card" not in types(st)


def test_registry_says_army_manoeuvres_is_implemented():
    assert REGISTRY["army_manoeuvres"].implemented


def test_army_manoeuvres_random_games_replay_equals_live():
    random_games(AM, {"end_cards", "restoring_order", "big_push"})
