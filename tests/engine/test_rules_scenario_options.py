"""Scenario-level options of ``game_info.options`` (vocabulary 3.3): deck reshuffling,
empty section medals, exits; boards drawn as text, chosen dice, the outcome stated."""
from tests.engine.rulehelp import act, do, game, legal, ordered, roll, to_battle, uid


def test_empty_section_medals_held_while_a_listed_section_has_no_enemy():
    esm = {"empty_section_medals": {"sections": [2], "side": "ALLIES", "count_for": 1}}
    st = ordered("0@0: .:i\n4@20: .:i1\n5@21: .:I", [(5, 21)], key=("probe", 2),
                 game_info={"options": esm})
    assert st.medals("ALLIES") == 0                     # an Axis unit stands in section 2
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 21)), target=[4, 20])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, "inf", "star", "star")
    gained = [e for e in ev if e["type"] == "medal_gained"]
    assert {e["reason"] for e in gained} == {"elimination", "empty_section"}
    assert st.medals("ALLIES") == 2


def test_empty_section_medal_is_lost_when_the_enemy_comes_back():
    esm = {"empty_section_medals": {"sections": [0], "side": "AXIS", "count_for": 2}}
    st = ordered("0@20: .:i\n7@9: .:I", [(7, 9)], key=("probe", 1),
                 game_info={"options": esm})
    assert st.medals("AXIS") == 2                       # no Allied unit in section 0 yet
    st, ev = act(st, "move", unit=uid(st, (7, 9)), to=[7, 7])
    assert {"type": "medal_lost", "side": "AXIS", "reason": "empty_section",
            "objective": "empty_section", "count": 2} in ev
    assert st.medals("AXIS") == 0


def test_deck_reshuffling_false_never_reshuffles_the_discard_pile():
    st = game("0@0: .:i\n6@10: .:I", hand=[("probe", 1)],
              game_info={"options": {"deck_reshuffling": False}})
    st.discard, st.deck = st.deck[:], []
    st = do(st, "play_card", card=st.hands["ALLIES"][0])
    while st.active == "ALLIES":
        st = do(st, legal(st)[-1]["type"])              # end orders / movement / battles
    assert st.hands["ALLIES"] == [] and st.deck == [] and not st.game_over


EXIT = {"name": "tag4", "behavior": "EXIT_MARKER", "side": "ALLIES"}


def test_infantry_exit_counts_2():
    for opts, medals in (({"infantry_exit_counts_2": True}, 2), ({}, 1)):
        st = ordered("0@0: .:i\n1@11: .:I", [(1, 11)], tags={(0, 10): EXIT},
                     game_info={"options": opts} if opts else None)
        st, ev = act(st, "exit", unit=uid(st, (1, 11)))
        assert {"type": "medal_gained", "side": "ALLIES", "reason": "exit",
                "unit": "u1", "count": medals} in ev
        assert st.medals("ALLIES") == medals


def _kill_for_the_win(opts):
    st = ordered("0@0: .:i\n4@10: .:i1\n5@11: .:I", [(5, 11)], victory=(4, 1),
                 game_info={"options": opts} if opts else None)
    st = to_battle(st)
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    return roll(st, "inf", "star", "star")[0]


def test_must_have_unit_exit_side_needs_exit_medals_to_win():
    assert _kill_for_the_win({}).winner == "ALLIES"
    st = _kill_for_the_win({"must_have_unit_exit": {"side": "ALLIES", "min_nbr_units": 1}})
    assert not st.game_over and st.medals("ALLIES") == 1


def test_deck_name_air_power_as_artillery_bombard_deck():
    from engine.cards import CARDS
    st = game("0@0: .:i\n6@10: .:I",
              game_info={"options": {"deck_name": "AIR_POWER_AS_ARTILLERY_BOMBARD_DECK"}})
    cards = st.deck + st.hands["AXIS"] + st.hands["ALLIES"]
    keys = [CARDS[c].key for c in cards]
    assert len(cards) == 60 and "air_power" not in keys
    assert keys.count("artillery_bombard") == 2
    st = game("0@0: .:i\n6@10: .:I")
    keys = [CARDS[c].key for c in st.deck + st.hands["AXIS"] + st.hands["ALLIES"]]
    assert keys.count("air_power") == 1 and keys.count("artillery_bombard") == 1


# ============================================================== night visibility (3.3)
NIGHT = {"night_visibility_rules": True}


def night_ordered(text, who, key=("probe", 1), faces=("inf",) * 4, opts=NIGHT):
    from tests.engine.rulehelp import order_units, play
    st = game(text, hand=[key], game_info={"options": opts})
    assert st.pending == {"type": "roll", "seat": "chance", "dice": 4, "for": "night"}
    st = roll(st, *faces)[0]
    st = play(st, *key) if isinstance(key, tuple) else play(st, key)
    return order_units(st, who)


def _play_a_turn(st, side):
    """``side`` plays its first card and ends everything (last legal action each time)."""
    from engine import apply
    st = do(st, "play_card", card=st.hands[side][0])
    while st.active == side:
        st = apply(st, legal(st)[-1])[0]
    return st


