"""Remote-play endings for every ruleset (engine/meta.py through the ruleset protocol's
optional ``conclude``): a resign ends the game, the other side wins, and the log folded
again with the resign entry (a replay) gives the same state; undo is refused with
``undo_not_supported`` where the ruleset cannot tell what may be taken back."""

from __future__ import annotations

import pytest

import engine.rulesets  # noqa: F401
from engine import load_scenario
from engine.core.errors import IllegalAction
from engine.core.ruleset import get
from engine.meta import Fold, fold

from .paths import SCN_DIR

PEGASUS = SCN_DIR / "2-PegasusBridge.m44"


def _start(name):
    rs = get(name)
    scn = load_scenario(PEGASUS) if rs.setup == "scenario" else None
    return rs, rs.new_game(11, {}, scn, None)


def _played(rs, st, steps=12):
    """A few steps of real play (first legal action, dice from the state): the log."""
    f = Fold(st, 0, rs)
    log = []
    for seq in range(1, steps + 1):
        if rs.is_over(f.state):
            break
        if rs.is_chance(f.state):
            seat, action = "chance", rs.sample_chance(f.state)
        else:
            seat = rs.to_act(f.state)[0]
            action = rs.legal_actions(f.state, seat)[0]
        f.apply(seq, seat, action, rs.apply)
        log.append((seq, seat, action))
    return f, log


@pytest.mark.parametrize("name", ["fastplay", "portable", "france1944", "m44", "overlord"])
@pytest.mark.parametrize("reason", ["resign", "timeout", "forfeit"])
def test_an_ending_ends_the_game_and_replays(name, reason):
    rs, st0 = _start(name)
    f, log = _played(rs, st0)
    assert not rs.is_over(f.state)
    sides = rs.seats(st0) if name in ("portable", "france1944", "fastplay") else ["AXIS", "ALLIES"]
    loser, winner = sides[0].partition(":")[0], sides[1].partition(":")[0]
    seat = next(s for s in rs.seats(st0) if s.partition(":")[0] == loser)
    entry = {"type": reason, "seat": seat}
    seq = len(log) + 1
    events = f.apply(seq, seat, entry, rs.apply)
    over = [e for e in events if e["type"] == "game_over"]
    assert over and over[0]["winner"] == winner and over[0]["loser"] == loser
    assert over[0]["reason"] == reason and over[0]["seat"] == seat
    assert rs.is_over(f.state) and rs.result(f.state)["winner"] == winner
    assert rs.to_act(f.state) == []
    assert rs.view_for(f.state, None)["game_over"] is True
    # the replay of the log with the ending entry: the same state
    again = fold(st0, [*log, (seq, seat, entry)], rs.apply, ruleset=rs)
    assert rs.dump_state(again.state) == rs.dump_state(f.state)
    # the state survives a snapshot round trip, and a second ending is refused
    scn = load_scenario(PEGASUS) if rs.setup == "scenario" else None
    back = (
        rs.load_state(rs.dump_state(f.state), scn) if scn else rs.load_state(rs.dump_state(f.state))
    )
    assert rs.result(back)["winner"] == winner
    with pytest.raises(IllegalAction) as exc:
        f.apply(seq + 1, sides[1], {"type": "resign", "seat": sides[1]}, rs.apply)
    assert exc.value.code == "game_over"


@pytest.mark.parametrize("name", ["fastplay", "portable", "france1944"])
def test_undo_is_refused_with_a_clear_code(name):
    rs, st0 = _start(name)
    f, log = _played(rs, st0, 4)
    assert not f.undo_supported
    seat = rs.seats(st0)[0]
    with pytest.raises(IllegalAction) as exc:
        f.apply(len(log) + 1, seat, {"type": "undo", "seat": seat, "undoes": len(log)}, rs.apply)
    assert exc.value.code == "undo_not_supported"


def test_m44_keeps_undo():
    rs, st0 = _start("m44")
    assert Fold(st0, 0, rs).undo_supported and get("overlord").supports_undo


def test_a_seat_of_no_side_is_refused():
    rs, st0 = _start("portable")
    with pytest.raises(IllegalAction):
        Fold(st0, 0, rs).apply(1, "GREEN", {"type": "resign", "seat": "GREEN"}, rs.apply)
