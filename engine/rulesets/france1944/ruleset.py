"""The ``france1944`` ruleset object: the protocol of engine/core/ruleset.py over the
session machine (session.py), the strict action forms (actions.py), the sampled legal
actions (legal.py) and the combat steps (combat.py).

Seats ``"ALLIED"`` and ``"GERMAN"`` (the text's "Allied player" / "German player");
spectators ``None``.  Nothing is hidden: every declaration, modifier, shift, roll and
result is public, in the events and in ``view["log"]`` (the shared session log).
"""

from __future__ import annotations

import copy
from typing import Any

from ...core.errors import EngineError, IllegalAction
from ...core.ruleset import Ruleset
from .actions import CHANCE, OPTION_CHECKS, SIDES, canonical, check_declaration_shape
from .legal import legal_actions as _legal
from .session import apply as _apply
from .session import assessed, new_state, sample_die, to_act
from .tables import (
    DEFAULT_CONTROL_LIMITS,
    ODDS_LABELS,
    PUBLISHED_ANOMALIES,
    RESULT_LETTERS,
    table_rows,
)

SOURCE = "001 France 1944 Revisions 2.0.6"

OPTIONS: list[dict[str, Any]] = [
    {
        "name": "attacker_may_choose_lower_odds",
        "default": False,
        "type": "bool",
        "source": f"{SOURCE}, Combat Resolution (first recommendation)",
        "description": "The attacker may declare any odds column at or below the computed "
        "odds (declaration field odds_column); shifts apply from it.",
    },
    {
        "name": "alternative_crdt",
        "default": False,
        "type": "bool",
        "source": f"{SOURCE}, Alternative CRDT",
        "description": "Resolve with the original CRT and the Alternative CRDT instead of "
        "Table 1: the die is read unmodified in the odds column, the "
        "attacker enters the ratio result, the log names the CRDT result "
        "columns of the ratio result one greater (5: the adjusted rows).",
    },
    {
        "name": "control_limits",
        "type": "table",
        "default": {str(k): v for k, v in DEFAULT_CONTROL_LIMITS.items()},
        "example": {"1": None, "2": None, "3": None, "4": None, "5": 8, "6": None},
        "prefill": True,
        "source": f"{SOURCE}, Table 2 (only morale 5 -> 8 is in the text)",
        "description": "Control Limit Table of your edition: attacker morale 1..6 -> "
        "control limit.  A combat whose attacker morale has no limit is "
        "refused (no_control_limit).",
    },
    {
        "name": "result_meanings",
        "type": "table",
        "default": {},
        "example": {"A": "(the meaning of A in your rules)"},
        "source": "the original game's result table (not in the text)",
        "description": "Optional meaning of each result letter A..F, shown beside it.",
    },
    {
        "name": "turns",
        "type": "int",
        "default": 10,
        "min": 1,
        "max": 50,
        "values": list(range(1, 51)),
        "source": "session length (referee choice)",
        "description": "Number of game turns the session follows.",
    },
    {
        "name": "increments_per_phase",
        "type": "int",
        "default": 3,
        "min": 1,
        "max": 9,
        "values": list(range(1, 10)),
        "source": "referee choice (set it to your edition's number)",
        "description": "Combat increments a phase may open.",
    },
]


