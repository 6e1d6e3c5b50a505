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
    assert st.active == "AXIS"  # no legal target: the turn ended


def test_artillery_v_tank_one_die_less():
    text = "0@0: .:i\n4@10: .:a\n6@10: .:G"
    st = _ready(text, (6, 10), {"artillery_v_tank": True})
    st = do(st, "battle", unit=uid(st, (6, 10)), target=[4, 10])
    assert st.pending["dice"] == 2


def test_infantry_charge_marching_two_hexes_battles_defender_first():
    from tests.engine.rulehelp import act, battle_dice_vs, do, legal, ordered, roll, to_battle, uid

    text = "0@0: .:i\n3@11: .:i\n3@15: .:a\n6@12: .:I\n6@16: .:I"
    # without the option: marching 2 hexes = no battle
    st = ordered(text, [(6, 12), (6, 16)], key=("attack", 1))
    st = do(st, "move", unit=uid(st, (6, 12)), to=[4, 12])
    st = to_battle(st)
    assert uid(st, (4, 12)) not in [a["unit"] for a in legal(st, "battle")]
    st = ordered(text, [(6, 12), (6, 16)], key=("attack", 1), options={"infantry_charge": True})
    st = do(st, "move", unit=uid(st, (6, 12)), to=[4, 12])
    st = do(st, "move", unit=uid(st, (6, 16)), to=[4, 16])
    st = to_battle(st)
    acts = [(a["unit"], a["target"]) for a in legal(st, "battle")]
    assert (uid(st, (4, 12)), [3, 11]) in acts  # charge the infantry
    assert uid(st, (4, 16)) not in [u for u, _ in acts]  # not armor
    assert battle_dice_vs(st, (4, 12), (3, 11)) == 3
    st, ev = act(st, "battle", unit=uid(st, (4, 12)), target=[3, 11])
    assert st.pending["for"] == "charge_defence" and st.pending["unit"] == uid(st, (3, 11))
    st, ev = roll(st, "inf", "armor", "grenade")  # the defender first: 2 hits
    assert st.units[uid(st, (4, 12))].figures == 2
    assert st.pending["type"] == "roll" and st.pending["for"] == "battle"
    assert st.pending["unit"] == uid(st, (4, 12))


def test_firefight_continuing_close_assault_goes_on_next_turn_without_orders():
    from tests.engine.rulehelp import act, do, legal, ordered, roll, to_battle, uid

    st = ordered(
        "0@0: .:i\n4@12: .:i\n5@11: .:I",
        [(5, 11)],
        key=("probe", 1),
        axis_hand=[("probe", 0), ("probe", 2)],
        options={"firefight_continuing": True},
    )
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 12])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "armor", "star", "grenade")  # 1 hit, both stay
    assert st.ext["firefights"] == ((uid(st, (5, 11)), uid(st, (4, 12)), (5, 11), (4, 12)),)
    # Axis turn: Probe Left orders nobody near; the Axis unit fights on without an order
    st = do(st, "play_card", card=st.hands["AXIS"][0])
    if st.phase == "order":
        st = do(st, "end_orders")
    acts = legal(st, "firefight")
    assert acts == [
        {"type": "firefight", "seat": "AXIS", "unit": uid(st, (4, 12)), "target": [5, 11]}
    ]
    st, ev = act(st, "firefight", unit=uid(st, (4, 12)), target=[5, 11])
    assert st.pending["for"] == "firefight" and st.pending["dice"] == 2  # one die less
    st, ev = roll(st, "grenade", "grenade")  # grenades are ignored
    assert [e for e in ev if e["type"] == "dice_rolled"][0]["hits"] == 0


# ============================================ 004 "Methods For Discarding Useless Cards"
USELESS = {"discard_useless_cards": True}


