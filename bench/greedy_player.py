"""A reference opponent for ``engine.ai``: a greedy one-ply player written independently
of the engine's own players (bench/ai_arena.py plays ``hard`` against it).

For every legal action it applies the action, rolls the dice that follow four times
(its own seeded generator: an expected value) and scores the position for its side:
10 per medal of difference, 1 per figure of difference, plus half the expected hits
its units threaten minus half those the enemy threatens (battle-dice tables, terrain,
no line-of-sight check).  A command card is scored by the best single step it allows
next (one more ply), so it does not play its cards blindly.  It wins nearly every game
against the uniform random player.
"""

from __future__ import annotations

import random
from typing import Any

from engine.bot import decisive
from engine.core.rng import Rng
from engine.core.ruleset import Action, Ruleset
from engine.procedures.battle import battle_dice, unit_dice

P_HIT = {"inf": 0.5, "armor": 1 / 3, "art": 1 / 6}


class GreedyPlayer:
    """Greedy one-ply, expected values over four rolls; m44-family states only."""

    def __init__(self, rs: Ruleset, seed: int = 0, rolls: int = 4) -> None:
        self.rs = rs
        self.rng = random.Random(seed)
        self.rolls = rolls

    def choose(self, st: Any, seat: str) -> Action:
        acts = decisive(st, self.rs.legal_actions(st, seat))
        side = seat.split(":")[0]
        if len(acts) == 1:
            return acts[0]
        work = st.clone()
        work.hands = {s: (h if s == side else []) for s, h in st.hands.items()}
        work.deck = []  # nothing it may not see
        return max(acts, key=lambda a: self._value(work, a, seat, side, 1))

    def _value(self, st: Any, a: Action, seat: str, side: str, depth: int) -> float:
        total = 0.0
        n = 1 if a.get("type") in ("play_card", "order") else self.rolls
        for _ in range(n):
            try:
                s = self._roll(self.rs.apply(st, a)[0])
            except Exception:  # noqa: BLE001 - a step its hiding broke
                return float("-inf")
            if (
                depth
                and a.get("type") in ("play_card", "order", "choose_section")
                and seat in self.rs.to_act(s)
                and not self.rs.is_over(s)
            ):
                nxt = decisive(s, self.rs.legal_actions(s, seat))
                total += max(
                    (self._value(s, b, seat, side, 0) for b in nxt),
                    default=score(self.rs, s, side),
                )
            else:
                total += score(self.rs, s, side)
        return total / n

    def _roll(self, s: Any) -> Any:
        while self.rs.is_chance(s) and not self.rs.is_over(s):
            s.rng = Rng(self.rng.getrandbits(63))
            s, _ = self.rs.apply(s, self.rs.sample_chance(s))
        return s


def score(rs: Ruleset, st: Any, side: str) -> float:
    """Medals, figures and threats for ``side``."""
    if rs.is_over(st):
        w = rs.result(st).get("winner")
        return 0.0 if w is None else (1e4 if w == side else -1e4)
    medals = rs.result(st).get("score") or {}
    v = sum(10 * (m if s == side else -m) for s, m in medals.items())
    for u in st.units.values():
        v += u.figures if u.side == side else -u.figures
        best = 0.0
        for t in st.units.values():
            if t.side == u.side:
                continue
            d = st.scn.board.distance(u.hex, t.hex)
            if d <= len(unit_dice(st, u)):
                best = max(best, battle_dice(st, u, t, d, None) * P_HIT.get(t.cls, 1 / 3))
        v += 0.5 * best if u.side == side else -0.5 * best
    return v