def normalise_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Every option with its default, values checked (``invalid_option_value``)."""
    given = dict(options or {})
    unknown = sorted(set(given) - set(OPTION_CHECKS))
    if unknown:
        raise EngineError("unknown_option", f"unknown option {unknown[0]!r}", entry=unknown[0])
    out: dict[str, Any] = {}
    for spec in OPTIONS:
        name = spec["name"]
        value = given.get(name, spec["default"])
        if value is True and spec["type"] == "table":  # switched on: the defaults
            value = spec["default"]
        out[name] = OPTION_CHECKS[name](name, value)
    return out


class France1944(Ruleset[dict[str, Any]]):
    name = "france1944"
    version = "1"
    title = "France 1944"
    summary = (
        "A neutral referee for two remote players of Victory Games' France 1944 "
        "with the 001 revisions: combat declared then resolved on the revised "
        "combat table (morale and control modifiers, column shifts), reaction "
        "segments (all or nothing), air power per combat increment; the server "
        "rolls every die and everybody sees the same log.  No map: the players "
        "enter strengths, morale and terrain from their own board."
    )
    setup = "none"
    renderer = "referee"
    modes: tuple[str, ...] = ("1v1",)
    has_preview = True

    def options(self) -> list[dict[str, Any]]:
        """The named options (all implemented); ``values`` the choices of a numeric one,
        ``example`` the JSON shape of a table one (the lobby's textarea)."""
        return [{**copy.deepcopy(o), "implemented": True} for o in OPTIONS]

    def accepts(self, scenario: Any, mode: str | None) -> bool:
        return scenario is None and mode in (None, "1v1")

    def new_game(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        scenario: Any = None,
        mode: str | None = None,
    ) -> dict[str, Any]:
        if scenario is not None:
            raise EngineError("no_scenario", "france1944 takes no scenario")
        if mode not in (None, "1v1"):
            raise EngineError("unknown_mode", f"france1944 has no mode {mode!r}")
        return new_state(seed, normalise_options(options), self.name, self.version)

    def seats(self, state: Any) -> list[str]:
        return list(SIDES)

    def turn(self, state: Any) -> int:
        return int(state["turn"])

    def to_act(self, state: Any) -> list[str]:
        return to_act(state)

    def legal_actions(self, state: Any, seat: str | None) -> list[dict[str, Any]]:
        return _legal(state, seat)

    def canonical_action(self, state: Any, action: Any) -> dict[str, Any]:
        return canonical(action)

    def apply(self, state: Any, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
        return _apply(state, canonical(action))

    def preview(self, state: Any, action: Any) -> dict[str, Any]:
        """A ``declare_combat`` assessed with the session's options, nothing applied: the
        odds, modifiers and shifts (with their explanation lines) the attacker sees
        before making a declaration that cannot be changed or cancelled.  Refusals of the
        declaration itself (``odds_below_1_4``, ``too_many_hexes``, ...) are raised."""
        act = canonical(action)
        if act["type"] != "declare_combat":
            raise IllegalAction("no_preview", "only a combat declaration has a preview")
        check_declaration_shape(act["attack_hexes"], act["defence_hexes"])
        decl = {k: v for k, v in act.items() if k not in ("type", "seat")}
        return {"type": "declare_combat", "assessment": assessed(state, decl)}

    def is_chance(self, state: Any) -> bool:
        return bool(state["step"] == "chance")

    def sample_chance(self, state: Any) -> dict[str, Any]:
        if state["step"] != "chance":
            raise IllegalAction("not_a_chance_node", "no die to roll now")
        return {"type": "roll", "seat": CHANCE, "dice": [sample_die(state)]}

    def is_over(self, state: Any) -> bool:
        return bool(state["step"] == "over")

    def result(self, state: Any) -> dict[str, Any]:
        """A referee session has no winner (the players' map decides the game) unless a
        side resigned, ran out of time or forfeited (:meth:`conclude`)."""
        if state.get("winner") is not None:
            return {
                "winner": state["winner"],
                "draw": False,
                "score": {},
                "reason": state.get("end_reason") or "resign",
            }
        return {
            "winner": None,
            "draw": False,
            "score": {},
            "reason": "session_over" if self.is_over(state) else "in_progress",
        }

    def conclude(self, state: Any, side: str, reason: str) -> tuple[Any, list[dict[str, Any]]]:
        """(engine.meta) ``side`` resigns, runs out of time or forfeits
        the session; the other side wins (``winner`` / ``end_reason`` in the state)."""
        if self.is_over(state):
            raise IllegalAction("game_over", "the session is over")
        if side not in SIDES:
            raise IllegalAction("illegal_action", f"{side!r} is not a side of this session")
        winner = SIDES[1 - SIDES.index(side)]
        new = copy.deepcopy(state)
        new.update(step="over", winner=winner, end_reason=reason, chance=None)
        return new, [{"type": "game_over", "winner": winner, "reason": reason, "loser": side}]

    def view_for(self, state: Any, seat: str | None) -> dict[str, Any]:
        st = state
        inc = st["increment"]
        return {
            "ruleset": self.name,
            "turn": st["turn"],
            "turns": st["options"]["turns"],
            "step": st["step"],
            "to_act": to_act(st),
            "seat": seat,
            "pending": _pending(st),
            "floor": st["floor"],
            "entries": copy.deepcopy(st["entries"]),
            "hq_activations": copy.deepcopy(st["hq_log"]),
            "phase": copy.deepcopy(st["phase"]),
            "segment": copy.deepcopy(st["segment"]),
            "offer": copy.deepcopy(st["offer"]),
            "increment": copy.deepcopy(inc),
            "options": copy.deepcopy(st["options"]),
            "log": list(st["log"]),
            "game_over": self.is_over(st),
            "winner": st.get("winner"),
        }

    def events_for(
        self, state: Any, events: list[dict[str, Any]], seat: str | None
    ) -> list[dict[str, Any]]:
        return [dict(e) for e in events]  # nothing is secret

    def board(self, state: Any) -> dict[str, Any]:
        return {
            "type": "referee",
            "ruleset": self.name,
            "sides": list(SIDES),
            "odds": list(ODDS_LABELS),
            "table": table_rows(),
            "letters": list(RESULT_LETTERS),
            "anomalies": [
                {"die": d, "odds": o, "note": n} for (d, o), n in PUBLISHED_ANOMALIES.items()
            ],
            "letter_order": ["set-piece", "mobile"],
        }

    def dump_state(self, state: Any) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load_state(self, data: dict[str, Any], scenario: Any = None) -> dict[str, Any]:
        if not isinstance(data, dict) or data.get("ruleset") != self.name:
            raise EngineError("malformed_state", "not a france1944 snapshot")
        if data.get("version") != self.version:
            raise EngineError("snapshot_version", "snapshot of another france1944 version")
        return copy.deepcopy(data)


def _pending(st: dict[str, Any]) -> dict[str, Any] | None:
    acting = to_act(st)
    if not acting:
        return None
    out: dict[str, Any] = {"type": st["step"], "seat": acting[0]}
    if st["step"] == "chance":
        out.update(st["chance"], dice=1)
    if st["step"] == "ratio_result":
        out["combat"] = st["pending_ratio"]
    return out
