"""Overlord games and the rules of the standard machine's modules: instead-of-battle actions
(seal_cave, heal, blow_bridge) by the Field General holding the order, the continuing
firefight (004 optional) by the FG commanding the unit, the scenario set-up steps
(smoke_screen, airdrop; vocabulary 3.3) by the side's Commander-in-Chief, night visibility
(vocabulary 3.3; the C-in-C rolls) and camouflage (tags tag14/tag15, vocabulary 3.1) for
every Field General."""

import pytest

from engine import EngineError, apply, legal_actions, to_act
from engine.procedures import los as LOS
from engine.procedures.common import terrain_at
from tests.engine.olhelp import A, X, dispatch, do, ev, finish_turn, ol_game, roll

L, C, R = "ALLIES:left", "ALLIES:centre", "ALLIES:right"
XL, XC, XR = "AXIS:left", "AXIS:centre", "AXIS:right"
ALL_SEATS = [f"{s}:{r}" for s in (A, X) for r in ("cinc", "left", "centre", "right")]
LEGEND = {
    "V": "pcave",
    "Y": "phospital",
    "Z": "oasis",
    "D": {
        "slot": "rect_terrain",
        "name": "bridge",
        "behavior": "CAN_BE_BLOWN",
        "behavior2": "ONE_MEDAL_IF_BLOWN",
    },
}


def types(st, s):
    return [a["type"] for a in legal_actions(st, s)]


def others_idle(st, *acting):
    """No seat but ``acting`` has a legal action."""
    return all(legal_actions(st, s) == [] for s in ALL_SEATS if s not in acting)


NIGHT = {"night_visibility_rules": True}


def two_generals(text, left, centre, units=None, night_faces=None, wounded=(), **kw):
    """Allies: Probe Left to the left FG ordering the unit on hex ``left``, Probe Centre to
    the centre FG ordering ``centre``; right FG passes; ``night_faces``: the night roll
    first (option ``night_visibility_rules``).  Stops before any movement."""
    if night_faces is not None:
        kw["options"] = NIGHT
    st = ol_game(units or {}, allies=[("probe", 0), ("probe", 1), "recon"], text=text, **kw)
    if night_faces is not None:
        assert st.pending == {"type": "roll", "seat": "chance", "dice": 4, "for": "night"}
        st = roll(st, *night_faces)
    for h in wounded:
        st.mut(st.occ[h]).figures = 2
    pl, pc = st.hands[A][:2]
    st = dispatch(st, {pl: "left", pc: "centre"})
    st = do(st, R, "pass")
    for s, card, h in ((L, pl, left), (C, pc, centre)):
        sub = min(st.scn.board.subsections(h, False))
        st = do(st, s, "play_card", card=card, half=sub % 2)
        st = do(st, s, "order", unit=st.occ[h])
    return st


def to_battle_wave(st):
    """The left and centre FGs end their movement: the battle wave."""
    for s in (L, C):
        if "end_movement" in types(st, s):
            st = do(st, s, "end_movement")
    return st


def battle_wave(text, units, left, centre, wounded=(), **kw):
    """:func:`two_generals` (legend :data:`LEGEND`), nobody moves: the battle wave."""
    return to_battle_wave(
        two_generals(text, left, centre, units, wounded=wounded, legend=LEGEND, **kw)
    )


def test_seal_cave_by_the_field_general_holding_the_order():
    st = battle_wave("6@4: V:I\n6@20: .:I\n3@21: .:i", {}, (6, 4), (6, 20))
    cave = st.occ[(6, 4)]
    assert set(to_act(st)) == {L, C}
    assert {"type": "seal_cave", "seat": L, "unit": cave} in legal_actions(st, L)
    assert "seal_cave" not in types(st, C) and others_idle(st, L, C)
    with pytest.raises(EngineError) as e:  # the centre FG does not hold its order
        do(st, C, "seal_cave", unit=cave)
    assert e.value.code == "unit_not_ordered"
    with pytest.raises(EngineError) as e:
        do(st, X + ":cinc", "seal_cave", unit=cave)
    assert e.value.code == "not_your_turn"
    st = do(st, L, "seal_cave", unit=cave)
    assert st.pending["for"] == "seal_cave" and st.pending["dice"] == 3
    st = roll(st, "flag", "star", "inf")
    t = terrain_at(st, (6, 4))
    assert not t.cave and [x.spec.code for x in t.tiles] == ["hills"]
    assert st.units[cave].no_battle and to_act(st) == [C]  # the unit is spent


