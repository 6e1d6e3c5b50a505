"""Overlord card texts (vocabulary 5.2, rules/002): Recon draw, Their Finest Hour,
Medics & Mechanics, Firefight, Counter-Attack (copy choice) and its last turn option."""

import pytest

from engine import EngineError, apply, legal_actions, load_scenario, new_game
from engine.bot import RandomBot, next_action
from engine.rulesets.m44.cards import CARDS
from engine.rulesets.overlord.cards import first_overlord
from tests.engine.olhelp import A, X, dispatch, do, finish_turn, ol_game, roll
from engine.core.textboard import m44_from_text
from tests.engine.paths import SCN_DIR

CINC, L, C, R = "ALLIES:cinc", "ALLIES:left", "ALLIES:centre", "ALLIES:right"
OMAHA = f"{SCN_DIR}/13-OmahaBeachOverlord.m44"


def test_recon_in_overlord_cinc_draws_two_up_to_hand_size_002():
    # 002 "The Game Turn" 4: two new cards "regardless of the number of cards he gave out
    # and played" (vocabulary 5.2 quotes a "draw 3" text; 002 wins): no Recon choice
    st = ol_game(
        {(8, 4): "infus", (0, 4): "infger"}, allies=[("recon", 0)] + [("probe", 1)] * 5, hand=(8, 8)
    )
    rc = st.hands[A][0]
    st = dispatch(st, {rc: "left"})
    st = do(st, L, "play_card", card=rc, half=0)
    st = finish_turn(st)
    assert st.active == X and len(st.hands[A]) == 7 and st.phase != "recon"


def test_their_finest_hour_in_overlord_is_alone():
    st = ol_game(
        {(8, 4): "infus", (0, 4): "infger"},
        allies=["their_finest_hour", ("probe", 1), ("probe", 0), ("probe", 2)],
    )
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
    st = ol_game(
        {(8, 4): "infus", (8, 12): "infus", (8, 20): "tankus", (8, 36): "infus", (0, 4): "infger"},
        allies=["their_finest_hour", ("probe", 1), ("probe", 0)],
    )
    tfh = st.hands[A][0]
    st = dispatch(st, {tfh: "cinc"})
    assert st.pending["type"] == "roll" and st.pending["dice"] == 12
    # left: inf, inf, flag, flag; centre: armor x4; right: star + 3 grenades
    st = roll(
        st,
        "inf",
        "inf",
        "flag",
        "flag",
        "armor",
        "armor",
        "armor",
        "armor",
        "star",
        "grenade",
        "grenade",
        "grenade",
    )
    play = st.plays[-1]
    assert play.flags["bonus"] == 1 and st.reshuffle
    got = {u for a in legal_actions(st, CINC) if a["type"] == "order" for u in [a["unit"]]}
    # left FG's infantry ordered in his command; centre has armor (8, 20 is sub-section 2?)
    assert st.occ[(8, 4)] in got and st.occ[(8, 12)] in got
    assert st.occ[(8, 36)] in got  # right FG's star orders any of his units
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
            assert (
                any(
                    e["type"] == "turn_ended" and e["side"] == last
                    for e in evs[kinds.index("last_turn") :]
                )
                or over["reason"] != "damage"
            )
            return
    raise AssertionError("no game reached the last turn")


def _last_plays(st, side, plays):
    st.ext["last_plays"] = {**st.ext["last_plays"], side: tuple(plays)}
    return st


def test_counter_attack_copies_the_directly_opposite_field_generals_card():
    from engine.rulesets.overlord.cards import first_overlord

    st = ol_game(
        {(8, 4): "infus", (8, 12): "infus", (0, 4): "infger"},
        allies=["counter_attack", ("probe", 1)],
    )
    ca = st.hands[A][0]
    pr = first_overlord("probe", 2)
    st = _last_plays(st, X, [{"role": "right", "src": pr, "subs": [4]}])
    st = dispatch(st, {ca: "left"})
    st, ev = apply(st, {"type": "play_card", "seat": L, "card": ca})
    assert any(e["type"] == "card_copied" and e["mirrored"] for e in ev)
    play = [p for p in st.plays if p.seat == L][0]
    assert play.key == "probe" and play.flags["subs"] == [1]


def test_counter_attack_copies_a_cinc_card_in_any_section():
    from engine.rulesets.overlord.cards import first_overlord

    st = ol_game(
        {(8, 4): "infus", (0, 4): "infger", (0, 40): "infger"},
        allies=["counter_attack", ("probe", 1)],
    )
    ca = st.hands[A][0]
    st = _last_plays(st, X, [{"role": "cinc", "src": first_overlord("barrage"), "subs": None}])
    st = dispatch(st, {ca: "left"})
    st, ev = apply(st, {"type": "play_card", "seat": L, "card": ca})
    assert any(e["type"] == "card_copied" and not e["mirrored"] for e in ev)
    targets = {tuple(a["hex"]) for a in legal_actions(st, L) if a["type"] == "target"}
    assert (0, 40) in targets and (0, 4) in targets  # any section of the board


