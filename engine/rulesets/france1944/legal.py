"""``legal_actions``: every action a seat may take now, in canonical form.

Steps with free-form entries (the turn's values, a combat declaration, HQ and unit
names) return a finite sample of representative entries instead of every possible
one (docs/protocol.md, France 1944): the entries the players type in the browser form
are checked by ``canonical_action`` and ``apply``, the sample is for random bots and
tests.  Every listed action is one ``apply`` accepts (filtered by applying it).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from .actions import CHANCE, canonical
from .session import apply, other, to_act
from .tables import RATIO_RESULT_MAX, RATIO_RESULT_MIN

SAMPLE_HQS = ("HQ-1", "HQ-2", "HQ-3")
SAMPLE_ENTRIES = ((0, 0), (2, 1), (3, 2), (5, 1))  # (reaction points, initiative)


def _entries(side: str) -> list[dict[str, Any]]:
    out = []
    for points, markers in SAMPLE_ENTRIES:
        base = {"type": "turn_entries", "reaction_points": points, "initiative_markers": markers}
        if side == "ALLIED":
            out += [{**base, "air_availability": k} for k in (0, 3, 6)]
        else:
            out.append(base)
    return out


def _declarations(st: dict[str, Any], side: str) -> list[dict[str, Any]]:
    n = st["next_combat"]
    mine, theirs = side[0], other(side)[0]
    limits = sorted(int(k) for k in st["options"]["control_limits"]) or [5]
    morale = limits[n % len(limits)] if not st["options"]["alternative_crdt"] else 1 + n % 6

    def units(prefix: str, k: int) -> list[str]:
        return [f"{prefix}{n}.{i}" for i in range(1, k + 1)]

    base = {"type": "declare_combat", "attacker_morale": morale, "mobile": False}
    out = [
        {
            **base,
            "attackers": units(mine, 1),
            "attack_hexes": [f"{n:02d}01"],
            "defenders": units(theirs, 1),
            "defence_hexes": [f"{n:02d}02"],
            "attack_strength": 6,
            "defence_strength": 3,
            "defender_morale": 3,
        },
        {
            **base,
            "attackers": units(mine, 3),
            "hqs": [f"{mine}HQ{n}"],
            "attack_hexes": [f"{n:02d}01", f"{n:02d}03"],
            "defenders": units(theirs, 2),
            "defence_hexes": [f"{n:02d}02"],
            "attack_strength": 12,
            "defence_strength": 5,
            "defender_morale": 4,
            "terrain": [1, 2],
            "armoured_79th": -1,
        },
        {
            **base,
            "attackers": units(mine, 8),
            "attack_hexes": [f"{n:02d}01"],
            "defenders": units(theirs, 2),
            "defence_hexes": [f"{n:02d}02", f"{n:02d}04"],
            "attack_strength": 20,
            "defence_strength": 10,
            "defender_morale": 5,
            "terrain": [2],
            "heavy_bombing": -2,
            "mobile": True,
        },
        {
            **base,
            "attackers": units(mine, 2),
            "attack_hexes": [f"{n:02d}01"],
            "defenders": units(theirs, 3),
            "defence_hexes": [f"{n:02d}02"],
            "attack_strength": 2,
            "defence_strength": 8,
            "defender_morale": 6,
        },
    ]
    if st["options"]["attacker_may_choose_lower_odds"]:
        out.append({**out[0], "odds_column": "1-1"})
    return out


def _segment(st: dict[str, Any], side: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"type": "army_reaction", "hq": h} for h in SAMPLE_HQS]
    for k in (1, 2, 3):
        out.append(
            {"type": "single_piece_reaction", "unit": f"{side[0]}-R{k}", "out_of_supply": k == 3}
        )
    out += [{"type": "single_piece_reaction", "unit": h, "hq": True} for h in SAMPLE_HQS[:2]]
    return out + [{"type": "end_segment"}]


def candidates(st: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    step = st["step"]
    if step == "turn_setup":
        return _entries(seat)
    if step == "floor":
        return [{"type": "begin_initiative_phase", "hq": h} for h in SAMPLE_HQS] + [
            {"type": "pass"}
        ]
    if step == "phase":
        return [{"type": "open_increment"}, {"type": "end_phase"}]
    if step == "declare":
        return _declarations(st, seat) + [{"type": "end_declarations"}]
    if step == "resolve":
        open_ = [c["id"] for c in st["increment"]["combats"] if c["result"] is None]
        return [{"type": "resolve_combat", "combat": c} for c in open_] + [
            {"type": "air_power", "combat": c, "morale_adjustment": -1} for c in open_[:2]
        ]
    if step == "chance":
        return [{"type": "roll", "dice": [d]} for d in range(1, 7)]
    if step == "ratio_result":
        return [
            {"type": "enter_ratio_result", "ratio_result": r}
            for r in range(RATIO_RESULT_MIN, RATIO_RESULT_MAX + 1)
        ]
    if step == "reaction_offer":
        return [{"type": "engage_reaction"}, {"type": "decline_reaction"}]
    if step == "segment":
        return _segment(st, seat)
    return []


def legal_actions(st: dict[str, Any], seat: str | None) -> list[dict[str, Any]]:
    if seat is None or seat not in to_act(st):
        return []
    out = []
    for cand in candidates(st, seat):
        action = canonical({**cand, "seat": seat if seat != CHANCE else CHANCE})
        try:
            apply(st, action)
        except IllegalAction:
            continue
        out.append(action)
    return out