def test_heal_by_the_field_general_holding_the_order():
    st = battle_wave(
        "6@4: Y:I\n6@20: Z:I\n3@21: .:i", {}, (6, 4), (6, 20), wounded=[(6, 4), (6, 20)]
    )
    hosp, oasis = st.occ[(6, 4)], st.occ[(6, 20)]
    assert set(to_act(st)) == {L, C}
    assert [a["unit"] for a in legal_actions(st, L) if a["type"] == "heal"] == [hosp]
    assert [a["unit"] for a in legal_actions(st, C) if a["type"] == "heal"] == [oasis]
    assert others_idle(st, L, C)
    with pytest.raises(EngineError) as e:
        do(st, C, "heal", unit=hosp)
    assert e.value.code == "unit_not_ordered"
    st = do(st, L, "heal", unit=hosp)
    assert st.pending["for"] == "heal" and st.pending["dice"] == 6  # hospital
    st = roll(st, "star", "flag", "inf", "grenade", "inf", "armor")
    assert st.units[hosp].figures == 4  # 3 symbols, up to its maximum
    st = do(st, C, "heal", unit=oasis)
    # oasis: the hand size + 1 dice; in Overlord the hand is the C-in-C's
    assert st.pending["dice"] == len(st.hands[A]) + 1 == 2


def test_blow_bridge_by_the_field_general_holding_the_order():
    text = "5@11: RD\n6@10: .:I\n6@20: .:I\n3@21: .:i"
    st = battle_wave(text, {}, (6, 10), (6, 20), options={"blowbridge_opt2": True})
    u = st.occ[(6, 10)]
    assert set(to_act(st)) == {L, C}
    assert [a for a in legal_actions(st, L) if a["type"] == "blow_bridge"] == [
        {"type": "blow_bridge", "seat": L, "unit": u, "hex": [5, 11]}
    ]
    assert "blow_bridge" not in types(st, C) and others_idle(st, L, C)
    with pytest.raises(EngineError) as e:
        do(st, C, "blow_bridge", unit=u, hex=[5, 11])
    assert e.value.code == "unit_not_ordered"
    st = do(st, L, "blow_bridge", unit=u, hex=[5, 11])
    assert st.pending["for"] == "blow_bridge" and st.pending["dice"] == 2
    st, events = apply(st, {"type": "roll", "seat": "chance", "dice": ["flag", "star"]})
    assert not terrain_at(st, (5, 11)).bridge
    assert {"type": "medal_gained", "side": A, "reason": "bridge_blown", "count": 1} in events
    # without the option: no demolition (the left FG has nothing left to do)
    st = battle_wave(text, {}, (6, 10), (6, 20))
    assert to_act(st) == [C] and legal_actions(st, L) == []


