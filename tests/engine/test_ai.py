"""The computer players (engine/ai): legal, deterministic, no cheating, sensible play."""

from __future__ import annotations

import json
import random

import pytest

from engine import arena
from engine.ai import NAMES, Player
from engine.ai import evaluate
from engine.ai.evaluate import side_of
from engine.ai.hidden import determinize
from engine.core.rng import Rng
from engine.core.ruleset import get
from engine.core.scenario import load_scenario
from engine.rulesets.m44.options.kriegspiel import detected, detection_range
from tests.engine.olhelp import A, cards, ol_game
from tests.engine.paths import SCN_DIR
from tests.engine.rulehelp import game, uid

M44 = get("m44")


def _advance(rs, st, n, seed=7):
    """``n`` random steps (dice sampled): a position somewhere in the game."""
    rng = random.Random(seed)
    for _ in range(n):
        if rs.is_over(st):
            break
        a = (
            rs.sample_chance(st)
            if rs.is_chance(st)
            else rng.choice(rs.legal_actions(st, rs.to_act(st)[0]))
        )
        st, _ = rs.apply(st, a)
    return st


def _hidden_twin(st, side):
    """The same game but for what ``side`` cannot see: the other hand and the deck
    re-dealt, the RNG state changed."""
    twin = st.clone()
    foe = next(s for s in st.hands if s != side)
    pool = list(st.hands[foe]) + list(st.deck)
    random.Random(99).shuffle(pool)
    n = len(st.hands[foe])
    twin.hands = {**st.hands, foe: pool[:n]}
    twin.deck = pool[n:]
    twin.rng = Rng(st.rng.seed ^ 0xABCDEF, st.rng.counter + 17)
    return twin


@pytest.mark.parametrize("steps", [0, 9, 25, 40])
def test_same_decision_whatever_the_hidden_information(steps):
    """A player decides from its seat's view only: the opponent's hand, the deck order
    and the RNG state (future dice) change nothing (issue 38 point 2)."""
    st = _advance(
        M44,
        M44.new_game(3, None, load_scenario(f"{SCN_DIR}/2-PegasusBridge.m44")),
        steps,
    )
    while M44.is_chance(st):
        st, _ = M44.apply(st, M44.sample_chance(st))
    seat = M44.to_act(st)[0]
    twin = _hidden_twin(st, seat)
    assert twin.hands != st.hands or twin.deck != st.deck
    assert M44.view_for(twin, seat) == M44.view_for(st, seat)
    for level in ("easy", "normal", "hard"):
        assert Player(M44, level, 5).choose(st, seat) == Player(M44, level, 5).choose(twin, seat)


def _unseen_units_moved(st, side):
    """The twin of a Kriegspiel game whose enemy units ``side`` has not detected stand
    on other hexes it does not watch either (hands, deck and dice changed too); None
    when every enemy unit is seen."""
    seen = detected(st, side)
    hidden = [u.id for u in st.units.values() if u.side != side and u.id not in seen]
    if not hidden:
        return None
    dist = st.scn.board.distance
    eyes = [(u.hex, detection_range(st, u)) for u in st.units.values() if u.side == side]
    free = [
        h
        for h in st.scn.board.hexes
        if h not in st.occ and all(dist(h, e) > r + 1 for e, r in eyes)
    ]
    twin = _hidden_twin(st, side)
    for i, unit_id in enumerate(hidden):
        u = twin.mut(unit_id)
        del twin.occ[u.hex]
        u.hex = free[(7 * i) % len(free)]
        twin.occ[u.hex] = unit_id
    return twin


@pytest.mark.parametrize("steps", [0, 18, 57, 60])
def test_kriegspiel_decision_whatever_the_unseen_units(steps):
    """004 Kriegspiel: a player plans with the enemy units its view shows; where the
    others stand (and the hands, deck and dice) changes nothing."""
    st = _advance(
        M44,
        M44.new_game(3, {"kriegspiel": True}, load_scenario(f"{SCN_DIR}/2-PegasusBridge.m44")),
        steps,
    )
    while M44.is_chance(st):
        st, _ = M44.apply(st, M44.sample_chance(st))
    seat = M44.to_act(st)[0]
    twin = _unseen_units_moved(st, side_of(seat))
    assert twin is not None and twin.occ != st.occ
    assert M44.view_for(twin, seat) == M44.view_for(st, seat)
    for level in ("easy", "normal", "hard"):
        a = Player(M44, level, 5).choose(st, seat)
        assert a == Player(M44, level, 5).choose(twin, seat)
        assert a in M44.legal_actions(st, seat)


