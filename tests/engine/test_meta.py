"""engine/meta.py: endings, what may be undone, and the log fold (undo == the state
without the undone entries; a replay folds the same way as live play)."""

from __future__ import annotations

import pytest

from engine import apply, is_chance, legal_actions, load_scenario, new_game, sample_chance, to_act
from engine.meta import Fold, conclude, fold, replay, undoable

from .paths import SCN_DIR

PEGASUS = SCN_DIR / "2-PegasusBridge.m44"


@pytest.fixture(scope="module")
def scn():
    return load_scenario(PEGASUS)


def settle(st, log, seq):
    while is_chance(st):
        roll = sample_chance(st)
        st, _ = apply(st, roll)
        seq += 1
        log.append((seq, "chance", roll))
    return st, seq


def test_play_card_is_undoable_and_undo_restores_the_state(scn):
    st = new_game(scn, 7)
    seat = to_act(st)[0]
    card = next(a for a in legal_actions(st, seat) if a["type"] == "play_card")
    after, events = apply(st, card)
    assert undoable(st, card, events, after)
    f = Fold(st, 0)
    f.apply(1, seat, card, apply)
    assert f.undo_target(seat) == 1
    other = "AXIS" if seat == "ALLIES" else "ALLIES"
    assert f.undo_target(other) is None
    ev = f.apply(2, seat, {"type": "undo", "seat": seat, "undoes": 1}, apply)
    assert ev == [{"type": "undone", "seat": seat, "undoes": 1}]
    assert f.state.snapshot() == st.snapshot()
    assert f.undo_target(seat) is None


def test_nothing_after_dice_and_a_wrong_undo_is_refused(scn):
    st = new_game(scn, 7)
    seq, log = 0, []
    for _ in range(200):  # play battles until dice are rolled
        seat = to_act(st)[0]
        acts = legal_actions(st, seat)
        a = next((x for x in acts if x["type"] == "battle"), None) or next(
            (x for x in acts if x["type"] in ("play_card", "order", "end_orders", "end_movement")),
            acts[0],
        )
        before = st
        st, events = apply(st, a)
        seq += 1
        log.append((seq, seat, a))
        n = len(log)
        st, seq = settle(st, log, seq)
        if len(log) > n:
            assert not undoable(before, a, events, st, len(log) - n)
            break
    f = fold(new_game(scn, 7), log, apply)
    assert f.undo_target(log[-1][1] if log[-1][1] != "chance" else to_act(st)[0]) is None
    with pytest.raises(Exception) as exc:
        f.apply(seq + 1, to_act(st)[0], {"type": "undo", "undoes": 1}, apply)
    assert getattr(exc.value, "code", "") == "nothing_to_undo"


def test_endings_and_replay(scn):
    st = new_game(scn, 7)
    seat = to_act(st)[0]
    card = next(a for a in legal_actions(st, seat) if a["type"] == "play_card")
    log = [
        (1, seat, card),
        (2, seat, {"type": "undo", "seat": seat, "undoes": 1}),
        (3, seat, {"type": "resign", "seat": seat}),
    ]
    end = replay(scn, 7, log)
    assert end.game_over and end.winner != seat and end.winner in ("AXIS", "ALLIES")
    assert len(end.hands[seat]) == len(st.hands[seat])  # the card came back
    with pytest.raises(Exception):
        conclude(end, seat, "resign")  # the game is over
    with pytest.raises(Exception):
        conclude(st, seat, "surrender")