def test_continuing_firefight_by_the_field_general_commanding_the_unit():
    # Allies' turn: the left FG's infantry close-assaults the Axis infantry at (5, 5)
    units = {(6, 4): "infus", (2, 44): "infus", (5, 5): "infger", (0, 44): "infger"}
    st = ol_game(
        units,
        allies=[("probe", 0), "recon"],
        axis=[("probe", 0), "recon"],
        game_options={"firefight_continuing": True},
    )
    ours, theirs = st.occ[(6, 4)], st.occ[(5, 5)]
    st = dispatch(st, {st.hands[A][0]: "left"})
    st = do(st, C, "pass")
    st = do(st, R, "pass")
    st = do(st, L, "play_card", card=st.ext["received"]["left"][0], half=0)
    st = do(st, L, "order", unit=ours)
    st = do(st, L, "end_movement")
    st = do(st, L, "battle", unit=ours, target=[5, 5])
    st = do(st, X + ":cinc", "pass")  # no Ambush
    st = roll(st, "inf", "star", "armor")  # 1 hit, both stay: a firefight
    assert (ours, theirs, (6, 4), (5, 5)) in st.ext["firefights"]
    assert st.active == X and to_act(st) == [X + ":cinc"]
    # Axis' turn: Probe to the Axis left FG (unit at (0, 44)); the others pass
    assert st.scn.board.subsections((5, 5), True) & {4, 5}  # the Axis right FG's
    st = dispatch(st, {st.hands[X][0]: "left"})
    st = do(st, XC, "pass")
    st = do(st, XR, "pass")
    st = do(
        st,
        XL,
        "play_card",
        card=st.ext["received"]["left"][0],
        half=min(st.scn.board.subsections((0, 44), True)) % 2,
    )
    st = do(st, XL, "order", unit=st.occ[(0, 44)])
    st = do(st, XL, "end_movement")
    assert set(to_act(st)) == {XL, XR}
    # the FG commanding the unit fights on without a card or an order; not the other FG
    assert legal_actions(st, XR) == [
        {"type": "firefight", "seat": XR, "unit": theirs, "target": [6, 4]},
        {"type": "end_battles", "seat": XR},
    ]
    assert "firefight" not in types(st, XL) and "battle" in types(st, XL)
    assert others_idle(st, XL, XR)
    with pytest.raises(EngineError) as e:
        do(st, XL, "firefight", unit=theirs, target=[6, 4])
    assert e.value.code == "illegal_target"
    st, events = ev(st, XR, "firefight", unit=theirs, target=[6, 4])
    assert st.pending["for"] == "firefight" and st.pending["dice"] == 2  # one die less
    st = roll(st, "inf", "grenade")  # grenades ignored: 1 hit
    assert st.units[ours].figures == 3  # 4 figures, 1 hit
    assert to_act(st) == [XL]  # the firefight play is spent
    # ordered by a card, the unit battles normally (no firefight play for it)
    assert [p.key for p in st.plays].count("firefight_continuing") == 1


def test_firefight_not_offered_without_the_option_in_overlord():
    units = {(6, 4): "infus", (5, 5): "infger", (0, 44): "infger"}
    st = ol_game(units, allies=[("probe", 0), "recon"], axis=[("probe", 0), "recon"])
    st = dispatch(st, {st.hands[A][0]: "left"})
    st = do(do(st, C, "pass"), R, "pass")
    st = do(st, L, "play_card", card=st.ext["received"]["left"][0], half=0)
    st = do(st, L, "order", unit=st.occ[(6, 4)])
    st = do(st, L, "end_movement")
    st = do(st, L, "battle", unit=st.occ[(6, 4)], target=[5, 5])
    st = do(st, X + ":cinc", "pass")
    st = roll(st, "inf", "star", "armor")
    assert "firefights" not in st.ext
    st = dispatch(st, {st.hands[X][0]: "left"})
    st = do(do(st, XC, "pass"), XR, "pass")
    assert XR not in to_act(st)


def test_smoke_screen_placed_by_the_cinc_before_the_first_overlord_turn():
    st = ol_game({(3, 11): "infger", (5, 11): "infus"}, options={"smoke_screen": {"side": "AXIS"}})
    assert st.pending == {"type": "place_smoke", "seat": X + ":cinc", "left": 3}
    assert to_act(st) == [X + ":cinc"] and others_idle(st, X + ":cinc")
    with pytest.raises(EngineError) as e:
        do(st, A + ":cinc", "place_smoke", hex=[4, 10])
    assert e.value.code == "not_your_turn"
    assert LOS.clear(st, (5, 11), (3, 11))
    st = do(st, X + ":cinc", "place_smoke", hex=[4, 10])
    st = do(st, X + ":cinc", "place_smoke", hex=[4, 12])
    assert not LOS.clear(st, (5, 11), (3, 11))  # smoke blocks line of sight
    st = do(st, X + ":cinc", "end_smoke")
    assert "smoke" not in st.ext and type(st.ext).__name__ == "ShallowExt"
    assert st.turn == 1 and st.active == A and to_act(st) == [A + ":cinc"]
    assert st.pending["type"] == "dispatch"


