"""The referee session: a JSON-able state (a plain ``dict``) and its step machine.

The session follows the players' game turn by turn without the map.  Steps
(``state["step"]``) and who acts:

* ``turn_setup`` (both players, each once): ``turn_entries`` - the reaction points and
  initiative markers of the turn, and for the Allies the air power availability.
* ``floor`` (the player whose initiative it is; ALLIED opens every turn):
  ``begin_initiative_phase {hq}`` (uses a marker; HQ errata) or ``pass``.  Two passes in
  a row end the turn.
* ``phase`` (the phase's player): ``open_increment`` (a combat increment; at most
  option ``increments_per_phase``) or ``end_phase``.
* ``declare`` (attacker): ``declare_combat`` ... then ``end_declarations``
  (clarification "Combat Resolution Order": all declared before any is resolved).  The
  attacker enters both sides' figures; the defender is not asked to confirm (choice: each
  declaration is in the shared log the moment it is made, and the text makes a
  declaration final, so there is nothing a confirmation could change).
* ``resolve`` (attacker): ``resolve_combat {combat}`` in any order, ``air_power`` (the
  Allies, once per increment, before that combat is resolved).
* ``chance``: one die (``roll``) for a combat or an air power attempt.
* ``ratio_result`` (attacker, option ``alternative_crdt``): the ratio result read on
  the original CRT.
* ``reaction_offer``: after an initiative phase its opponent, and if he declines the
  initiative player, may engage a Reaction Segment (001 example 2).
* ``segment`` (reacting player): ``army_reaction {hq}`` | ``single_piece_reaction`` |
  ``end_segment`` (all or nothing).  Each reaction phase is a ``phase`` step.
* ``over``: after the last turn (option ``turns``).
"""

from __future__ import annotations

import copy
from typing import Any

from ...core.errors import IllegalAction
from ...core.rng import Rng
from .actions import CHANCE, SIDES, check_declaration_shape
from .combat import alternative_crdt_reference, assess, resolve
from .reaction import (
    all_or_nothing_shortfall,
    check_army_reaction,
    check_hq_activation,
    check_single_piece_reaction,
    may_engage_reaction_segment,
    out_of_supply_step_loss,
)
from .tables import ODDS_LABELS

MAX_COMBATS_PER_INCREMENT = 20  # technical bound (the text has none)


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def new_state(seed: int, options: dict[str, Any], name: str, version: str) -> dict[str, Any]:
    return {
        "ruleset": name,
        "version": version,
        "options": options,
        "rng": [int(seed) & ((1 << 64) - 1), 0],
        "turn": 1,
        "step": "turn_setup",
        "entries": {s: None for s in SIDES},
        "floor": SIDES[0],
        "passes": 0,
        "hq_log": {s: [] for s in SIDES},
        "phase": None,
        "segment": None,
        "offer": None,
        "increment": None,
        "chance": None,
        "pending_ratio": None,
        "next_combat": 1,
        "log": [],
    }


def to_act(st: dict[str, Any]) -> list[str]:
    step = st["step"]
    if step == "turn_setup":
        return [s for s in SIDES if st["entries"][s] is None]
    if step == "floor":
        return [st["floor"]]
    if step == "phase":
        return [st["phase"]["side"]]
    if step in ("declare", "resolve", "ratio_result"):
        return [st["increment"]["attacker"]]
    if step == "chance":
        return [CHANCE]
    if step == "reaction_offer":
        return [st["offer"]["to"]]
    if step == "segment":
        return [st["segment"]["side"]]
    return []


def rng_of(st: dict[str, Any]) -> Rng:
    return Rng(st["rng"][0], st["rng"][1])


def sample_die(st: dict[str, Any]) -> int:
    """The next die of the state RNG (not advanced: ``apply`` of the roll advances it)."""
    return rng_of(st).peek(0) % 6 + 1


