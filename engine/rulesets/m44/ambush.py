"""The Ambush card (004 "Ambush"): when a close assault is declared on one of his units,
the defender may play Ambush from his hand and battle first.  Plugs into the battle stack's
reaction window (extension points ``reaction_possible`` / ``play_reaction``)."""

from __future__ import annotations

from typing import Any

from ...procedures.battle import battle_dice, terrain_allows_battle_static
from ...procedures.common import can_activate, drop_camouflage, mode
from ...procedures.state import Battle, GameState
from ...core.units import may_target
from .cards import CARDS


def ambush_possible(st: GameState, b: Battle) -> bool:
    v = st.units.get(b.target)
    u = st.units.get(b.attacker) if b.attacker else None
    if v is None or u is None or not can_activate(st, v):
        return False
    if not any(CARDS[c].key == "ambush" for c in st.hands[v.side]):
        return False
    if not may_target(v.spec, u.spec) or not terrain_allows_battle_static(st, v):
        return False
    return battle_dice(st, v, u, 1, None, "ambush") > 0


def play_ambush(st: GameState, b: Battle, events: list[dict[str, Any]]) -> None:
    v = st.units[b.target]
    u = st.units[b.attacker_id]
    card = next(c for c in st.hands[v.side] if CARDS[c].key == "ambush")
    st.hands[v.side].remove(card)
    st.discard.append(card)
    st.extra_draws[v.side] = st.extra_draws.get(v.side, 0) + 1
    events.append(
        {
            "type": "card_played",
            "seat": mode(st).hand_seat(st, v.side),
            "side": v.side,
            "card": CARDS[card].to_json(),
            "reaction": True,
        }
    )
    a = Battle(
        v.id, v.side, u.id, u.hex, v.hex, 1, battle_dice(st, v, u, 1, None, "ambush"), "ambush"
    )
    a.star_hits = v.spec.star_hits
    a.stage = "roll"
    b.stage = "ambushed"
    drop_camouflage(st, v.hex, events)
    events.append(
        {
            "type": "battle_declared",
            "unit": v.id,
            "side": v.side,
            "from": [*v.hex],
            "target": [*u.hex],
            "target_unit": u.id,
            "range": 1,
            "dice": a.dice,
            "kind": "ambush",
        }
    )
    st.battles.append(a)


#: the battle stack's reaction window (extension points, procedures/hooks.py)
HOOKS = {"reaction_possible": ambush_possible, "play_reaction": play_ambush}