def test_airdrop_chosen_by_the_cinc_then_smoke_then_the_first_overlord_turn():
    opts = {
        "airdrop": {"side": "ALLIES", "range": 1, "nbr_units": 2, "unit": {"name": "inf2us"}},
        "smoke_screen": {"side": "AXIS", "nbr_hexes": 1},
    }
    st = ol_game({(0, 4): "infger", (8, 4): "infus"}, options=opts)
    assert st.pending == {"type": "airdrop", "seat": A + ":cinc", "units": 2, "range": 1}
    assert others_idle(st, A + ":cinc")
    assert {"type": "airdrop", "seat": A + ":cinc", "hex": [4, 20]} in legal_actions(
        st, A + ":cinc"
    )
    n = len(st.units)
    st, events = ev(st, A + ":cinc", "airdrop", hex=[4, 20])
    landed = [e for e in events if e["type"] == "unit_dropped"]
    assert len(landed) == 2 and len(st.units) == n + 2
    for e in landed:
        assert st.scn.board.distance((4, 20), tuple(e["hex"])) == 1
    assert st.pending == {"type": "place_smoke", "seat": X + ":cinc", "left": 1}
    st = do(st, X + ":cinc", "place_smoke", hex=[2, 20])
    assert st.pending["type"] == "dispatch" and to_act(st) == [A + ":cinc"]
    assert "airdrops" not in st.ext


# ============================================================== night visibility (3.3)
CAMO = {"name": "tag14"}


def targets(st, s, h):
    return [
        tuple(a["target"])
        for a in legal_actions(st, s)
        if a["type"] == "battle" and a["unit"] == st.occ[h]
    ]


def test_night_roll_by_the_cinc_at_the_start_of_the_night_sides_overlord_turn():
    st = ol_game({(8, 4): "infus", (0, 4): "infger"}, options=NIGHT)
    assert st.ext["visibility"] == 1 and type(st.ext).__name__ == "ShallowExt"
    assert st.pending == {"type": "roll", "seat": "chance", "dice": 4, "for": "night"}
    assert others_idle(st)  # the roll comes before the dispatch
    st2, events = apply(
        st, {"type": "roll", "seat": "chance", "dice": ["star", "star", "inf", "flag"]}
    )
    assert {
        "type": "dice_rolled",
        "side": A,
        "seat": A + ":cinc",
        "dice": ["star", "star", "inf", "flag"],
        "kind": "night",
    } in events
    assert {"type": "visibility_changed", "visibility": 3, "from": 1} in events
    assert st2.pending == {"type": "dispatch", "seat": A + ":cinc"}
    from engine import view_for

    assert view_for(st2, X + ":left")["visibility"] == 3
    # night team AXIS: no roll on the Allied turn; the Axis C-in-C rolls at his turn's start
    st = ol_game(
        {(8, 4): "infus", (0, 4): "infger"}, options={**NIGHT, "night_visibility_team_turn": "AXIS"}
    )
    assert st.pending == {"type": "dispatch", "seat": A + ":cinc"}
    st = finish_turn(dispatch(st, {st.hands[A][0]: "left"}), A)
    assert st.active == X and st.pending["for"] == "night"
    st, events = apply(st, {"type": "roll", "seat": "chance", "dice": ["star"] * 4})
    assert [e["seat"] for e in events if e["type"] == "dice_rolled"] == [X + ":cinc"]
    assert st.ext["visibility"] == 5 and st.pending == {"type": "dispatch", "seat": X + ":cinc"}


def test_night_targets_beyond_visibility_refused_for_every_field_general():
    # left FG (8,4): enemies 2 and 3 hexes away; centre FG (8,20): likewise
    text = "8@4: .:I\n6@4: .:i\n5@1: .:i\n8@20: .:I\n6@20: .:i\n5@17: .:i"
    st = to_battle_wave(
        two_generals(text, (8, 4), (8, 20), night_faces=("star", "inf", "inf", "flag"))
    )
    assert st.ext["visibility"] == 2
    assert targets(st, L, (8, 4)) == [(6, 4)] and targets(st, C, (8, 20)) == [(6, 20)]
    for s, h, far in ((L, (8, 4), [5, 1]), (C, (8, 20), [5, 17])):
        with pytest.raises(EngineError) as e:
            do(st, s, "battle", unit=st.occ[h], target=far)
        assert e.value.code == "target_out_of_range"
    # visibility 1: nothing in range, both plays end, the turn passes to the Axis
    st = to_battle_wave(two_generals(text, (8, 4), (8, 20), night_faces=("inf",) * 4))
    assert st.active == X and st.ext["visibility"] == 1
    # full day (no option): both targets in range
    st = to_battle_wave(two_generals(text, (8, 4), (8, 20)))
    assert sorted(targets(st, L, (8, 4))) == [(5, 1), (6, 4)]