def test_kriegspiel_players_see_their_board_only():
    """Under Kriegspiel the imagined game holds only the units of the seat's board."""
    st = M44.new_game(3, {"kriegspiel": True}, load_scenario(f"{SCN_DIR}/2-PegasusBridge.m44"))
    seat = M44.to_act(st)[0]
    side = side_of(seat)
    det = determinize(M44, st, seat, random.Random(1))
    assert set(det.units) == {u["id"] for u in M44.view_for(st, seat)["units"]}
    assert set(det.units) < set(st.units) and "kriegspiel" not in det.options
    assert det.hooks.hidden is not st.hooks.hidden  # the fog's extension points gone
    assert {det.units[i].hex for i in det.occ.values()} == set(det.occ)
    assert all(u.side == side or u.id in detected(st, side) for u in det.units.values())


def test_decision_independent_of_what_the_process_evaluated_before():
    """The memory of battle dice lives for one decision: a server worker that decided
    for another game before (here: whose remembered values are all wrong) decides the
    same."""
    st = _advance(M44, M44.new_game(3, None, load_scenario(f"{SCN_DIR}/4-SwordBeach.m44")), 6)
    while M44.is_chance(st):
        st, _ = M44.apply(st, M44.sample_chance(st))
    seat = M44.to_act(st)[0]
    first = Player(M44, "normal", 5).choose(st, seat)
    for wrong in (0, 9):
        for key in evaluate._DICE:
            evaluate._DICE[key] = wrong
        assert Player(M44, "normal", 5).choose(st, seat) == first


def test_determinization_keeps_what_the_seat_sees():
    st = M44.new_game(3, None, load_scenario(f"{SCN_DIR}/4-SwordBeach.m44"))
    seat = M44.to_act(st)[0]
    foe = next(s for s in st.hands if s != seat)
    det = determinize(M44, st, seat, random.Random(1))
    assert det.hands[seat] == st.hands[seat]
    assert len(det.hands[foe]) == len(st.hands[foe]) and len(det.deck) == len(st.deck)
    assert sorted(det.hands[foe] + det.deck) == sorted(st.hands[foe] + st.deck)
    assert det.rng != st.rng
    assert det is not st and st.hands[foe] == _advance(M44, st, 0).hands[foe]


@pytest.mark.parametrize(
    "name,scenario",
    [
        ("m44", "4-SwordBeach.m44"),
        ("fastplay", "2-PegasusBridge.m44"),
        ("overlord", "13-OmahaBeachOverlord.m44"),
        ("portable", None),
    ],
)
def test_every_level_plays_legal_actions_deterministically(name, scenario):
    rs = get(name)
    st = rs.new_game(2, None, load_scenario(f"{SCN_DIR}/{scenario}") if scenario else None)
    for _ in range(6):
        while rs.is_chance(st):
            st, _ = rs.apply(st, rs.sample_chance(st))
        seat = rs.to_act(st)[0]
        for level in NAMES:
            a = Player(rs, level, 11).choose(st, seat)
            assert a in rs.legal_actions(st, seat)
            assert a == Player(rs, level, 11).choose(st, seat)
        st, _ = rs.apply(st, Player(rs, "easy", 3).choose(st, seat))


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        Player(M44, "grandmaster")


def _own_turn(rs, st, player, side):
    """Let ``player`` play ``side``'s turn (the dice rolled as they fall); its actions."""
    done = []
    while not rs.is_over(st) and st.active == side:
        if rs.is_chance(st):
            st, _ = rs.apply(st, rs.sample_chance(st))
            continue
        seat = rs.to_act(st)[0]
        a = player.choose(st, seat)
        done.append(a)
        st, _ = rs.apply(st, a)
    return st, done


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_attacks_the_weakened_unit_next_to_it(level):
    """004 "Battle": a unit destroyed gives a medal.  With an Attack card for the centre,
    the infantry next to a one-figure enemy fights it rather than end its turn."""
    st = game("5@11: .:i\n6@10: .:I\n8@2: .:I", hand=[("attack", 1), ("recon", 0)])
    st.units[uid(st, (5, 11))].figures = 1
    _, done = _own_turn(M44, st, Player(M44, level, 4), "ALLIES")
    assert any(a["type"] == "battle" and a["target"] == [5, 11] for a in done), done


def test_second_unit_threatens_a_fresh_target_rather_than_a_doomed_one():
    """A unit dies once: the expected hits on one target count up to its figures.  With
    an Allied infantry already next to a one-figure Axis unit, a second infantry is worth
    more next to the other, full-strength Axis unit than piling on the first."""

    def board(second):
        st = game(f"4@6: .:i\n5@5: .:I\n4@18: .:i\n{second}: .:I", hand=[("attack", 1)])
        st.units[uid(st, (4, 6))].figures = 1
        return st

    piled = evaluate.evaluate(M44, board("5@7"), "ALLIES")
    spread = evaluate.evaluate(M44, board("5@17"), "ALLIES")
    assert spread > piled