def test_night_visibility_starts_at_one_and_each_star_adds_one():
    from engine import view_for
    st = game("0@0: .:i\n6@10: .:I", game_info={"options": NIGHT})
    assert view_for(st, None)["visibility"] == 1
    st, ev = roll(st, "star", "star", "inf", "flag")
    assert {"type": "visibility_changed", "visibility": 3, "from": 1} in ev
    assert st.pending["type"] == "play_card" and view_for(st, None)["visibility"] == 3
    # the Axis turn has no roll (night team: ALLIES by default)
    st.ext["visibility"] = 5
    st = _play_a_turn(st, "ALLIES")
    assert st.pending["type"] == "play_card"
    st = _play_a_turn(st, "AXIS")
    assert st.pending["for"] == "night"
    st, ev = roll(st, "star", "star", "star", "star")
    assert st.ext["visibility"] == 6
    assert st.pending["type"] == "play_card"     # full day: no more rolls


def test_night_targets_beyond_visibility_cannot_be_fired_at():
    from tests.engine.rulehelp import battle_dice_vs
    text = "3@11: .:i\n5@11: .:I"                 # 2 hexes apart
    st = to_battle(night_ordered(text, [(5, 11)]))
    assert battle_dice_vs(st, (5, 11), (3, 11)) is None          # visibility 1
    st = to_battle(night_ordered(text, [(5, 11)], faces=("star", "inf", "inf", "inf")))
    assert battle_dice_vs(st, (5, 11), (3, 11)) == 2             # visibility 2


def test_night_air_power_and_barrage_order_one_unit_while_visibility_below_six():
    st = night_ordered("0@0: .:i\n6@10: .:I\n6@0: .:I", [(6, 10), (6, 0)], key="barrage")
    assert st.play.key == "barrage:night" and len(st.play.ordered) == 1
    assert st.phase in ("move", "battle")


def test_night_visibility_reverse_rule_nightfall():
    st = game("0@0: .:i\n6@10: .:I",
              game_info={"options": {**NIGHT, "night_visibility_reverse_rule": True}})
    assert st.ext["visibility"] == 6
    st, ev = roll(st, "star", "star", "inf", "flag")
    assert st.ext["visibility"] == 4


def test_smoke_screen_side_places_smoke_hexes_before_the_first_turn_blocking_los():
    from engine import legal_actions, view_for
    from engine.rules import los as L
    from tests.engine.rulehelp import act, game
    opts = {"options": {"smoke_screen": {"side": "AXIS"}}}
    st = game("3@11: .:i\n5@11: .:I", hand=[("probe", 1)], game_info=opts)
    assert st.pending == {"type": "place_smoke", "seat": "AXIS", "left": 3}
    assert L.clear(st, (5, 11), (3, 11))
    st, ev = act(st, "place_smoke", hex=[4, 10])
    assert {"type": "terrain_changed", "hex": [4, 10], "added": "smoke"} in ev
    hexes = [a["hex"] for a in legal_actions(st, "AXIS") if a["type"] == "place_smoke"]
    assert [4, 12] in hexes and [0, 0] not in hexes       # the screen is contiguous
    st, _ = act(st, "place_smoke", hex=[4, 12])
    assert not L.clear(st, (5, 11), (3, 11))              # smoke blocks line of sight
    st, _ = act(st, "end_smoke")
    assert st.pending == {"type": "play_card", "seat": "ALLIES"}
    assert "smoke" not in (st.ext or {}) and view_for(st, None)["active"] == "ALLIES"


def test_airdrop_units_land_after_range_random_steps_lost_off_board_or_occupied():
    from engine import replay
    from engine.rules import airdrop as AD
    from tests.engine.rulehelp import act, game
    opts = {"options": {"airdrop": {"side": "ALLIES", "range": 1, "nbr_units": 3,
                                    "unit": {"name": "inf2us"}}}}
    st = game("0@0: .:i\n8@22: .:I\n4@12: W\n4@8: L", hand=[("probe", 1)], game_info=opts)
    assert st.pending == {"type": "airdrop", "seat": "ALLIES", "units": 3, "range": 1}
    assert len(AD.legal(st, "ALLIES")) == len(st.scn.board._nbrs)
    before = len(st.units)
    st2, ev = act(st, "airdrop", hex=[4, 10])
    landed = [e for e in ev if e["type"] == "unit_dropped"]
    lost = [e for e in ev if e["type"] == "drop_lost"]
    assert len(landed) + len(lost) == 3 and len(st2.units) == before + len(landed)
    for e in landed:              # one random step from the drop hex, on a free passable hex
        assert st2.scn.board.distance((4, 10), tuple(e["hex"])) == 1
        assert st2.units[e["unit"]].side == "ALLIES" and st2.units[e["unit"]].spec.code == "inf2us"
    assert st2.rng.counter == st.rng.counter + 3
    assert st2.pending == {"type": "play_card", "seat": "ALLIES"}
    # a drop on the corner drifts off the board or lands next to it
    st3, ev = act(st, "airdrop", hex=[0, 24])
    for e in ev:
        if e["type"] == "drop_lost" and e["hex"] is not None:
            assert tuple(e["hex"]) in st.occ or "inf" in st.scn.terrain_at(tuple(e["hex"])).impassable
