"""Overlord dispatch (002 "The Game Turn" 1): who may receive which card, with error codes."""

import pytest

from engine import EngineError, apply, legal_actions, load_scenario, new_game, seats, to_act
from engine.bot import RandomBot, next_action
from engine.rulesets.overlord.cards import OVERLORD_DECK
from engine.rulesets.overlord.chain import seat_layouts
from tests.engine.olhelp import A, X, cards, do, ol_game
from tests.engine.paths import SCN_DIR

CINC = "ALLIES:cinc"
U = {
    (8, 4): "infus",
    (8, 12): "infus",
    (8, 20): "infus",
    (8, 28): "infus",
    (8, 36): "infus",
    (8, 44): "infus",
    (0, 4): "infger",
}


def err(st, **a):
    with pytest.raises(EngineError) as e:
        do(st, CINC, "dispatch", **a)
    return e.value.code


def test_default_mode_and_role_seats():
    st = new_game(load_scenario(f"{SCN_DIR}/13-OmahaBeachOverlord.m44"), 1)
    assert st.mode == "overlord"
    assert seats(st) == [f"{s}:{r}" for s in (X, A) for r in ("cinc", "left", "centre", "right")]
    assert to_act(st) == ["AXIS:cinc"]
    assert len(st.hands[X]) == 8 and len(st.deck) == 120 - 16
    assert len(OVERLORD_DECK) == 120
    lay = seat_layouts("overlord")
    assert lay["3"] == [["cinc", "centre"], ["left"], ["right"]]
    assert lay["1"] == [["cinc", "left", "centre", "right"]]
    assert "4" not in seat_layouts("team")


def test_section_cards_go_to_their_arrow():
    st = ol_game(
        U,
        allies=[
            ("probe", 0),
            ("probe", 1),
            ("probe", 2),
            "pincer_move",
            "general_advance",
            "recon_in_force",
        ],
    )
    pl, pc, pr, pin, ga, rif = st.hands[A]
    assert err(st, card=pl, to="centre") == "section_card_wrong_general"
    assert err(st, card=pr, to="left") == "section_card_wrong_general"
    assert err(st, card=pin, to="centre") == "section_card_wrong_general"
    assert err(st, card=pc, to="cinc") == "card_not_for_cinc"
    for c, to in (
        (pl, "left"),
        (pc, "centre"),
        (pr, "right"),
        (pin, "left"),
        (pin, "right"),
        (ga, "centre"),
        (rif, "left"),
    ):
        do(st, CINC, "dispatch", card=c, to=to)
    acts = legal_actions(st, CINC)
    assert {"type": "dispatch", "seat": CINC, "card": pin, "to": "right"} in acts
    assert {"type": "dispatch", "seat": CINC, "card": pin, "to": "centre"} not in acts


def test_tactic_icons():
    st = ol_game(
        U,
        allies=["air_power", "barrage", "direct_from_hq", "counter_attack", "ambush", ("probe", 0)],
    )
    ap, bar, dfhq, ca, amb, pl = st.hands[A]
    assert err(st, card=ap, to="left") == "card_only_for_cinc"
    assert err(st, card=dfhq, to="cinc") == "card_not_for_cinc"
    assert err(st, card=amb, to="cinc") == "card_not_playable"
    assert err(st, card=amb, to="left") == "card_not_playable"
    do(st, CINC, "dispatch", card=ca, to="cinc")
    do(st, CINC, "dispatch", card=ca, to="right")
    st2 = do(st, CINC, "dispatch", card=ap, to="cinc")
    assert err(st2, card=bar, to="cinc") == "cinc_tactic_only_one"
    # the C-in-C playing a tactic may still hand out two other cards
    st2 = do(st2, CINC, "dispatch", card=dfhq, to="centre")
    st2 = do(st2, CINC, "dispatch", card=pl, to="left")
    assert err(st2, card=ca, to="right") == "too_many_cards"


def test_field_general_limits():
    st = ol_game(
        U,
        allies=[
            ("probe", 0),
            ("attack", 0),
            ("recon", 0),
            "direct_from_hq",
            "general_advance",
            "move_out",
        ],
    )
    p, a, r, dfhq, ga, mo = st.hands[A]
    st1 = do(st, CINC, "dispatch", card=dfhq, to="left")
    assert err(st1, card=p, to="left") == "tactic_card_must_be_alone"
    assert err(st1, card=mo, to="left") == "tactic_card_must_be_alone"
    st2 = do(st, CINC, "dispatch", card=p, to="left")
    assert err(st2, card=dfhq, to="left") == "tactic_card_must_be_alone"
    assert err(st2, card=ga, to="left") == "section_card_both_halves"
    st3 = do(st2, CINC, "dispatch", card=a, to="left")
    assert err(st3, card=r, to="left") == "general_card_limit"
    assert err(st3, card=p, to="right") == "card_already_dispatched"


def test_keep_one_card_and_confirm():
    st = ol_game(U, allies=[("probe", 0), ("probe", 1), ("probe", 2)])
    st.hands[A] = st.hands[A][:3]
    pl, pc, pr = st.hands[A]
    with pytest.raises(EngineError) as e:
        do(st, CINC, "confirm_dispatch")
    assert e.value.code == "must_dispatch_a_card"
    st = do(st, CINC, "dispatch", card=pl, to="left")
    st = do(st, CINC, "dispatch", card=pc, to="centre")
    assert err(st, card=pr, to="right") == "must_keep_one_card"
    st = do(st, CINC, "undo_dispatch", card=pc)
    st = do(st, CINC, "dispatch", card=pr, to="right")
    with pytest.raises(EngineError) as e:
        do(st, "ALLIES:left", "visit", fg="left")
    assert e.value.code == "not_your_turn"
    st = do(st, CINC, "visit", fg="right")
    st = do(st, CINC, "confirm_dispatch")
    assert st.hands[A] == [pc]
    assert set(to_act(st)) == {"ALLIES:left", "ALLIES:centre", "ALLIES:right"}
    assert st.ext["visits"][-1] == [st.turn, A, "right"]


def test_only_ambush_in_hand_confirms_empty():
    st = ol_game(U, allies=["ambush", ("probe", 0)])
    st.hands[A] = st.hands[A][:1]
    assert legal_actions(st, CINC)[-1] == {"type": "confirm_dispatch", "seat": CINC}
    st = do(st, CINC, "confirm_dispatch")
    assert set(to_act(st)) == {"ALLIES:left", "ALLIES:centre", "ALLIES:right"}


def test_cards_for_ids():
    assert cards(("probe", 0), ("probe", 0)) == [106, 107]


def test_the_bot_decides_then_confirms_never_taking_a_decision_back():
    # a stand-in C-in-C used to give and take back cards dozens of times before confirming
    # (uniform over undo_dispatch / visit / dispatch): now each turn's dispatch step is at
    # most 3 cards, 1 visit, 1 Gung-Ho choice and the confirmation
    scn = load_scenario(f"{SCN_DIR}/13-OmahaBeachOverlord.m44")
    for seed in range(4):
        st, bot = new_game(scn, seed), RandomBot(seed)
        steps: dict[int, list[str]] = {}
        while not st.game_over and st.turn <= 12:
            a = next_action(st, bot)
            if a["type"] in ("dispatch", "undo_dispatch", "visit", "gung_ho", "confirm_dispatch"):
                steps.setdefault(st.turn, []).append(a["type"])
            st, _ = apply(st, a)
        assert steps
        for kinds in steps.values():
            assert "undo_dispatch" not in kinds and kinds.count("visit") <= 1
            assert kinds[-1] == "confirm_dispatch" and len(kinds) <= 6, kinds
