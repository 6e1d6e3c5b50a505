"""004 Appendix 3 "Kriegspiel & The Fog Of War" (option ``kriegspiel``).  Boards drawn as
text; each test quotes the sentence of the text it checks."""

from __future__ import annotations

import json
import re

import pytest

from engine import EngineError, apply, events_for, legal_actions, new_game, replay, view_for
from engine.bot import RandomBot, next_action, play_random_game
from engine.core.textboard import board_from_text
from engine.procedures.common import SIDES
from engine.rulesets.m44.options.kriegspiel import detected, shown, watch_seat
from tests.engine.rulehelp import act, game, legal, ordered, play, roll, uid

KS = {"kriegspiel": True}
CAMO = {"name": "tag14"}


def ids(view):
    return {u["id"] for u in view["units"]}


def test_enemy_units_seen_only_within_battle_range():
    # "Players can only "see" enemy Units on their Board when they come into Battle Range
    # of their own Units."  Infantry battles 3 hexes, artillery 6.
    st = game(
        """
        2@10: .:i
        4@10: .:i
        5@11: .:i
        8@10: .:I
        8@18: .:G
    """,
        hand=["probe"],
        options=KS,
    )
    near, far, top = uid(st, (5, 11)), uid(st, (4, 10)), uid(st, (2, 10))
    assert detected(st, "ALLIES") == {near, far}  # (4,10): 4 hexes, artillery's 6
    v = view_for(st, "ALLIES")
    assert ids(v) == {near, far, uid(st, (8, 10)), uid(st, (8, 18))}
    assert top not in json.dumps(v)


def test_detected_unit_removed_the_moment_it_leaves_battle_range():
    # "Enemy Units are placed on the Board as soon as they are detected. Detected enemy
    # Units are removed from a players Board the moment they are no longer in Battle
    # Range of his Units."
    st = ordered("3@11: .:i\n6@10: .:I", [(6, 10)], options=KS)
    axis, me = uid(st, (3, 11)), uid(st, (6, 10))
    assert axis in ids(view_for(st, "ALLIES")) and me in ids(view_for(st, "AXIS"))
    st, ev = act(st, "move", unit=me, to=[7, 9])  # now 4 hexes apart
    assert axis not in ids(view_for(st, "ALLIES")) and me not in ids(view_for(st, "AXIS"))
    mine = events_for(ev, "ALLIES", st)
    assert {
        "type": "detection_changed",
        "side": "ALLIES",
        "detected": [],
        "lost": [axis],
        "camouflaged": [],
    } in mine
    seen = [e for e in events_for(ev, "AXIS", st) if e["type"] == "unit_moved"]
    assert seen == [
        {
            "type": "unit_moved",
            "unit": me,
            "side": "ALLIES",
            "from": [6, 10],
            "to": None,
            "hexes": 1,
        }
    ]  # seen leaving, not arriving


def test_unit_moving_into_sight_appears_without_where_it_came_from():
    st = ordered("2@10: .:i\n7@9: .:I", [(7, 9)], options=KS)
    me = uid(st, (7, 9))
    assert me not in ids(view_for(st, "AXIS"))
    st, ev = act(st, "move", unit=me, to=[5, 9])
    assert me in ids(view_for(st, "AXIS"))
    moved = [e for e in events_for(ev, "AXIS", st) if e["type"] == "unit_moved"]
    assert moved[0]["from"] is None and moved[0]["to"] == [5, 9]


def test_camouflaged_unit_left_off_the_board_until_close_assault_notice():
    # "Camouflaged Units are always left off the board untill they have lost their
    # concealment. If a Camouflaged Unit is within Close Assault distance of a Moving
    # Unit, then the active player should be informed and his Unit is left in Close
    # Assault."
    st = ordered("3@11: .:i\n5@11: .:I", [(5, 11)], options=KS, tags={(3, 11): CAMO})
    camo, me = uid(st, (3, 11)), uid(st, (5, 11))
    assert camo not in detected(st, "ALLIES")  # 2 hexes: still hidden
    assert view_for(st, "ALLIES").get("camouflage", []) == []
    st, ev = act(st, "move", unit=me, to=[4, 12])
    assert {
        "type": "detection_changed",
        "side": "ALLIES",
        "detected": [camo],
        "lost": [],
        "camouflaged": [[3, 11]],
    } in events_for(ev, "ALLIES", st)  # the notice
    assert view_for(st, "ALLIES")["camouflage"] == [[3, 11]]
    st = do_end(st, "end_movement")
    assert [a["target"] for a in legal(st, "battle") if a["unit"] == me] == [[3, 11]]