def _air_game(allies):
    from engine.rulesets.overlord.cards import AIR_SORTIES
    from engine.rulesets.overlord import machine as OL
    from engine.core.textboard import board_from_text
    from tests.engine.olhelp import cards

    scn = board_from_text(
        "", kind="OVERLORD", units={(8, 4): "infus", (0, 4): "infger"}, cards=(6, 6)
    )
    st = new_game(scn, 1, {"overlord_air_sortie": True})
    st.hands[A] = [AIR_SORTIES[0].id] + cards(*allies)
    OL.refresh(st)
    return st


def test_air_sortie_in_overlord_start_and_hand_size():
    from engine.rulesets.overlord.cards import AIR_SORTIES

    scn = load_scenario(OMAHA)
    st = new_game(scn, 4, {"overlord_air_sortie": True})
    air = {c.id for c in AIR_SORTIES}
    for s in (A, X):
        mine = [c for c in st.hands[s] if c in air]
        assert len(mine) >= 1  # one each at the start
        assert len(st.hands[s]) - len(mine) == scn.cards[s]  # not counted in the hand
    assert sum(c in air for c in st.deck) + sum(c in air for s in (A, X) for c in st.hands[s]) == 4
    plain = new_game(scn, 4)
    assert not any(c in air for c in plain.deck + plain.hands[A] + plain.hands[X])


def test_air_sortie_in_overlord_dispatch_limits():
    st = _air_game(["armor_assault", ("probe", 0), ("recon", 0), "general_advance"])
    air, aa, p0, r0, ga = st.hands[A]
    with pytest.raises(EngineError) as e:  # never played by the C-in-C
        do(st, CINC, "dispatch", card=air, to="cinc")
    assert e.value.code == "card_not_for_cinc"
    st2 = do(st, CINC, "dispatch", card=air, to="left")  # with a Section card: fine
    st2 = do(st2, CINC, "dispatch", card=p0, to="left")
    with pytest.raises(EngineError) as e:  # FG: two cards at most
        do(st2, CINC, "dispatch", card=r0, to="left")
    assert e.value.code == "general_card_limit"
    st3 = do(st, CINC, "dispatch", card=air, to="centre")
    with pytest.raises(EngineError) as e:  # never with another Tactic card
        do(st3, CINC, "dispatch", card=aa, to="centre")
    assert e.value.code == "tactic_card_must_be_alone"
    st3 = do(st3, CINC, "dispatch", card=ga, to="centre")  # astride card + Air Sortie: fine
    st3 = do(st3, CINC, "dispatch", card=aa, to="right")
    with pytest.raises(EngineError) as e:  # counts toward the 3 cards
        do(st3, CINC, "dispatch", card=p0, to="left")
    assert e.value.code == "too_many_cards"
    st3 = do(st3, CINC, "confirm_dispatch")
    st3, ev = apply(st3, {"type": "play_card", "seat": C, "card": air})
    assert ev[0]["type"] == "card_played"  # airplanes: not yet, no effect


def _both_sources(allied_extra=()):
    """Allies pass a turn; the Axis C-in-C plays a Barrage (missing) and the Axis right FG
    (facing the Allied left FG) a Probe Right in the half of (0,4); then the Allied left FG
    receives a Counter-Attack: both the opposite FG's card and a C-in-C card to copy."""
    st = ol_game(
        {
            (8, 4): "infus",
            (8, 12): "infus",
            (0, 4): "infger",
            (0, 40): "infger",
            **dict(allied_extra),
        },
        allies=["counter_attack", ("probe", 1), ("probe", 1)],
        axis=["barrage", ("probe", 2), ("probe", 1)],
    )
    ca = st.hands[A][0]
    st = finish_turn(dispatch(st, {st.hands[A][1]: "centre"}), A)
    bar, pr = st.hands[X][:2]
    st = dispatch(st, {bar: "cinc", pr: "right"})
    st = do(st, "AXIS:cinc", "target", hex=[8, 12])
    st = roll(st, "armor", "armor", "armor", "armor")  # the Barrage misses
    st = do(st, "AXIS:right", "play_card", card=pr, half=1)  # sub-section 5: (0,4)
    st = finish_turn(st, X)
    return dispatch(st, {ca: "left"}), ca