class _Step:
    """One ``apply``: a working copy of the state and the events it produces."""

    def __init__(self, st: dict[str, Any]) -> None:
        # the log only grows and its entries are never changed: a shallow copy suffices
        self.st: dict[str, Any] = {
            k: (list(v) if k == "log" else copy.deepcopy(v)) for k, v in st.items()
        }
        self.events: list[dict[str, Any]] = []

    def emit(self, etype: str, /, **fields: Any) -> None:
        event = {"type": etype, "turn": self.st["turn"], **fields}
        self.events.append(event)
        self.st["log"].append({"n": len(self.st["log"]) + 1, **event})


def _entries(w: _Step, a: dict[str, Any]) -> None:
    side = a["seat"]
    if w.st["entries"][side] is not None:
        raise IllegalAction("already_entered", f"{side} already entered this turn's values")
    if side == "ALLIED" and "air_availability" not in a:
        raise IllegalAction(
            "missing_field", "the Allies enter the air power availability", field="air_availability"
        )
    if side == "GERMAN" and "air_availability" in a:
        raise IllegalAction("air_power_is_allied", "only the Allies roll for air power")
    entry = {"reaction_points": a["reaction_points"], "initiative_markers": a["initiative_markers"]}
    if side == "ALLIED":
        entry["air_availability"] = a["air_availability"]
    w.st["entries"][side] = entry
    w.emit("turn_entries", side=side, **entry)
    if all(w.st["entries"][s] is not None for s in SIDES):
        w.st["step"] = "floor"
        w.emit("floor", side=w.st["floor"])


def _activate_hq(w: _Step, side: str, hq: str, why: str) -> None:
    check_hq_activation(w.st["turn"], w.st["hq_log"][side], hq)
    w.st["hq_log"][side].append(hq)
    w.emit("hq_activated", side=side, hq=hq, count=w.st["hq_log"][side].count(hq), reason=why)


def _begin_initiative(w: _Step, a: dict[str, Any]) -> None:
    side = a["seat"]
    if w.st["entries"][side]["initiative_markers"] < 1:
        raise IllegalAction("no_initiative_marker", f"{side} has no initiative marker left")
    _activate_hq(w, side, a["hq"], "initiative")
    w.st["entries"][side]["initiative_markers"] -= 1
    w.st["passes"] = 0
    w.st["phase"] = {"kind": "initiative", "side": side, "hq": a["hq"], "increments": 0}
    w.st["step"] = "phase"
    w.emit(
        "phase_started",
        side=side,
        kind="initiative",
        hq=a["hq"],
        markers_left=w.st["entries"][side]["initiative_markers"],
    )


def _pass(w: _Step, a: dict[str, Any]) -> None:
    w.st["passes"] += 1
    w.emit("passed", side=a["seat"])
    if w.st["passes"] >= 2:
        _end_turn(w)
    else:
        _give_floor(w, other(a["seat"]), reset=False)


def _give_floor(w: _Step, side: str, reset: bool = True) -> None:
    if reset:
        w.st["passes"] = 0
    w.st["floor"] = side
    w.st["step"] = "floor"
    w.emit("floor", side=side)


def _end_turn(w: _Step) -> None:
    st = w.st
    w.emit("turn_ended")
    if st["turn"] >= st["options"]["turns"]:
        st["step"] = "over"
        w.emit("session_over", turns=st["turn"])
        return
    st["turn"] += 1
    st.update(
        step="turn_setup",
        floor=SIDES[0],
        passes=0,
        entries={s: None for s in SIDES},
        hq_log={s: [] for s in SIDES},
    )
    w.emit("turn_started")


def _open_increment(w: _Step, a: dict[str, Any]) -> None:
    phase = w.st["phase"]
    if phase["increments"] >= w.st["options"]["increments_per_phase"]:
        raise IllegalAction(
            "too_many_increments",
            f"at most {w.st['options']['increments_per_phase']} combat "
            f"increments in a phase (option increments_per_phase)",
        )
    phase["increments"] += 1
    w.st["increment"] = {
        "attacker": phase["side"],
        "number": phase["increments"],
        "combats": [],
        "air_power": None,
    }
    w.st["step"] = "declare"
    w.emit("increment_opened", side=phase["side"], number=phase["increments"])


