"""Overlord card texts (vocabulary 5.2, rules/002): Recon draw, Their Finest Hour,
Medics & Mechanics, Firefight, Counter-Attack last turn option."""
import pytest

from engine import EngineError, apply, is_chance, legal_actions, load_scenario, new_game, \
    sample_chance, to_act
from engine.bot import RandomBot, next_action
from tests.engine.olhelp import A, X, dispatch, do, ol_game, roll

CINC, L, C, R = "ALLIES:cinc", "ALLIES:left", "ALLIES:centre", "ALLIES:right"
OMAHA = "/work/shared/scenarios/m44/13-OmahaBeachOverlord.m44"


def _finish_turn(st, side=A):
    """Play the side's turn out with end/pass actions (first legal action otherwise)."""
    while st.active == side and not st.game_over:
        if is_chance(st):
            st, _ = apply(st, sample_chance(st))
            continue
        acts = legal_actions(st, to_act(st)[0])
        ends = [a for a in acts if a["type"].startswith("end_") or a["type"] == "pass"]
        st, _ = apply(st, (ends or acts)[0])
    return st


def test_recon_in_overlord_cinc_draws_two_up_to_hand_size_002():
    # 002 "The Game Turn" 4: two new cards "regardless of the number of cards he gave out
    # and played" (vocabulary 5.2 quotes a "draw 3" text; 002 wins): no Recon choice
    st = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=[("recon", 0)] + [("probe", 1)] * 5,
                 hand=(8, 8))
    rc = st.hands[A][0]
    st = dispatch(st, {rc: "left"})
    st = do(st, L, "play_card", card=rc, half=0)
    st = _finish_turn(st)
    assert st.active == X and len(st.hands[A]) == 7 and st.phase != "recon"


def test_their_finest_hour_in_overlord_is_alone():
    st = ol_game({(8, 4): "infus", (0, 4): "infger"},
                 allies=["their_finest_hour", ("probe", 1), ("probe", 0), ("probe", 2)])
    tfh, p1, p0 = st.hands[A][:3]
    st2 = do(st, CINC, "dispatch", card=tfh, to="cinc")
    with pytest.raises(EngineError) as e:
        do(st2, CINC, "dispatch", card=p1, to="centre")
    assert e.value.code == "finest_hour_alone"
    assert not [a for a in legal_actions(st2, CINC) if a["type"] == "dispatch"]
    st3 = do(st, CINC, "dispatch", card=p0, to="left")
    with pytest.raises(EngineError) as e:
        do(st3, CINC, "dispatch", card=tfh, to="cinc")
    assert e.value.code == "finest_hour_alone"


def test_their_finest_hour_in_overlord_each_general_rolls_four_dice():
    st = ol_game({(8, 4): "infus", (8, 12): "infus", (8, 20): "tankus", (8, 36): "infus",
                  (0, 4): "infger"}, allies=["their_finest_hour", ("probe", 1), ("probe", 0)])
    tfh = st.hands[A][0]
    st = dispatch(st, {tfh: "cinc"})
    assert st.pending["type"] == "roll" and st.pending["dice"] == 12
    # left: inf, inf, flag, flag; centre: armor x4; right: star + 3 grenades
    st = roll(st, "inf", "inf", "flag", "flag", "armor", "armor", "armor", "armor",
              "star", "grenade", "grenade", "grenade")
    play = st.plays[-1]
    assert play.flags["bonus"] == 1 and st.reshuffle
    got = {u for a in legal_actions(st, CINC) if a["type"] == "order" for u in [a["unit"]]}
    # left FG's infantry ordered in his command; centre has armor (8, 20 is sub-section 2?)
    assert st.occ[(8, 4)] in got and st.occ[(8, 12)] in got
    assert st.occ[(8, 36)] in got                 # right FG's star orders any of his units
    zones = {(q.sections, q.count, q.classes) for q in play.quotas}
    assert (frozenset({0, 1}), 2, frozenset({"inf"})) in zones
    assert (frozenset({2, 3}), 4, frozenset({"armor"})) in zones
    assert (frozenset({4, 5}), 1, None) in zones


def test_medics_and_mechanics_in_overlord_rolls_four_dice():
    st = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=["medics_and_mechanics", ("probe", 1)])
    uid = st.occ[(8, 4)]
    st.mut(uid).figures -= 2
    mm = st.hands[A][0]
    st = dispatch(st, {mm: "left"})
    st = do(st, L, "play_card", card=mm)
    st = do(st, L, "order", unit=uid)
    if st.pending["type"] != "roll":
        st = do(st, L, "end_orders")
    assert st.pending["type"] == "roll" and st.pending["dice"] == 4


def test_firefight_in_overlord_has_no_extra_die():
    # the Overlord Firefight text drops the standard "+1 die" line (vocabulary 5.2)
    st = ol_game({(8, 4): "infus", (4, 4): "infger"}, allies=["firefight", ("probe", 1)])
    ff = st.hands[A][0]
    st = dispatch(st, {ff: "left"})
    st = do(st, L, "play_card", card=ff)
    play = [p for p in st.plays if p.seat == L][0]
    assert play.flags.get("no_move") and not play.flags.get("bonus")


def test_counter_attack_last_turn_option_in_overlord():
    # 004 optional rule in Overlord mode: the side that reaches its medals lets the other
    # side play one last turn, then the most damage wins (the game used to never end)
    scn = load_scenario(OMAHA)
    for seed in range(3):
        st = new_game(scn, seed, {"counter_attack_last_turn": True})
        bot = RandomBot(seed)
        evs = []
        while not st.game_over and st.turn <= 300:
            st, ev = apply(st, next_action(st, bot))
            evs += ev
        assert st.game_over
        kinds = [e["type"] for e in evs]
        if "last_turn" in kinds:
            over = [e for e in evs if e["type"] == "game_over"][0]
            assert over["reason"] in ("damage", "annihilation")
            last = [e for e in evs if e["type"] == "last_turn"][0]["side"]
            assert any(e["type"] == "turn_ended" and e["side"] == last
                       for e in evs[kinds.index("last_turn"):]) or over["reason"] != "damage"
            return
    raise AssertionError("no game reached the last turn")