def test_counter_attack_with_both_sources_offers_the_choice_and_copies_each():
    st, ca = _both_sources()
    plays = [a for a in legal_actions(st, L) if a["type"] == "play_card"]
    assert plays == [
        {"type": "play_card", "seat": L, "card": ca, "copy": "field_general"},
        {"type": "play_card", "seat": L, "card": ca, "copy": "cinc"},
    ]
    # the opposite FG's Probe, mirrored: his half 1 (sub-section 5) faces our sub-section 0
    fg, events = apply(st, plays[0])
    assert {
        "type": "card_played",
        "seat": L,
        "side": A,
        "card": CARDS[ca].to_json(),
        "half": None,
        "copy": "field_general",
    } in events
    assert [e["card"]["key"] for e in events if e["type"] == "card_copied"] == ["probe"]
    play = [p for p in fg.plays if p.seat == L][0]
    assert play.key == "probe" and play.flags["subs"] == [0]
    assert {a["unit"] for a in legal_actions(fg, L) if a["type"] == "order"} == {fg.occ[(8, 4)]}
    # the enemy C-in-C's Barrage: a target in any section of the board
    top, events = apply(st, plays[1])
    assert [e["card"]["key"] for e in events if e["type"] == "card_copied"] == ["barrage"]
    hexes = {tuple(a["hex"]) for a in legal_actions(top, L) if a["type"] == "target"}
    assert hexes == {(0, 4), (0, 40)}


def test_counter_attack_copy_choice_errors():
    st, ca = _both_sources()
    for bad in ({}, {"copy": "axis"}, {"copy": 1}):
        with pytest.raises(EngineError) as e:
            apply(st, {"type": "play_card", "seat": L, "card": ca, **bad})
        assert e.value.code == "illegal_copy"
    # one source only (no enemy C-in-C card): no choice offered, the other value refused
    st = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=["counter_attack", ("probe", 1)])
    ca = st.hands[A][0]
    st = _last_plays(st, X, [{"role": "right", "src": first_overlord("probe", 2), "subs": [4]}])
    st = dispatch(st, {ca: "left"})
    assert [a for a in legal_actions(st, L) if a["type"] == "play_card"] == [
        {"type": "play_card", "seat": L, "card": ca}
    ]
    with pytest.raises(EngineError) as e:
        apply(st, {"type": "play_card", "seat": L, "card": ca, "copy": "cinc"})
    assert e.value.code == "illegal_copy"
    assert (
        apply(st, {"type": "play_card", "seat": L, "card": ca, "copy": "field_general"})[0]
        .plays[-1]
        .key
        == "probe"
    )
    # a card that is no Counter-Attack copies nothing
    st = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=[("probe", 0), ("probe", 1)])
    pr = st.hands[A][0]
    st = dispatch(st, {pr: "left"})
    with pytest.raises(EngineError) as e:
        apply(st, {"type": "play_card", "seat": L, "card": pr, "half": 0, "copy": "cinc"})
    assert e.value.code == "illegal_copy"


def test_counter_attack_copying_a_night_barrage_orders_one_unit_in_the_fgs_command():
    # visibility < 6 (vocabulary 3.3): the copied C-in-C card orders 1 unit, and a Field
    # General orders only under his own command
    st = ol_game(
        {(8, 4): "infus", (8, 20): "infus", (0, 4): "infger"},
        allies=["counter_attack", ("probe", 1)],
        options={"night_visibility_rules": True},
    )
    st = roll(st, "inf", "inf", "inf", "inf")
    ca = st.hands[A][0]
    st = _last_plays(st, X, [{"role": "cinc", "src": first_overlord("barrage"), "subs": None}])
    st = dispatch(st, {ca: "left"})
    st = do(st, L, "play_card", card=ca)
    assert st.plays[-1].key == "barrage:night"
    assert {a["unit"] for a in legal_actions(st, L) if a["type"] == "order"} == {st.occ[(8, 4)]}


def test_deck_name_air_power_as_artillery_bombard_in_overlord():
    # vocabulary 3.3 deck_name: "Air Power cards are replaced by Artillery Bombard"; the
    # Overlord deck (two standard compositions) used to keep its two Air Power cards
    data = m44_from_text(
        "0@4: .:i\n8@4: .:I",
        kind="OVERLORD",
        game_info={"options": {"deck_name": "AIR_POWER_AS_ARTILLERY_BOMBARD_DECK"}},
    )
    st = new_game(load_scenario(data), 1)
    every = st.deck + st.hands["AXIS"] + st.hands["ALLIES"]
    keys = [CARDS[c].key for c in every]
    assert len(every) == len(set(every)) == 120
    assert "air_power" not in keys and keys.count("artillery_bombard") == 4
    plain = new_game(load_scenario(m44_from_text("0@4: .:i\n8@4: .:I", kind="OVERLORD")), 1)
    assert [CARDS[c].key for c in plain.deck + plain.hands["AXIS"] + plain.hands["ALLIES"]].count(
        "air_power"
    ) == 2