def _end_phase(w: _Step, a: dict[str, Any]) -> None:
    phase = w.st["phase"]
    w.st["phase"] = None
    w.emit("phase_ended", side=phase["side"], kind=phase["kind"])
    if w.st["segment"] is not None:
        w.st["step"] = "segment"
        return
    opponent = other(phase["side"])
    w.st["offer"] = {"initiative_side": phase["side"], "to": opponent}
    w.st["step"] = "reaction_offer"
    w.emit("reaction_offered", side=opponent)


def assessed(st: dict[str, Any], decl: dict[str, Any], air_power: int = 0) -> dict[str, Any]:
    """:func:`combat.assess` of a declaration as stored (``odds_column`` a label)."""
    opts = st["options"]
    if "odds_column" in decl:
        decl = {**decl, "odds_column": ODDS_LABELS.index(decl["odds_column"])}
    limits = {int(k): v for k, v in opts["control_limits"].items()}
    return assess(
        decl,
        limits,
        opts["attacker_may_choose_lower_odds"],
        air_power,
        revised=not opts["alternative_crdt"],
    )


def _declare(w: _Step, a: dict[str, Any]) -> None:
    inc = w.st["increment"]
    if len(inc["combats"]) >= MAX_COMBATS_PER_INCREMENT:
        raise IllegalAction("too_many_combats", "too many combats in one increment")
    check_declaration_shape(a["attack_hexes"], a["defence_hexes"])
    for field in ("attackers", "hqs", "defenders"):
        used = {n for c in inc["combats"] for n in c["declaration"][field]}
        again = sorted(used & set(a[field]))
        if again:
            raise IllegalAction(
                "unit_already_declared", f"{again[0]} is already in a combat of this increment"
            )
    decl = {k: v for k, v in a.items() if k not in ("type", "seat")}
    assessment = assessed(w.st, decl)
    combat = {
        "id": w.st["next_combat"],
        "side": inc["attacker"],
        "declaration": decl,
        "assessment": assessment,
        "air_power": None,
        "result": None,
    }
    w.st["next_combat"] += 1
    inc["combats"].append(combat)
    w.emit(
        "combat_declared",
        side=inc["attacker"],
        combat=combat["id"],
        declaration=decl,
        assessment=assessment,
    )


def _end_declarations(w: _Step, a: dict[str, Any]) -> None:
    inc = w.st["increment"]
    w.emit("declarations_closed", side=inc["attacker"], combats=len(inc["combats"]))
    _next_in_increment(w)


def _next_in_increment(w: _Step) -> None:
    inc = w.st["increment"]
    if any(c["result"] is None for c in inc["combats"]):
        w.st["step"] = "resolve"
        return
    w.emit("increment_closed", side=inc["attacker"], number=inc["number"])
    w.st["increment"] = None
    w.st["step"] = "phase"


def _combat(st: dict[str, Any], number: int) -> dict[str, Any]:
    for c in st["increment"]["combats"]:
        if c["id"] == number:
            if c["result"] is not None:
                raise IllegalAction("combat_resolved", f"combat {number} is already resolved")
            found: dict[str, Any] = c
            return found
    raise IllegalAction("unknown_combat", f"no declared combat {number} in this increment")


def _air_power(w: _Step, a: dict[str, Any]) -> None:
    inc = w.st["increment"]
    if inc["attacker"] != "ALLIED":
        raise IllegalAction(
            "air_power_is_allied", "the Allied player tries air power in his attack increments"
        )
    if inc["air_power"] is not None:
        raise IllegalAction("air_power_tried", "one air power attempt per Combat Increment")
    combat = _combat(w.st, a["combat"])
    inc["air_power"] = {
        "combat": combat["id"],
        "morale_adjustment": a["morale_adjustment"],
        "die": None,
        "available": None,
    }
    w.st["chance"] = {"for": "air_power", "combat": combat["id"]}
    w.st["step"] = "chance"
    w.emit(
        "air_power_attempted",
        side="ALLIED",
        combat=combat["id"],
        availability=w.st["entries"]["ALLIED"]["air_availability"],
        morale_adjustment=a["morale_adjustment"],
    )


