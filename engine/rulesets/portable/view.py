"""What a seat sees.  Nothing is hidden in this game but future dice (the RNG state never
leaves the engine); ``view_for`` / ``events_for`` stay per seat like every ruleset's."""

from __future__ import annotations

from typing import Any

from . import armies
from .activation import engaged
from .battlefield import deploy_zone
from .rules_help import HELP
from .state import AREAS, EDGES, GRID, RESERVE, SIDES, State, Unit, baseline, cell_of
from .victory import lost_units

POSITION = {"RED": "top", "BLUE": "bottom"}


def board() -> dict[str, Any]:
    """Static: the grid, the Reserve Areas, the river lines, the sides' baselines."""
    areas: list[dict[str, Any]] = []
    for a in AREAS:
        c = cell_of(a)
        if c is None:
            side = "RED" if a == RESERVE["RED"] else "BLUE"
            areas.append({"id": a, "kind": "reserve", "side": side})
        else:
            areas.append({"id": a, "kind": "grid", "col": c[0], "row": c[1]})
    return {
        "type": "square",
        "width": GRID.width,
        "height": GRID.height,
        "areas": areas,
        "river_lines": list(EDGES),
        "sides": {
            s: {
                "position": POSITION[s],
                "baseline": list(baseline(s)),
                "reserve": RESERVE[s],
                "deploy_zone": list(deploy_zone(s)),
            }
            for s in SIDES
        },
        "help": [dict(h) for h in HELP],
    }


def unit_view(st: State, u: Unit) -> dict[str, Any]:
    return {
        "id": u.id,
        "side": u.side,
        "type": u.type,
        "quality": u.quality,
        "name": u.name,
        "sp": u.sp,
        "area": u.area,
        "lost": u.lost,
        "activated": u.activated,
        "moved": u.moved,
        "fired": u.fired,
        "fought": u.fought,
        "fight_on": u.fight_on,
        "engaged": (not u.lost and u.area is not None and engaged(st, u)),
    }


def view_for(st: State, seat: str | None) -> dict[str, Any]:
    pending = dict(st.pending)
    return {
        "ruleset": "portable",
        "turn": st.turn,
        "turn_limit": st.options["turn_limit"],
        "attacker": st.attacker,
        "defender": st.defender,
        "first": st.first,
        "active": st.active,
        "activations": st.activations if st.active else None,
        "dice": dict(st.dice),
        "to_act": [] if st.over else [pending["seat"]],
        "pending": None if st.over else pending,
        "phase": "over" if st.over else pending["type"],
        "terrain": [{"area": a, "feature": f} for a, f in sorted(st.terrain.items())],
        "river": st.river,
        "units": [unit_view(st, u) for u in st.units.values()],
        "armies": {s: _army_title(st.options[f"{s.lower()}_army"]) for s in SIDES},
        "lost": {s: lost_units(st, s) for s in SIDES},
        "combat": None if st.combat is None else {k: v for k, v in st.combat.items()},
        "last_roll": st.last_roll,
        "options": dict(st.options),
        "game_over": st.over,
        "winner": st.winner,
        "reason": st.reason,
        "seat": seat,
    }


def _army_title(value: Any) -> str:
    return armies.PRESETS[value]["title"] if isinstance(value, str) else "Custom army"


def events_for(st: State, events: list[dict[str, Any]], seat: str | None) -> list[dict[str, Any]]:
    return [dict(e) for e in events]
