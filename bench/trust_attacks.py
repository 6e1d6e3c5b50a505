"""Issue 34 attacks re-run in-process against the engine (figures, no asserts):

* undo after detection: in random 004 Kriegspiel games (standard and team play), every
  player action whose events include ``detection_changed`` is followed by an undo try
  (``engine.meta.Fold.undo_target``): how many would be accepted;
* watching a live Kriegspiel game: at every state, the enemy units a ``watch:SIDE``
  spectator is shown that the other side has not detected (a player watching his
  enemy's board from a second connection).

Usage: ``python bench/trust_attacks.py [games]`` (default 6 per mode).
"""

from __future__ import annotations

import sys

from engine import apply, new_game, view_for
from engine.bot import RandomBot, next_action
from engine.core.textboard import board_from_text
from engine.meta import Fold
from engine.procedures.common import SIDES, other
from engine.rulesets.m44.options.kriegspiel import detected, watch_seat

BOARD = """
    1: .:i W:i .:a .:i .:g .:i .:a .:i H:i
    3: . S  .  W  .  .  H  .
    7: .:I W:I .:A .:I .:G .:I .:A .:I H:I
"""


def main(games: int) -> None:
    scn = board_from_text(BOARD, victory=(6, 6))
    tries = accepted = states = shown_hidden = worst = 0
    for mode in ("standard", "team"):
        for seed in range(games):
            st = new_game(scn, seed, {"kriegspiel": True}, mode)
            fold, bot, seq = Fold(st, 0), RandomBot(seed), 0
            while not fold.state.game_over and fold.state.turn <= 200:
                a = next_action(fold.state, bot)
                seq += 1
                events = fold.apply(seq, a.get("seat") or "chance", a, apply)
                if a.get("seat") not in (None, "chance") and any(
                    e["type"] == "detection_changed" for e in events
                ):
                    tries += 1
                    accepted += fold.undo_target(a["seat"]) == seq
                if fold.state.game_over:
                    break
                states += 1
                for side in SIDES:
                    units = {u["id"] for u in view_for(fold.state, watch_seat(side))["units"]}
                    # the watched side's units its enemy has not detected: what a player
                    # of the other side would learn by watching this side
                    own = {u.id for u in fold.state.units.values() if u.side == side}
                    leak = len(units & own - detected(fold.state, other(side)))
                    shown_hidden += leak > 0
                    worst = max(worst, leak)
    print(f"undo after a detection: {accepted} of {tries} accepted")
    print(
        f"watch:SIDE spectators of a live game: {shown_hidden} of {2 * states} views show "
        f"a unit the enemy has not detected (at most {worst} at once)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