def _resolve_combat(w: _Step, a: dict[str, Any]) -> None:
    combat = _combat(w.st, a["combat"])
    w.st["chance"] = {"for": "combat", "combat": combat["id"]}
    w.st["step"] = "chance"
    w.emit("combat_resolving", side=combat["side"], combat=combat["id"])


def air_power_available(die: int, availability: int) -> bool:
    """Air Power: the roll on the Air Power Availability Track succeeds when the die is
    at most the availability the players entered for the turn (0: never, 6: always)."""
    return die <= availability


def _roll(w: _Step, a: dict[str, Any]) -> None:
    st = w.st
    die = a["dice"][0] if a.get("dice") else sample_die(st)
    st["rng"][1] += 1
    pending, st["chance"] = st["chance"], None
    inc = st["increment"]
    combat = next(c for c in inc["combats"] if c["id"] == pending["combat"])
    if pending["for"] == "air_power":
        air = inc["air_power"]
        ok = air_power_available(die, st["entries"]["ALLIED"]["air_availability"])
        air.update(die=die, available=ok)
        if ok:
            combat["air_power"] = air["morale_adjustment"]
            combat["assessment"] = assessed(st, combat["declaration"], combat["air_power"])
        w.emit(
            "air_power_rolled",
            side="ALLIED",
            combat=combat["id"],
            die=die,
            availability=st["entries"]["ALLIED"]["air_availability"],
            available=ok,
            assessment=combat["assessment"] if ok else None,
        )
        st["step"] = "resolve"
        return
    if st["options"]["alternative_crdt"]:
        combat["result"] = {"die": die, "ratio_result": None}
        st["step"] = "ratio_result"
        w.emit(
            "combat_die_rolled",
            side=combat["side"],
            combat=combat["id"],
            die=die,
            odds=combat["assessment"]["final_odds"],
        )
        st["pending_ratio"] = combat["id"]
        return
    outcome = resolve(combat["assessment"], die, combat["declaration"]["mobile"])
    combat["result"] = outcome
    w.emit(
        "combat_resolved",
        side=combat["side"],
        combat=combat["id"],
        **outcome,
        odds=combat["assessment"]["final_odds"],
        meaning=st["options"]["result_meanings"].get(outcome["result"]),
    )
    _next_in_increment(w)


def _ratio_result(w: _Step, a: dict[str, Any]) -> None:
    st = w.st
    number, st["pending_ratio"] = st["pending_ratio"], None
    combat = next(c for c in st["increment"]["combats"] if c["id"] == number)
    ref = alternative_crdt_reference(a["ratio_result"])
    combat["result"].update(ref)
    w.emit(
        "ratio_result_entered",
        side=combat["side"],
        combat=number,
        **ref,
        die=combat["result"]["die"],
    )
    _next_in_increment(w)


def _offer_answer(w: _Step, a: dict[str, Any]) -> None:
    st, side = w.st, a["seat"]
    offer = st["offer"]
    if a["type"] == "engage_reaction":
        if not may_engage_reaction_segment(st["entries"][side]["reaction_points"]):
            raise IllegalAction("no_reaction_points", f"{side} has no reaction point")
        st["offer"] = None
        st["segment"] = {"side": side, "spent": 0, "phases": [], "after": offer["initiative_side"]}
        st["step"] = "segment"
        w.emit("reaction_segment_started", side=side, points=st["entries"][side]["reaction_points"])
        return
    w.emit("reaction_declined", side=side)
    if side != offer["initiative_side"]:
        offer["to"] = offer["initiative_side"]  # example 2: "because the German
        w.emit("reaction_offered", side=offer["to"])  # player declined"
        return
    st["offer"] = None
    _give_floor(w, other(offer["initiative_side"]))


