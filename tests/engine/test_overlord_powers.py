"""Overlord Ambush via the C-in-C, Soviet Commissar and US Marines Gung-Ho (002 expansions)."""

import pytest

from engine import EngineError, apply, legal_actions, to_act
from tests.engine.olhelp import A, X, dispatch, do, ol_game, pass_all, roll

L, C, R, CINC = "ALLIES:left", "ALLIES:centre", "ALLIES:right", "ALLIES:cinc"


def test_ambush_window_for_the_cinc_and_immediate_replacement():
    u = {(6, 4): "infus", (5, 5): "infger"}
    st = ol_game(u, allies=[("probe", 0), ("probe", 1)], axis=["ambush", ("probe", 1)], hand=(2, 6))
    st = dispatch(st, {st.hands[A][0]: "left"})
    st = pass_all(st)
    st = do(st, L, "play_card", card=st.ext["received"]["left"][0], half=0)
    st = do(st, L, "order", unit="u1")
    st = do(st, L, "end_movement")
    st, _ = apply(st, {"type": "battle", "seat": L, "unit": "u1", "target": [5, 5]})
    assert to_act(st) == ["AXIS:cinc"]  # the window goes to the C-in-C
    assert {a["type"] for a in legal_actions(st, "AXIS:cinc")} == {"ambush", "pass"}
    st, ev = apply(st, {"type": "ambush", "seat": "AXIS:cinc"})
    assert ev[0]["type"] == "card_played" and ev[0]["reaction"]
    assert len(st.hands[X]) == 1
    st = roll(st, "inf", "star", "star")  # ambush roll: 1 hit, no flag
    assert to_act(st) == ["chance"] and len(st.hands[X]) == 1
    st = roll(st, "star", "star", "star")  # the close assault itself: no hit
    assert len(st.hands[X]) == 2  # replacement drawn once it is over


def test_commissar_cards_under_the_chip():
    u = {(8, 4): "infus", (0, 4): "infger"}
    st = ol_game(
        u,
        allies=[
            ("probe", 0),
            ("probe", 1),
            ("probe", 2),
            "counter_attack",
            ("attack", 1),
            ("recon", 1),
        ],
        options={"russian_commissar_rule": "ALLIES"},
    )
    st.ext["step"] = "commissar_setup"
    p0, p1, p2, ca, a1, r1 = st.hands[A]
    assert to_act(st) == [CINC] and st.pending["type"] == "commissar"
    for c in (p0, p1, p2):
        st = do(st, CINC, "commissar", card=c)
    with pytest.raises(EngineError) as e:
        do(st, CINC, "commissar", card=a1)
    assert e.value.code == "commissar_limit"
    st = do(st, CINC, "end_commissar")
    # Allies' turn: the chip cards are taken, new ones placed, then dispatch from the taken
    assert list(st.ext["taken"]) == [p0, p1, p2] and st.pending["type"] == "commissar"
    st = do(st, CINC, "commissar", card=a1)
    st = do(st, CINC, "end_commissar")
    with pytest.raises(EngineError) as e:
        do(st, CINC, "dispatch", card=r1, to="centre")
    assert e.value.code == "card_not_in_hand"  # Recon cannot come straight from hand
    st = do(st, CINC, "dispatch", card=p0, to="left")
    with pytest.raises(EngineError) as e:
        do(st, CINC, "confirm_dispatch")
    assert e.value.code == "commissar_cards_must_be_played"
    st = do(st, CINC, "dispatch", card=p1, to="centre")
    st = do(st, CINC, "dispatch", card=p2, to="right")
    with pytest.raises(EngineError) as e:
        do(st, CINC, "dispatch", card=ca, to="cinc")  # 3 played at most, chip cards included
    assert e.value.code == "too_many_cards"
    assert list(do(st, CINC, "confirm_dispatch").ext["chip"][A]) == [a1]


def test_commissar_counter_attack_from_hand_within_three():
    u = {(8, 4): "infus", (0, 4): "infger"}
    st = ol_game(
        u,
        allies=[("probe", 0), "counter_attack", ("probe", 1)],
        options={"russian_commissar_rule": "ALLIES"},
    )
    p0, ca, p1 = st.hands[A][:3]
    st.ext["step"], st.phase = "dispatch", "dispatch"
    st.ext["taken"] = [p0]
    st.hands[A] = [ca, p1]
    acts = legal_actions(st, CINC)
    assert {"type": "dispatch", "seat": CINC, "card": ca, "to": "cinc"} in acts
    assert not any(a.get("card") == p1 for a in acts)


def gung(allies):
    u = {
        (8, 4): "infus",
        (8, 12): "infus",
        (7, 5): "infus",
        (6, 4): "infus",
        (6, 6): "infus",
        (8, 20): "infus",
        (8, 22): "infus",
        (6, 20): "infus",
        (6, 22): "infus",
        (6, 24): "infus",
        (6, 18): "infus",
        (0, 4): "infger",
    }
    return ol_game(u, allies=allies, options={"gung_ho": True}, game_info={"country_player2": "US"})


def test_gung_ho_one_fg_orders_one_more_on_section_card():
    st = gung([("probe", 0), "direct_from_hq", ("probe", 2)])
    pl, dfhq = st.hands[A][:2]
    assert A in st.ext["gung_ho_sides"]
    st = do(st, CINC, "gung_ho", fg="left")
    st = dispatch(st, {pl: "left", dfhq: "centre"})
    st = do(st, R, "pass")
    st = do(st, L, "play_card", card=pl, half=0)
    assert st.plays[-1].quotas[0].count == 3  # Probe 2 + 1
    st = do(st, C, "play_card", card=dfhq)
    assert st.plays[-1].quotas[0].count == 5  # tactic ordering 4 orders 5


def test_gung_ho_leaves_barrage_and_others_alone():
    st = gung(["close_assault", ("probe", 1), ("probe", 2)])
    ca = st.hands[A][0]
    st = dispatch(st, {ca: "centre"})
    assert not st.plays or all(q.count < 5 for p in st.plays for q in p.quotas)
    st2 = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=[("probe", 0)] * 3)
    assert not st2.ext["gung_ho_sides"]
    with pytest.raises(EngineError) as e:
        do(st2, CINC, "gung_ho", fg="left")
    assert e.value.code == "no_gung_ho"
