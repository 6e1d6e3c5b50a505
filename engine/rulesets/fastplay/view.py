"""What a seat may see in Fast Play '44: everything is public (no cards, no hidden
hand); the view carries the Fast Play markers so that the hex client can draw them:
``cp`` (the active side's Command Points left) and per side ``cp_per_turn``; per unit
``suppression`` (0/1/2), ``opfire`` (marker), ``battled``, ``ordered``, ``towed``
(rallied artillery, 10.4); ``current`` (the unit being used); ``fights`` (the combat
stack, top last) and ``move`` (a move waiting on an opportunity fire decision)."""

from __future__ import annotations

from typing import Any

from ...procedures.common import SIDES, is_top
from ...procedures.state import GameState, Unit
from .command import command_points, nation_rules
from .cards import card_json
from .markers import has_opfire, suppression
from .records import ext


def _unit_json(st: GameState, u: Unit) -> dict[str, Any]:
    s = u.spec
    return {
        "id": u.id,
        "side": u.side,
        "code": s.code,
        "kind": s.kind,
        "class": s.unit_class,
        "nation": s.nation,
        "badge": u.badge,
        "hex": [*u.hex],
        "figures": u.figures,
        "max_figures": u.max_figures,
        "ordered": u.ordered,
        "moved": u.moved,
        "battled": u.battles > 0,
        "name": s.name,
        "suppression": suppression(st, u.id),
        "opfire": has_opfire(st, u.id),
        "towed": u.id in ext(st)["towed"],
    }


def view_for(st: GameState, seat: str | None) -> dict[str, Any]:
    x = ext(st)
    sides: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        sides[side] = {
            "position": "top" if is_top(st, side) else "bottom",
            "medals": st.medals(side),
            "victory": st.scn.victory.get(side, 0),
            "hand_count": len(st.hands[side]),
            "cp_per_turn": command_points(st, side),
            "withdrawn": x["withdrawn"][side],
            "nations": nation_rules(st, side),
        }
        if seat == side and st.options.get("command_cards"):  # option: the holder only
            sides[side]["hand"] = [card_json(c) for c in st.hands[side]]
    changed = [
        {
            "hex": [*h],
            "tiles": [
                {"code": t.spec.code, "name": t.spec.name, "family": t.spec.family} for t in tiles
            ],
        }
        for h, tiles in sorted(st.tiles_over.items())
    ]
    return {
        "ruleset": "fastplay",
        "turn": st.turn,
        "active": st.active,
        "phase": st.phase,
        "to_act": [] if st.pending is None else [st.pending["seat"]],
        "pending": None if st.pending is None else dict(st.pending),
        "sides": sides,
        "cp": x["cp"],
        "current": x["current"],
        "deck_count": len(st.deck),
        "discard_count": len(st.discard),
        "played": [],
        "units": [_unit_json(st, u) for u in st.units.values()],
        "changed_hexes": changed,
        "crosshairs": [],
        "mines": [
            {"hex": [*h], "side": m.side, "value": m.value if m.revealed else None}
            for h, m in sorted(st.mines.items())
        ],
        "objectives": [{"id": o.id, "holder": st.objectives.get(o.id)} for o in st.scn.objectives],
        "fights": [
            {k: f[k] for k in ("kind", "assault", "att", "tgt", "frm", "thex", "stage")}
            for f in x["fights"]
        ],
        "move": None
        if x["move"] is None
        else {"unit": x["move"]["unit"], "path": x["move"]["path"]},
        "last_roll": st.last_roll,
        "game_over": st.game_over,
        "winner": st.winner,
        "options": sorted(st.options),
    }


def events_for(events: list[dict[str, Any]], seat: str | None) -> list[dict[str, Any]]:
    """No hidden information in Fast Play '44: every event goes to everybody."""
    return list(events)
