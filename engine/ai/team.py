"""The Overlord Commander-in-Chief's dispatch: which cards to which Field Generals, and
whom to visit, from what each section needs (rules 002 "Dispatching Orders").

A Field General's **readiness** is what his sub-sections offer this turn: each of his
units counts 1 when an enemy stands within its firing range plus one hex (it can fight
now, or close in and fight), 0.3 otherwise.  A section card is worth the readiness of
as many of his units as it orders (the most ready first); a tactic card three units'
worth, at 0.6; each further card to the same general is worth less (x0.6), so the cards
go where they can be used.  The C-in-C dispatches while a card is worth at least
:data:`THRESHOLD`, then visits (and names for Gung-Ho) the readiest general who got a
card, then confirms.  Bot Field Generals then play what they received with the search
of :mod:`engine.ai.player`, as they would a human C-in-C's cards.
"""

from __future__ import annotations

from typing import Any

from ..core.ruleset import Action
from ..procedures.battle import unit_dice
from ..rulesets.m44.cards import ALL, CARDS
from ..rulesets.overlord.chain import fg_units
from ..rulesets.overlord.records import ox
from .evaluate import side_of

DISPATCH_TYPES = frozenset({"dispatch", "visit", "gung_ho", "confirm_dispatch"})
THRESHOLD = 0.5


def readiness(st: Any, side: str, fg: str) -> list[float]:
    """Each unit of ``fg``'s sub-sections: 1 when it may fight soon, 0.3 otherwise (most
    ready first)."""
    foes = [u for u in st.units.values() if u.side != side]
    dist = st.scn.board.distance
    out = []
    for u in fg_units(st, side, fg):
        reach = len(unit_dice(st, u)) + 1
        out.append(1.0 if any(dist(u.hex, f.hex) <= reach for f in foes) else 0.3)
    return sorted(out, reverse=True)


def card_value(st: Any, side: str, card: int, to: str, ready: dict[str, list[float]]) -> float:
    """What dispatching ``card`` to ``to`` is worth (see the module docstring)."""
    c = CARDS[card]
    if to == "cinc":
        return 0.8 * max((sum(r[:3]) for r in ready.values()), default=0.0) / 3
    r = ready[to]
    if c.kind != "section" or c.units == 0:
        n = 3  # a tactic or special order
    else:
        n = len(r) if c.units == ALL else c.units
    value = sum(r[:n]) * (1.0 if c.kind == "section" else 0.6)
    already = len(ox(st)["dispatch"].get(to, ()))
    return value * 0.6**already


def dispatch_choice(st: Any, seat: str, acts: list[Action]) -> Action:
    """The C-in-C's next dispatch step among ``acts`` (legal, decisive)."""
    side = side_of(seat)
    x = st.ext
    fgs = {a["to"] for a in acts if a["type"] == "dispatch" and a["to"] != "cinc"}
    fgs |= {a["fg"] for a in acts if a["type"] in ("visit", "gung_ho")}
    ready = {fg: readiness(st, side, fg) for fg in sorted(fgs)}
    best, best_v = None, THRESHOLD
    for a in acts:
        if a["type"] == "dispatch":
            v = card_value(st, side, a["card"], a["to"], ready)
            if v > best_v:
                best, best_v = a, v
    if best is not None:
        return best
    served = [fg for fg in ready if x["dispatch"].get(fg)] or list(ready)
    top = max(served, key=lambda fg: sum(ready[fg]), default=None)
    for kind in ("visit", "gung_ho"):
        pick = next((a for a in acts if a["type"] == kind and a["fg"] == top), None)
        if pick is not None:
            return pick
    confirm = next((a for a in acts if a["type"] == "confirm_dispatch"), None)
    if confirm is not None:
        return confirm
    return next((a for a in acts if a["type"] == "dispatch"), acts[0])
