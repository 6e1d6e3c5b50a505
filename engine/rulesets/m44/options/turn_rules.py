"""Scenario rules of the turn (vocabulary 3.3): Camouflage (hidden units revealed when they
fire or are adjacent), Night Visibility (the night track rolled at the start of a turn),
the Russian Commissar rule (a card under the chip, played next turn).  The m44 and
Overlord turn machines call them through the game's extension points (:data:`HOOKS`)."""

from __future__ import annotations

from typing import Any

from ....procedures.common import commissar_sides, mode, set_ext
from ..cards import CARDS
from ....procedures.state import GameState


# --------------------------------------------------------------------------- camouflage
def init_camouflage(st: GameState) -> None:
    """Tags tag14/tag15 (vocabulary 3.1): the unit on the hex starts camouflaged."""
    hexes = tuple(h for h in st.scn.camouflage if h in st.occ)
    if hexes:
        set_ext(st, "camouflage", hexes)


# --------------------------------------------------------------------------- night
def init_night(st: GameState) -> None:
    """Scenario option ``night_visibility_rules`` (vocabulary 3.3): visibility starts at 1
    (``night_visibility_reverse_rule``: at 6, nightfall); kept in ``GameState.ext``.
    Called by both turn machines (standard/team and Overlord) at game start."""
    opts = st.scn.options
    if not opts.get("night_visibility_rules"):
        return
    team = str(opts.get("night_visibility_team_turn") or "ALLIES").upper()
    reverse = bool(opts.get("night_visibility_reverse_rule"))
    set_ext(st, "visibility", 6 if reverse else 1)
    set_ext(st, "night_team", team)
    set_ext(st, "night_reverse", reverse)


def scenario_rules(st: GameState) -> None:
    """Game start: the night track, then camouflage (both turn machines)."""
    init_night(st)
    init_camouflage(st)


def _night_roll_due(st: GameState, side: str) -> bool:
    """The night side's turn has started and its roll is still to be made this turn
    (``ext["night_rolled"]``: the turn of the last roll)."""
    x = st.ext
    if not x or "visibility" not in x or x["night_team"] != side:
        return False
    if x.get("night_rolled") == st.turn:
        return False
    track: int = x["visibility"]
    return track > 1 if x["night_reverse"] else track < 6


def night_roll_if_due(st: GameState, side: str) -> None:
    """The night side's roll (4 dice) becomes the next step when it is due."""
    if _night_roll_due(st, side):
        st.chance = {"n": 4, "for": "night"}
        st.phase = "chance"


def night_rolled(st: GameState, faces: list[str], events: list[dict[str, Any]]) -> None:
    """4 dice: each star moves the visibility track 1 (towards day, or towards night).

    Shared by both turn machines (each sets its own next step).  The roll is the night
    side's, made by the seat holding its cards (``hand_seat``: the side in standard play,
    its Commander-in-Chief in team / Overlord play; 002 is silent on who rolls)."""
    x = st.ext
    stars = faces.count("star")
    v = x["visibility"]
    set_ext(st, "night_rolled", st.turn)
    set_ext(st, "visibility", max(1, v - stars) if x["night_reverse"] else min(6, v + stars))
    events.append(
        {
            "type": "dice_rolled",
            "side": st.active,
            "seat": mode(st).hand_seat(st, st.active),
            "dice": list(faces),
            "kind": "night",
        }
    )
    events.append({"type": "visibility_changed", "visibility": st.ext["visibility"], "from": v})


# --------------------------------------------------------------------------- commissar
#: 004 "Political Commissar": instead of the card under the marker the Russian player
#: may play an Ambush (a reaction, from hand as always), Recon or Counter-Attack card.
COMMISSAR_FROM_HAND = frozenset({"recon", "counter_attack"})


def init_commissar(st: GameState) -> None:
    """Standard/team play with option ``russian_commissar_rule`` (004 "Political
    Commissar (Eastern Front Only)"; vocabulary 2.6): the chip per Commissar side, kept in
    ``GameState.ext["commissar_chip"]`` (side -> card id or None)."""
    if not st.scn.options.get("russian_commissar_rule"):
        return
    st.ext = {**(st.ext or {}), "commissar_chip": {s: None for s in commissar_sides(st.scn)}}


def commissar_card(st: GameState, side: str) -> int | None:
    x = st.ext
    if not x or "commissar_chip" not in x:
        return None
    card: int | None = x["commissar_chip"].get(side)  # the card under the chip
    return card


def _needs_commissar_card(st: GameState, side: str) -> bool:
    x = st.ext
    return bool(
        x
        and side in x.get("commissar_chip", ())
        and x["commissar_chip"][side] is None
        and st.hands[side]
    )


def commissar_playable(st: GameState, side: str) -> list[int] | None:
    """The cards ``side`` may play while a card lies under its chip (that card, or a
    Recon / Counter-Attack from the hand); None: no card under the chip."""
    chip = commissar_card(st, side)
    if chip is None:
        return None
    return [chip] + [c for c in st.hands[side] if CARDS[c].key in COMMISSAR_FROM_HAND]


#: the extension points of these scenario rules (every game; each checks its scenario)
HOOKS = {
    "scenario_rules": scenario_rules,
    "commissar_setup": init_commissar,
    "night_roll_due": _night_roll_due,
    "night_roll_if_due": night_roll_if_due,
    "night_rolled": night_rolled,
    "commissar_card": commissar_card,
    "commissar_playable": commissar_playable,
    "needs_commissar_card": _needs_commissar_card,
}