def do_end(st, t):
    phase = {"end_movement": "move", "end_orders": "order"}[t]
    return act(st, t)[0] if st.phase == phase else st


def _dests(st, me):
    return sorted(tuple(a["to"]) for a in legal(st, "move") if a["unit"] == me)


def test_move_stopped_next_to_a_hidden_camouflaged_unit_with_the_notice():
    # "If a Camouflaged Unit is within Close Assault distance of a Moving Unit, then the
    # active player should be informed and his Unit is left in Close Assault."  The only
    # 2-hex path to (3,13) runs through (4,12), next to the camouflaged unit at (3,11).
    board = "3@11: .:i\n5@11: .:I\n8@18: .:G"
    st = ordered(board, [(5, 11)], options=KS, tags={(3, 11): CAMO})
    camo, me = uid(st, (3, 11)), uid(st, (5, 11))
    bare = ordered("5@11: .:I\n8@18: .:G\n0@0: .:i", [(5, 11)], options=KS)
    assert _dests(st, me) == _dests(bare, uid(bare, (5, 11)))  # its hex offered too
    assert (3, 13) in _dests(st, me) and (3, 11) in _dests(st, me)
    st, ev = act(st, "move", unit=me, to=[3, 13])
    assert st.units[me].hex == (4, 12) and st.units[me].moved == 1
    mine = events_for(ev, "ALLIES", st)
    assert {"type": "move_stopped", "unit": me, "side": "ALLIES", "hex": [4, 12]} in mine
    assert {
        "type": "detection_changed",
        "side": "ALLIES",
        "detected": [camo],
        "lost": [],
        "camouflaged": [[3, 11]],
    } in mine


def test_move_into_an_unseen_unit_stops_the_hex_before_and_reveals_it():
    # "Players can only "see" enemy Units on their Board when they come into Battle Range
    # of their own Units": a recon vehicle (moves 4, battles 2 hexes) does not see the
    # infantry 3 hexes away; its hex is a destination as on an empty board, and the
    # referee stops the vehicle on the hex before it (no unit moves onto another).
    st = ordered("5@11: .:i\n8@10: .:V", [(8, 10)], options=KS)
    hid, me = uid(st, (5, 11)), uid(st, (8, 10))
    assert hid not in detected(st, "ALLIES")
    bare = ordered("8@10: .:V\n0@0: .:i", [(8, 10)], options=KS)
    assert _dests(st, me) == _dests(bare, uid(bare, (8, 10)))
    st, ev = act(st, "move", unit=me, to=[5, 11])
    h = st.units[me].hex
    assert st.scn.board.distance(h, (5, 11)) == 1 and st.units[me].moved == 2
    assert st.units[hid].hex == (5, 11)
    mine = events_for(ev, "ALLIES", st)
    assert {
        "type": "detection_changed",
        "side": "ALLIES",
        "detected": [hid],
        "lost": [],
        "camouflaged": [],
    } in mine
    assert {"type": "move_stopped", "unit": me, "side": "ALLIES", "hex": [*h]} in mine


def test_undetected_unit_is_no_target_and_reads_as_an_empty_hex():
    # only the units on a side's board can be battled: a battle declared at a hidden unit
    # is refused like one at an empty hex (the refusal tells nothing)
    st = ordered("2@14: .:i\n3@11: .:i\n5@11: .:I", [(5, 11)], options=KS, tags={(3, 11): CAMO})
    st = do_end(st, "end_movement")
    me = uid(st, (5, 11))
    errs = []
    for target in ([3, 11], [3, 13]):
        with pytest.raises(EngineError) as e:
            act(st, "battle", unit=me, target=target)
        errs.append(e.value.code)
    assert errs == ["no_target", "no_target"]


def test_air_power_targets_only_detected_units():
    st = game("1@11: .:i\n3@15: .:i\n6@14: .:I", hand=["air_power"], options=KS)
    st = play(st, "air_power")
    assert [a["hex"] for a in legal(st, "target")] == [[3, 15]]  # (1,11): 5 hexes away


