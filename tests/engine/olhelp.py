"""Helpers for the Overlord / team tests: small OVERLORD boards, forced C-in-C hands."""

from __future__ import annotations

from engine import apply, is_chance, legal_actions, new_game, sample_chance, to_act
from engine.rulesets.overlord.cards import OVERLORD_DECK
from engine.rulesets.overlord import machine as OL
from engine.core.textboard import board_from_text

A, X = "ALLIES", "AXIS"


def cards(*keys) -> list[int]:
    """Distinct Overlord card ids for keys or (key, section) pairs."""
    out: list[int] = []
    for k in keys:
        key, sec = k if isinstance(k, tuple) else (k, None)
        out.append(
            next(
                c.id
                for c in OVERLORD_DECK
                if c.key == key and c.id not in out and (sec is None or c.sections == (sec,))
            )
        )
    return out


def ol_game(
    units: dict,
    allies=("probe",) * 6,
    axis=("probe",) * 6,
    seed=1,
    hand=(6, 6),
    text="",
    game_options=None,
    **kw,
):
    """Overlord game on a 26x9 board (empty, or drawn as ``text``); Allies (bottom) to
    dispatch; ``game_options``: the engine options of ``new_game``."""
    scn = board_from_text(text, kind="OVERLORD", units=units, cards=hand, **kw)
    st = new_game(scn, seed, game_options)
    st.hands[A] = cards(*allies)
    st.hands[X] = [c for c in cards(*(list(allies) + list(axis)))[len(allies) :]]
    for s in (A, X):
        for c in st.hands[s]:
            if c in st.deck:
                st.deck.remove(c)
    OL.refresh(st)
    return st


def do(st, seat, type_, **fields):
    st2, _ = apply(st, {"type": type_, "seat": seat, **fields})
    return st2


def ev(st, seat, type_, **fields):
    return apply(st, {"type": type_, "seat": seat, **fields})


def roll(st, *faces):
    return apply(st, {"type": "roll", "seat": "chance", "dice": list(faces)})[0]


def dispatch(st, plan: dict, visit=None):
    """plan: {card_id: "left"|...}; then confirm."""
    cinc = to_act(st)[0]
    for c, to in plan.items():
        st = do(st, cinc, "dispatch", card=c, to=to)
    if visit:
        st = do(st, cinc, "visit", fg=visit)
    return do(st, cinc, "confirm_dispatch")


def pass_all(st, side=A):
    """Every FG still deciding on initiative passes."""
    for fg in ("left", "centre", "right"):
        s = f"{side}:{fg}"
        if any(a["type"] == "pass" for a in legal_actions(st, s)) and s in to_act(st):
            st = do(st, s, "pass")
    return st


def finish_turn(st, side=A):
    """``side`` plays its turn out: end/pass actions first, else the first legal action;
    chance steps rolled from the state RNG."""
    while st.active == side and not st.game_over:
        if is_chance(st):
            st, _ = apply(st, sample_chance(st))
            continue
        acts = legal_actions(st, to_act(st)[0])
        ends = [a for a in acts if a["type"].startswith("end_") or a["type"] == "pass"]
        st, _ = apply(st, (ends or acts)[0])
    return st
