"""Determinization: the state a player may imagine, built from what its seat sees.

A player never reads what its seat's view does not show: the other side's hand, the deck
order, hidden minefield values, the RNG state (hence future dice).  Before searching it
builds its own copy of the game in which every hidden item is re-drawn from what is
unseen, with the player's own seeded random generator:

* command cards (``GameState``: m44, overlord, fastplay): the hands the seat's view does
  not show and the deck are pooled, sorted, shuffled with the player's seed and dealt
  back in the same sizes (hand sizes and the deck size are public);
* hidden mine values: the unrevealed values are pooled and shuffled the same way;
* the RNG: replaced by a fresh one seeded by the player (its dice are its own guesses);
* under 004 Kriegspiel (option ``kriegspiel``), the enemy units the seat's view does not
  show are taken off the board and the fog lifted: the player plans with the units it
  sees (it knows neither where the others stand nor how many they are).

Two states that differ only in hidden information therefore give the same determinized
state, and so the same decision (tests/engine/test_ai.py).
"""

from __future__ import annotations

import random
from typing import Any

from ..core.rng import Rng
from ..core.ruleset import Ruleset
from ..rulesets.m44.hook_table import hooks_for


def seen_hands(view: dict[str, Any]) -> set[str]:
    """The sides whose hand ``view`` shows (``sides[side]["hand"]``)."""
    sides = view.get("sides")
    if not isinstance(sides, dict):
        return set()
    return {s for s, d in sides.items() if isinstance(d, dict) and "hand" in d}


def determinize(rs: Ruleset[Any], state: Any, seat: str, rng: random.Random) -> Any:
    """A copy of ``state`` whose hidden parts are re-drawn for ``seat`` with ``rng``."""
    clone = getattr(state, "clone", None)
    if clone is None:
        raise TypeError(f"cannot determinize a {type(state).__name__}")
    st = clone()
    st.rng = Rng(rng.getrandbits(63))
    hands = getattr(st, "hands", None)
    if isinstance(hands, dict):
        known = seen_hands(rs.view_for(state, seat))
        hidden = sorted(s for s in hands if s not in known)
        pool = sorted([c for s in hidden for c in hands[s]] + list(st.deck))
        rng.shuffle(pool)
        st.hands = {s: list(h) for s, h in hands.items()}
        for s in hidden:
            n = len(hands[s])
            st.hands[s], pool = pool[:n], pool[n:]
        st.deck = pool
    mines = getattr(st, "mines", None)
    if mines:
        _redraw_mines(st, rng)
    if fogged(state):
        _remove_unseen(st, rs.view_for(state, seat))
        st.options = {k: v for k, v in st.options.items() if not k.startswith("kriegspiel")}
        st.hooks = hooks_for(st.options, st.hooks.mode)  # the game's extension points, fog-free
    return st


def fogged(state: Any) -> bool:
    """A game under 004 Kriegspiel (each side sees only the enemy units in range)."""
    options = getattr(state, "options", None)
    return isinstance(options, dict) and bool(options.get("kriegspiel"))


def _remove_unseen(st: Any, view: dict[str, Any]) -> None:
    """Every unit ``view`` does not show taken off ``st`` (hexes, crosshairs)."""
    seen = {u["id"] for u in view.get("units") or ()}
    gone = {uid for uid in st.units if uid not in seen}
    if not gone:
        return
    st.units = {uid: u for uid, u in st.units.items() if uid not in gone}
    st.occ = {h: uid for h, uid in st.occ.items() if uid not in gone}
    st.crosshairs = {
        gun: tuple(m for m in marks if m[0] not in gone)
        for gun, marks in st.crosshairs.items()
        if gun not in gone
    }


def _redraw_mines(st: Any, rng: random.Random) -> None:
    """Unrevealed mine values shuffled among the unrevealed mines (the public pool)."""
    closed = sorted(h for h, m in st.mines.items() if not m.revealed)
    values = sorted(st.mines[h].value for h in closed)
    rng.shuffle(values)
    mines = dict(st.mines)
    for h, v in zip(closed, values):
        m = mines[h]
        mines[h] = type(m)(m.side, v, m.revealed, m.decoy)
    st.mines = mines