def test_defender_stays_near_the_objective_only_the_enemy_can_win():
    """An Allied objective medal (m44-vocabulary 3.1): the Axis unit standing near it, to
    contest it, is worth more to the Axis than the same unit far off in a corner; the
    Allied unit's distance from the Axis is no gain to the Axis."""

    def board(axis):
        return game(f"8@2: .:I\n{axis}: .:i", tags={(5, 11): {"name": "medal1"}})

    assert board("4@10").scn.objectives[0].side == "ALLIES"
    near = evaluate.evaluate(M44, board("4@10"), "AXIS")
    far = evaluate.evaluate(M44, board("1@21"), "AXIS")
    assert near > far


def test_overlord_bot_generals_use_the_human_cincs_cards():
    """002: the C-in-C dispatches, each Field General plays his cards in his sections.
    A human C-in-C gives an Attack card to the left general, whose infantry faces a weak
    enemy: the bot general orders his units and fights (no card wasted)."""
    U = {
        (8, 4): "infus",
        (8, 6): "infus",
        (7, 5): "infger",
        (8, 44): "infus",
        (0, 40): "infger",
    }
    st = ol_game(
        U,
        allies=[
            ("attack", 0),
            ("probe", 2),
            "recon_in_force",
            ("probe", 1),
            ("recon", 1),
            ("recon", 2),
        ],
    )
    rs = get("overlord")
    enemy = st.occ[(7, 5)]
    st.units[enemy].figures = 1
    cinc = "ALLIES:cinc"
    st, _ = rs.apply(st, {"type": "dispatch", "seat": cinc, "card": st.hands[A][0], "to": "left"})
    st, _ = rs.apply(st, {"type": "confirm_dispatch", "seat": cinc})
    _, done = _own_turn(rs, st, Player(rs, "normal", 2), A)
    allied = {a["seat"] for a in done if side_of(a["seat"]) == A}  # the Axis may reply
    assert allied <= {"ALLIES:left", "ALLIES:centre", "ALLIES:right"}
    assert any(a["type"] == "play_card" for a in done)
    assert any(a["type"] == "battle" and a["target"] == [7, 5] for a in done), done


def test_bot_cinc_dispatches_to_the_general_who_can_use_it():
    """The bot C-in-C's cards go to the general whose units face the enemy (002
    "Dispatching Orders"), then he confirms."""
    U = {
        (8, 4): "infus",
        (8, 6): "infus",
        (7, 5): "infger",
        (8, 44): "infus",
        (0, 40): "infger",
    }
    st = ol_game(
        U,
        allies=[
            ("attack", 0),
            ("attack", 2),
            ("probe", 1),
            ("recon", 1),
            ("recon", 2),
            ("recon", 0),
        ],
    )
    rs = get("overlord")
    p = Player(rs, "normal", 1)
    given = []
    while rs.to_act(st) == ["ALLIES:cinc"] and st.phase == "dispatch":
        a = p.choose(st, "ALLIES:cinc")
        given.append(a)
        st, _ = rs.apply(st, a)
    dispatched = [a for a in given if a["type"] == "dispatch"]
    assert dispatched and dispatched[0] == {
        "type": "dispatch",
        "seat": "ALLIES:cinc",
        "card": cards(("attack", 0))[0],
        "to": "left",
    }
    assert given[-1]["type"] == "confirm_dispatch"


def test_wilson_interval():
    lo, hi = arena.wilson(95, 100)
    assert 0.88 < lo < 0.89 and 0.97 < hi < 0.99
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_arena_command_line(capsys):
    assert (
        arena.main(
            [
                "--ruleset",
                "portable",
                "--a",
                "normal",
                "--b",
                "random",
                "--games",
                "2",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "A win rate" in out and "95% Wilson" in out and "p95" in out


def test_arena_record_resumes_a_stopped_run(tmp_path):
    """A run stopped after 2 games and resumed with --record plays only the third game and
    gives the figures of the 3-game run; --first plays the rest of a run alone; a record
    of other levels is refused."""
    rec = tmp_path / "run.jsonl"
    rs = get("portable")

    def go(games: int, record=None, first: int = 0) -> dict:
        key = {"a": "normal", "b": "random", "seed": 1}
        return arena.run(
            rs,
            None,
            arena.level("normal"),
            arena.level("random"),
            games,
            1,
            record=str(record) if record else None,
            key=key,
            first=first,
        )

    go(2, rec)
    assert len(rec.read_text().splitlines()) == 2
    resumed = go(3, rec)
    lines = [json.loads(x) for x in rec.read_text().splitlines()]
    assert [x["game"] for x in lines] == [0, 1, 2]
    whole = go(3)
    for k in ("a", "b", "draws", "unfinished", "a_decisions", "b_decisions"):
        assert resumed[k] == whole[k]
    rest = go(3, first=2)
    assert rest["games"] == 1 and rest["a_decisions"] == len(lines[2]["a_ms"])
    assert rest["a"] == (lines[2]["outcome"] == "a")
    with pytest.raises(ValueError, match="another run"):
        arena.run(
            rs,
            None,
            arena.level("easy"),
            arena.level("random"),
            3,
            1,
            record=str(rec),
            key={"a": "easy", "b": "random", "seed": 1},
        )