def test_dice_thrown_by_an_unseen_enemy_are_observed_not_the_firer():
    # artillery (6 hexes) fires at infantry that sees 3 hexes: the target's side sees the
    # dice thrown at its unit, not the gun nor its hex
    st = game(
        "2@10: .:g\n8@10: .:I",
        axis_hand=["direct_from_hq"],
        hand=["probe"],
        options=KS,
        starting="PLAYER1",
    )
    gun, me = uid(st, (2, 10)), uid(st, (8, 10))
    assert me in detected(st, "AXIS") and gun not in detected(st, "ALLIES")
    st = play(st, "direct_from_hq")
    st = do_end(act(st, "order", unit=gun)[0], "end_orders") if st.phase == "order" else st
    st = do_end(st, "end_movement")
    st, ev = act(st, "battle", unit=gun, target=[8, 10])
    st, ev2 = roll(st, "inf")
    seen = events_for(ev + ev2, "ALLIES", st)
    text = json.dumps(seen)
    assert gun not in text and "[2, 10]" not in text
    decl = next(e for e in seen if e["type"] == "battle_declared")
    assert decl == {
        "type": "battle_declared",
        "side": "AXIS",
        "target": [8, 10],
        "target_unit": me,
        "dice": 1,
        "kind": "battle",
    }
    assert next(e for e in seen if e["type"] == "dice_rolled")["dice"] == ["inf"]
    assert "unit" not in (view_for(st, "ALLIES")["last_roll"] or {})


def test_the_opponents_cards_and_plays_are_hidden():
    # "A player may not know which Command Cards his opponent has or are being played."
    st = game("3@11: .:i\n6@10: .:I\n6@12: .:I\n7@11: .:I", hand=[("probe", 1)], options=KS)
    st2, ev = act(st, "play_card", card=st.hands["ALLIES"][0])
    axis = events_for(ev, "AXIS", st2)
    assert not [e for e in axis if e["type"].startswith("card")]
    v = view_for(st2, "AXIS")
    assert v["played"] == [] and v["phase"] is None and v["deck_count"] is None
    assert v["pending"] == {"type": "waiting", "seat": "ALLIES"}
    assert view_for(st2, "ALLIES")["played"][0]["card"]["key"] == "probe"


def test_spectators_of_a_live_game_see_what_both_sides_see():
    # "The server is the Referee": a spectator may be a player's second connection, so a
    # live side's board is nobody's but that side's (docs/protocol.md).
    st = game("2@10: .:i\n5@11: .:i\n8@10: .:I", hand=["probe"], options=KS)
    both = ids(view_for(st, None))
    assert both == shown(st, None) == {uid(st, (5, 11)), uid(st, (8, 10))}
    for side in SIDES:
        assert ids(view_for(st, watch_seat(side))) == both


def test_watch_delay_gives_a_sides_events_n_turns_late():
    # option kriegspiel_watch_delay (chosen at creation): a side's events reach its
    # watchers once N full turns have passed since their turn ended; the live board stays
    # what both sides see.
    st = ordered("2@10: .:i\n7@9: .:I", [(7, 9)], options={**KS, "kriegspiel_watch_delay": 1})
    me = uid(st, (7, 9))
    st, ev = act(st, "move", unit=me, to=[6, 10])  # still unseen by AXIS
    moved = lambda evs: [e for e in evs if e["type"] == "unit_moved"]  # noqa: E731
    assert moved(events_for(ev, watch_seat("ALLIES"), st)) == []
    assert me not in ids(view_for(st, watch_seat("ALLIES")))
    later = st.clone()  # a turn later
    assert st.turn == 2  # the ALLIES turn (1) ended
    later.turn = 3  # one full turn later
    assert moved(events_for(ev, watch_seat("ALLIES"), later))[0]["to"] == [6, 10]
    assert moved(events_for(ev, watch_seat("AXIS"), later)) == []  # AXIS never saw it
    assert moved(events_for(ev, None, later)) == []


def test_watch_delay_needs_kriegspiel_and_a_number_of_turns():
    from engine.rulesets.m44.options import validate

    assert validate({**KS, "kriegspiel_watch_delay": 2}) == {**KS, "kriegspiel_watch_delay": "2"}
    for bad in (
        {"kriegspiel_watch_delay": 2},
        {**KS, "kriegspiel_watch_delay": -1},
        {**KS, "kriegspiel_watch_delay": "x"},
        {**KS, "kriegspiel_watch_delay": 11},
    ):
        with pytest.raises(EngineError) as e:
            validate(bad)
        assert e.value.code == "invalid_option_value", bad


def test_no_undo_after_a_move_that_detected_enemy_units():
    # "Enemy Units are placed on the Board as soon as they are detected": the move showed
    # the player something, so taking it back would be free reconnaissance.
    from engine.meta import undoable

    st = ordered("2@10: .:i\n7@9: .:I\n8@16: .:I", [(7, 9), (8, 16)], options=KS)
    a = {"type": "move", "seat": "ALLIES", "unit": uid(st, (7, 9)), "to": [5, 9]}
    st2, ev = apply(st, a)
    assert "detection_changed" in [e["type"] for e in ev]
    assert not undoable(st, a, ev, st2)
    quiet = {"type": "move", "seat": "ALLIES", "unit": uid(st, (8, 16)), "to": [8, 18]}
    st3, ev3 = apply(st, quiet)  # detects nothing: undoable
    assert "detection_changed" not in [e["type"] for e in ev3] and undoable(st, quiet, ev3, st3)