def test_discard_useless_cards_method_2_one_card_face_down_one_unit_battles_without_moving():
    import pytest
    from engine import IllegalAction, events_for
    from tests.engine.rulehelp import act, card_id, event_types, unit

    text = "4@2: .:i\n4@10: .:i\n5@11: .:I\n6@2: .:I\n8@20: .:I"
    hand = [("probe", 1), ("recon", 0)]
    st = game(text, hand=hand, options=USELESS)
    probe = card_id("probe", 1)
    assert {a["card"] for a in legal(st, "exchange_card")} == set(st.hands["ALLIES"])
    st, ev = act(st, "exchange_card", card=probe)
    assert probe not in st.hands["ALLIES"] and st.discard[-1] == probe
    assert len(st.hands["ALLIES"]) == 2 and "card_drawn" in event_types(ev)
    [x] = [e for e in ev if e["type"] == "card_exchanged"]  # face down
    assert "secret" not in [e for e in events_for(ev, "AXIS") if e["type"] == "card_exchanged"][0]
    assert x["secret"]["card"]["id"] == probe
    # the unit in close assault is ordered; one more unit may be ordered, anywhere
    assert unit(st, (5, 11)).ordered and st.phase == "order"
    assert sorted(a["unit"] for a in legal(st, "order")) == sorted(
        [uid(st, (6, 2)), uid(st, (8, 20))]
    )
    st = do(st, "order", unit=uid(st, (6, 2)))
    assert st.phase == "battle" and not legal(st, "move")  # nobody moves
    assert sorted((a["unit"], tuple(a["target"])) for a in legal(st, "battle")) == sorted(
        [(uid(st, (5, 11)), (4, 10)), (uid(st, (6, 2)), (4, 2))]
    )
    n = len(st.hands["ALLIES"])
    st, ev = act(st, "end_battles")
    assert st.active == "AXIS" and len(st.hands["ALLIES"]) == n  # no end-of-turn draw
    assert not [e for e in ev if e["type"] == "card_drawn" and e["side"] == "ALLIES"]
    # not without the option
    st = game(text, hand=hand)
    assert not legal(st, "exchange_card") and not legal(st, "offer_cards")
    with pytest.raises(IllegalAction) as e:
        act(st, "exchange_card", card=probe)
    assert e.value.code == "card_not_playable"


def test_discard_useless_cards_method_1_face_up_opponent_takes_rest_discarded_once_per_game():
    from engine import events_for
    from tests.engine.rulehelp import act, card_id

    recon0, attack, dfhq, recon1 = (
        card_id("recon", 0),
        card_id("attack", 1),
        card_id("direct_from_hq"),
        card_id("recon", 1),
    )
    probe0, probe2 = card_id("probe", 0), card_id("probe", 2)
    st = game(
        "0@12: .:i\n8@12: .:I",
        hand=[recon0, attack, dfhq, recon1],
        axis_hand=[probe0, probe2],
        options=USELESS,
    )
    st = do(st, "offer_cards")
    assert st.pending["type"] == "offer_cards" and st.pending["seat"] == "ALLIES"
    assert not legal(st, "end_offer")  # lay at least one card
    st, ev = act(st, "offer", card=recon0)
    assert ev[0]["type"] == "card_offered" and "secret" not in ev[0]  # face up
    st = do(st, "offer", card=attack)
    st = do(st, "end_offer")
    assert st.pending["type"] == "exchange" and st.pending["seat"] == "AXIS"
    assert [c["id"] for c in st.pending["offered"]] == [recon0, attack]
    st, ev = act(st, "take", card=recon0, give=probe0)
    assert sorted(st.hands["AXIS"]) == sorted([probe2, recon0])
    assert probe0 in st.hands["ALLIES"] and recon0 not in st.hands["ALLIES"]
    assert "secret" not in events_for(ev, None)[0] and "secret" in events_for(ev, "ALLIES")[0]
    deck = len(st.deck)
    st, ev = act(st, "end_exchange")
    assert st.discard[-1] == attack  # the unwanted card
    assert len(st.hands["ALLIES"]) == 4 and len(st.deck) == deck - 1  # drawn up to 4
    assert st.active == "AXIS" and st.phase == "play_card"  # the whole turn
    # Axis turn, then the Allies: Method 1 only once per game, Method 2 still offered
    st = do(st, "play_card", card=probe2)
    while st.active == "AXIS":
        st = do(st, legal(st)[-1]["type"])
    assert not legal(st, "offer_cards") and legal(st, "exchange_card")


def test_discard_useless_cards_random_games_replay_equals_live():
    from tests.engine.rulehelp import random_games

    random_games(USELESS, {"exchange_card", "offer_cards", "take", "end_exchange"})