def test_night_barrage_orders_one_unit_in_any_section_for_the_overlord_cinc():
    st = ol_game(
        {(8, 4): "infus", (8, 20): "infus", (8, 44): "infus", (0, 4): "infger"},
        allies=["barrage", ("probe", 1)],
        options=NIGHT,
    )
    st = roll(st, "inf", "inf", "inf", "inf")
    st = dispatch(st, {st.hands[A][0]: "cinc"})
    assert st.plays[-1].key == "barrage:night"
    acts = legal_actions(st, A + ":cinc")
    assert "target" not in [a["type"] for a in acts]
    ordered = {a["unit"] for a in acts if a["type"] == "order"}
    assert ordered == {st.occ[(8, 4)], st.occ[(8, 20)], st.occ[(8, 44)]}  # any section
    st = do(st, A + ":cinc", "order", unit=st.occ[(8, 20)])
    assert "order" not in types(st, A + ":cinc")  # 1 unit only
    # full day: the Barrage targets as usual
    day = ol_game({(8, 4): "infus", (0, 4): "infger"}, allies=["barrage", ("probe", 1)])
    day = dispatch(day, {day.hands[A][0]: "cinc"})
    assert types(day, A + ":cinc")[0] == "target"


# ============================================================== camouflage (3.1)
def test_camouflaged_unit_fired_at_only_from_an_adjacent_hex_by_any_field_general():
    from engine import view_for

    text = "8@4: .:I\n6@4: .:i\n6@6: .:i\n8@20: .:I\n7@21: .:i"
    tags = {(6, 4): CAMO, (7, 21): CAMO}
    st = to_battle_wave(two_generals(text, (8, 4), (8, 20), tags=tags))
    assert view_for(st, X + ":cinc")["camouflage"] == [[6, 4], [7, 21]]
    assert targets(st, L, (8, 4)) == [(6, 6)]  # (6,4) is 2 hexes away
    with pytest.raises(EngineError):
        do(st, L, "battle", unit=st.occ[(8, 4)], target=[6, 4])
    assert targets(st, C, (8, 20)) == [(7, 21)]  # adjacent: may be fired at
    st = to_battle_wave(two_generals(text, (8, 4), (8, 20)))
    assert sorted(targets(st, L, (8, 4))) == [(6, 4), (6, 6)]  # no tag: normal


def test_camouflage_removed_when_the_unit_moves_or_battles_whichever_fg_ordered_it():
    from engine import view_for

    text = "8@4: .:I\n6@6: .:i\n8@20: .:I\n2@30: .:i"
    st = two_generals(text, (8, 4), (8, 20), tags={(8, 4): CAMO, (8, 20): CAMO})
    st, events = ev(st, C, "move", unit=st.occ[(8, 20)], to=[7, 19])
    assert {"type": "camouflage_removed", "hex": [8, 20]} in events
    assert view_for(st, None)["camouflage"] == [[8, 4]]
    st = to_battle_wave(st)
    st, events = ev(st, L, "battle", unit=st.occ[(8, 4)], target=[6, 6])
    assert {"type": "camouflage_removed", "hex": [8, 4]} in events
    assert "camouflage" not in view_for(st, None)


def test_random_overlord_games_with_night_and_camouflage_replay_equals_live():
    """Omaha Beach (Overlord) with ``night_visibility_rules`` and every Axis unit of the
    first rows camouflaged: bot games finish, the night roll and camouflage removals
    happen, and replaying the actions gives the live state."""
    import json

    from engine import new_game, replay, view_for
    from engine.bot import RandomBot, next_action
    from engine.core.scenario import load_scenario
    from tests.engine.paths import SCN_DIR

    raw = json.loads(open(f"{SCN_DIR}/13-OmahaBeachOverlord.m44").read())
    raw["game_info"].setdefault("options", {})["night_visibility_rules"] = True
    for hx in raw["board"]["hexagons"]:
        if hx.get("unit") and hx["row"] < 4:
            hx.setdefault("tags", []).append(CAMO)
    scn = load_scenario(raw)
    kinds = set()
    for seed in range(2):
        st, bot, actions = new_game(scn, seed), RandomBot(seed), []
        while not st.game_over and len(actions) < 6000:
            a = next_action(st, bot)
            st, events = apply(st, a)
            actions.append(a)
            kinds |= {e["type"] for e in events}
        assert st.game_over
        assert view_for(replay(scn, seed, actions), None) == view_for(st, None)
    assert {"visibility_changed", "camouflage_removed"} <= kinds