def test_kriegspiel_not_on_the_overlord_board():
    scn = board_from_text("0: .:i", kind="OVERLORD")
    with pytest.raises(EngineError) as e:
        new_game(scn, 1, KS)
    assert e.value.code == "option_not_available"


# ---------------------------------------------------------------- random games, leaks
BOARD = """
    1: .:i W:i .:a .:i .:g .:i .:a .:i H:i
    3: . S  .  W  .  .  H  .
    7: .:I W:I .:A .:I .:G .:I .:A .:I H:I
"""
UNIT_ID = re.compile(r'"(u\d+)"')


def card_ids(obj, out):
    if isinstance(obj, dict):
        if {"id", "key", "kind", "name"} <= set(obj):
            out.add(obj["id"])
        for v in obj.values():
            card_ids(v, out)
    elif isinstance(obj, list):
        for v in obj:
            card_ids(v, out)
    return out


def check_step(before, after, events, seat, side):
    """What ``seat`` (of ``side``; None: a spectator without side) receives after one
    action names no enemy unit it has not seen and no card of the enemy."""
    if after.game_over:
        return
    view = view_for(after, seat)
    evs = events_for(events, seat, after)
    if side is None:
        allowed_view = shown(after, None)
        allowed_ev = allowed_view | shown(before, None)
    else:
        own = {u.id for st in (before, after) for u in st.units.values() if u.side == side}
        allowed_view = own | detected(after, side)
        allowed_ev = allowed_view | detected(before, side)
    leaked = set(UNIT_ID.findall(json.dumps(view))) - allowed_view
    assert not leaked, (seat, "view", leaked)
    leaked = set(UNIT_ID.findall(json.dumps(evs))) - allowed_ev
    assert not leaked, (seat, "events", leaked, evs)
    enemy_cards = set()
    for st in (before, after):
        for s in SIDES:
            if s != side:
                enemy_cards |= set(st.hands[s]) | {p.card for p in st.plays if p.side == s}
    mine = set()
    if side is not None:
        for st in (before, after):
            mine |= set(st.hands[side]) | {p.card for p in st.plays if p.side == side}
            mine |= set(st.recon_cards) if st.active == side else set()
    shown_cards = card_ids(view, set()) | card_ids(evs, set())
    assert not (shown_cards & enemy_cards) - mine, (seat, shown_cards & enemy_cards)
    for e in evs:
        assert "fog" not in e
    if side is not None:  # team play: no enemy role seat (it would tell the card)
        seats = (
            list(view["to_act"])
            + [(view["pending"] or {}).get("seat")]
            + [e.get("seat") for e in evs]
        )
        assert not [
            x for x in seats if isinstance(x, str) and ":" in x and not x.startswith(side + ":")
        ], (seat, seats)


@pytest.mark.parametrize("mode", ["standard", "team"])
def test_random_games_leak_nothing_and_replay_equals_live(mode):
    scn = board_from_text(BOARD, victory=(6, 6))
    for seed in (1, 2):
        st = new_game(scn, seed, KS, mode)
        seats = [None, watch_seat("AXIS"), watch_seat("ALLIES")] + [
            s
            for s in (
                [*SIDES]
                if mode == "standard"
                else [f"{s}:{r}" for s in SIDES for r in ("cinc", "left", "centre", "right")]
            )
        ]
        bot, actions = RandomBot(seed), []
        while not st.game_over and st.turn <= 300:
            a = next_action(st, bot)
            actions.append(a)
            st2, ev = apply(st, a)
            for seat in seats:
                # a watcher of a live game sees what both sides see
                side = None if seat is None or seat.startswith("watch:") else seat.partition(":")[0]
                check_step(st, st2, ev, seat, side)
                for act_ in legal_actions(st2, seat) if seat else []:
                    for k in ("target", "unit"):
                        v = act_.get(k)
                        if isinstance(v, str):
                            assert v in shown(st2, side)
            st = st2
        assert st.game_over
        assert replay(scn, seed, actions, KS, mode) == st
        full = view_for(st, "AXIS")  # after the game: everything
        assert ids(full) == set(st.units)


def test_standard_game_unchanged_without_the_option():
    scn = board_from_text(BOARD, victory=(6, 6))
    st, _ = play_random_game(scn, 3, {}, max_turns=40)
    v = view_for(st, "AXIS")
    assert "fog" not in v and ids(v) == set(st.units)