def _start_reaction_phase(
    w: _Step, seg: dict[str, Any], kind: str, cost: int, **fields: Any
) -> None:
    side = seg["side"]
    w.st["entries"][side]["reaction_points"] -= cost
    seg["spent"] += cost
    seg["phases"].append({"kind": kind, **fields})
    w.st["phase"] = {"kind": kind, "side": side, "increments": 0, **fields}
    w.st["step"] = "phase"
    w.emit(
        "phase_started",
        side=side,
        kind=kind,
        cost=cost,
        points_left=w.st["entries"][side]["reaction_points"],
        **fields,
    )


def _army_reaction(w: _Step, a: dict[str, Any]) -> None:
    seg = w.st["segment"]
    cost = check_army_reaction(w.st["entries"][seg["side"]]["reaction_points"], seg["phases"])
    _activate_hq(w, seg["side"], a["hq"], "army_reaction")
    _start_reaction_phase(w, seg, "army", cost, hq=a["hq"])


def _single_piece(w: _Step, a: dict[str, Any]) -> None:
    seg = w.st["segment"]
    side = seg["side"]
    cost = check_single_piece_reaction(
        w.st["entries"][side]["reaction_points"],
        seg["phases"],
        a["unit"],
        a["hq"],
        a["out_of_supply"],
    )
    if a["hq"]:
        _activate_hq(w, side, a["unit"], "single_piece_reaction")
    _start_reaction_phase(
        w, seg, "single_piece", cost, unit=a["unit"], hq=a["hq"], out_of_supply=a["out_of_supply"]
    )
    if out_of_supply_step_loss(a["hq"], a["out_of_supply"]):
        w.emit("out_of_supply_step_loss", side=side, unit=a["unit"])


def _end_segment(w: _Step, a: dict[str, Any]) -> None:
    st = w.st
    seg, st["segment"] = st["segment"], None
    side = seg["side"]
    lost = all_or_nothing_shortfall(seg["spent"], st["entries"][side]["reaction_points"])
    st["entries"][side]["reaction_points"] -= lost
    w.emit(
        "reaction_segment_ended",
        side=side,
        spent=seg["spent"],
        lost=lost,
        points_left=st["entries"][side]["reaction_points"],
    )
    _give_floor(w, other(seg["after"]))


HANDLERS = {
    "turn_entries": ("turn_setup", _entries),
    "begin_initiative_phase": ("floor", _begin_initiative),
    "pass": ("floor", _pass),
    "open_increment": ("phase", _open_increment),
    "end_phase": ("phase", _end_phase),
    "declare_combat": ("declare", _declare),
    "end_declarations": ("declare", _end_declarations),
    "air_power": ("resolve", _air_power),
    "resolve_combat": ("resolve", _resolve_combat),
    "roll": ("chance", _roll),
    "enter_ratio_result": ("ratio_result", _ratio_result),
    "engage_reaction": ("reaction_offer", _offer_answer),
    "decline_reaction": ("reaction_offer", _offer_answer),
    "army_reaction": ("segment", _army_reaction),
    "single_piece_reaction": ("segment", _single_piece),
    "end_segment": ("segment", _end_segment),
}


def apply(
    st: dict[str, Any], action: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``action`` in canonical form.  Returns (new state, events); ``st`` untouched."""
    if st["step"] == "over":
        raise IllegalAction("game_over", "the session is over")
    step, handler = HANDLERS[action["type"]]
    if step != st["step"]:
        raise IllegalAction(
            "wrong_phase", f"{action['type']} is not possible now (step {st['step']})"
        )
    if action["seat"] not in to_act(st):
        raise IllegalAction("not_your_turn", f"{action['seat']} may not act now")
    w = _Step(st)
    handler(w, action)
    return w.st, w.events
