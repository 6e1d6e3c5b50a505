"""What a seat may see: ``view_for(state, seat)`` and ``events_for(events, seat)``.

Hands appear only in the view of the seat holding them; deck order, the RNG and the
other side's hand never appear; spectators (seat None) see public information only.
Events carrying hidden information have ``secret`` + ``secret_to``; ``events_for``
strips ``secret`` for everybody not listed.

The options and scenario rules reach the views through the game's hook table
(engine/procedures/hooks.py, built by :mod:`.hook_table` from the game's options), never
by an import here: ``public_view`` adds their public members (mines, bridges, the
campaign's pre-battle, a variant's state), ``fogged`` says each side's view is redacted
as a whole, ``redact_view`` / ``redact_events`` redact (004 Kriegspiel).  One option
module stays imported, :mod:`.options.kriegspiel`, for ``events_for`` without a state:
events logged under Kriegspiel carry their own ``fog``, and with no state there is no
hook table to ask (the events' own marks are the only record of what each side saw).  The
unit counters of 004 supply and demoralisation are read from ``GameState.ext`` (public
state every unit record shows), as the state stores them.
"""

from __future__ import annotations

from typing import Any

from .cards import card_view
from ...procedures.common import SIDES, is_top, mode
from ...procedures.battle import live_marks
from .options import kriegspiel as _kriegspiel
from .tactics import describe_play
from ...procedures.trains import pieces
from ...procedures.state import GameState, Unit
from ...core.ruleset import STATUS_KEYS


# unit records already built, by unit object: ``id(unit) -> (unit, inputs from the
# state, record)``.  A ``Unit`` is never changed once a state that holds it is returned
# (copy-on-write: ``GameState.mut`` copies it first), so its record is built once, not
# once per view of every state that shares it: an action changes a few units and the
# others' records are the same objects (what the server's view patches compare first).
# Two generations of at most ``_RECORDS_MAX`` each (a record not asked for during a whole
# generation is dropped): ``_RECORDS[0]`` the young one.
_RECORDS: list[dict[int, tuple[Unit, tuple[Any, ...], dict[str, Any]]]] = [{}, {}]
_RECORDS_MAX = 1 << 16


def _unit_jsons(st: GameState) -> list[dict[str, Any]]:
    """Every unit as views show it (``_unit_json``), the option counters read once; the
    records of units unchanged since an earlier view are that view's (read-only)."""
    supply, demo = _counters(st)
    young, old = _RECORDS
    turn = st.turn
    counters = bool(supply or demo)
    out = []
    for u in st.units.values():
        inputs: Any = u.inactive_until >= turn
        if counters or u.spec.train:
            inputs = (
                inputs,
                supply.get(u.id, 0),
                demo.get(u.id, 0),
                pieces(st, u) if u.spec.train else None,
            )
        hit = young.get(id(u)) or old.get(id(u))
        if hit is None or hit[0] is not u or hit[1] != inputs:
            hit = (u, inputs, _unit_json(st, u, supply, demo))
        young[id(u)] = hit
        out.append(hit[2])
    if len(young) > _RECORDS_MAX:
        _RECORDS[:] = [{}, young]
    return out


def _counters(st: GameState) -> tuple[dict[str, int], dict[str, int]]:
    """Unit id -> turns out of supply, and -> demoralisation (004 supply lines and
    demoralisation: the ``(id, count)`` pairs of ``GameState.ext``)."""
    x = st.ext
    if not x:
        return {}, {}
    return dict(x.get("supply") or ()), dict(x.get("demoralised") or ())


def _unit_json(
    st: GameState,
    u: Unit,
    supply_of: dict[str, int] | None = None,
    demo_of: dict[str, int] | None = None,
) -> dict[str, Any]:
    """A unit as views show it."""
    s = u.spec
    train = None
    if s.train:  # the coupled train, front (locomotive) to back
        t = pieces(st, u)
        if len(t) > 1:
            train = tuple(p.id for p in t)
    inactive = u.inactive_until if u.inactive_until >= st.turn else None
    supply = demo = 0
    if st.ext:  # options supply_lines / demoralisation (public state)
        if supply_of is None or demo_of is None:
            supply_of, demo_of = _counters(st)
        supply = supply_of.get(u.id, 0)
        demo = demo_of.get(u.id, 0)
    out: dict[str, Any] = {
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
    }
    if train is not None:
        out["train"] = list(train)
    if inactive is not None:  # CANNOT_BE_ACTIVATED_TILL_TURN still in force
        out["inactive_until"] = inactive
    if supply:
        out["out_of_supply"] = supply  # consecutive turns out of supply
    if demo:
        out["demoralised"] = demo
    return out


def _pending_json(st: GameState, seat: str | None) -> dict[str, Any] | None:
    p = st.pending
    if p is None:
        return None
    out = dict(p)
    if p["type"] == "choose_card" and seat == p["seat"]:
        out["cards"] = [card_view(c) for c in st.recon_cards]
    return out


def _crosshairs(st: GameState) -> list[dict[str, Any]]:
    """Big Gun cross-hair markers still in force (public: they lie on the board).

    A marker lapses when its gun or its target has moved (004 "Big-Gun Batteries"); the
    state drops stale ones lazily, so the view filters them the same way.
    """
    return [
        {"gun": gun_id, "unit": target_id, "hex": [*target_hex]}
        for gun_id in st.crosshairs
        for target_id, target_hex, _ in live_marks(st, gun_id)
    ]


def view_for(st: GameState, seat: str | None) -> dict[str, Any]:
    return views_for(st, [seat])[0]


def views_for(st: GameState, seats: list[str | None]) -> list[dict[str, Any]]:
    """``[view_for(st, s) for s in seats]``, the seat-independent part (units, objectives,
    medals, the mode's public part, ...) computed once and shared by the views: a view is
    never mutated after it is returned (the server diffs and serialises them)."""
    common, overlays = _parts(st, seats)
    redact = st.hooks.redact_view
    return [redact(st, s, {**common, **over}) for s, over in zip(seats, overlays)]


def view_parts(
    st: GameState, seats: list[str | None]
) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """``(common, overlays)``: ``{**common, **overlays[i]}`` is ``view_for(st, seats[i])``;
    the server patches the shared ``common`` once per action and each seat's small overlay
    apart (engine/core/ruleset.py ``view_parts_of``).  None while the views are
    ``fogged`` (004 Kriegspiel: its redaction rewrites each side's whole view)."""
    if st.hooks.fogged(st) and not st.game_over:
        return None
    return _parts(st, seats)


def _parts(st: GameState, seats: list[str | None]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The common part and the seats' overlays (the common part and the mode's shared
    part computed once; the views may share sub-objects and are never mutated)."""
    m = mode(st)
    common = _public(st, m)
    mode_common = m.view_common(st)
    hand_seats = {side: m.hand_seat(st, side) for side in SIDES}
    return common, [_seat_overlay(st, s, m, common, mode_common, hand_seats) for s in seats]


def _public(st: GameState, m: Any) -> dict[str, Any]:
    """The part of every seat's view that does not depend on the seat."""
    sides: dict[str, Any] = {}
    for side in SIDES:
        d: dict[str, Any] = {
            "position": "top" if is_top(st, side) else "bottom",
            "medals": st.medals(side) if st.sudden != side else st.scn.victory.get(side, 0),
            "victory": st.scn.victory.get(side, 0),
            "hand_count": len(st.hands[side]),
        }
        chips = st.ext.get("commissar_chip") if m.machine is None and st.ext else None
        if chips and side in chips:  # standard Commissar: count public, card to the holder
            d["commissar"] = int(chips[side] is not None)
        sides[side] = d
    changed = [
        {
            "hex": [*h],
            "tiles": [
                {"code": t.spec.code, "name": t.spec.name, "family": t.spec.family} for t in tiles
            ],
        }
        for h, tiles in sorted(st.tiles_over.items())
    ]
    out = {
        "ruleset": "m44",
        "turn": st.turn,
        "active": st.active,
        "phase": st.phase,
        "to_act": _to_act(st, m),
        "pending": _pending_json(st, None),
        "sides": sides,
        "deck_count": len(st.deck),
        "discard_count": len(st.discard),
        "played": [describe_play(p) for p in st.plays],
        "units": _unit_jsons(st),
        "changed_hexes": changed,
        "crosshairs": _crosshairs(st),
        "objectives": [{"id": o.id, "holder": st.objectives.get(o.id)} for o in st.scn.objectives],
        "last_roll": st.last_roll,
        "game_over": st.game_over,
        "winner": st.winner,
        "options": sorted(st.options),
        **({"weather": st.options["weather"]} if st.options.get("weather") else {}),
    }
    if st.ext and st.ext.get("camouflage"):
        out["camouflage"] = [[*h] for h in st.ext["camouflage"]]  # tags tag14/tag15
    if st.ext and "visibility" in st.ext:
        out["visibility"] = st.ext["visibility"]  # night rules (1..6, 6 = full day)
    st.hooks.public_view(st, out)  # mines, bridges, campaign, variant (the game's options)
    return out


def _to_act(st: GameState, m: Any) -> list[str]:
    if m.machine is not None:
        acting: list[str] = m.machine.to_act(st)
        return acting
    return [] if st.pending is None else [st.pending["seat"]]


def public_status(st: GameState) -> dict[str, Any]:
    """``turn``, ``to_act``, ``game_over`` and ``winner`` as the spectator's view shows
    them (the lobby's columns, written with every action), without building the view,
    except while the views are ``fogged`` (004 Kriegspiel: the redaction hides which
    role seat acts)."""
    if st.hooks.fogged(st) and not st.game_over:
        v = view_for(st, None)
        return {k: v.get(k) for k in STATUS_KEYS}
    return {
        "turn": st.turn,
        "to_act": _to_act(st, mode(st)),
        "game_over": st.game_over,
        "winner": st.winner,
    }


def _seat_overlay(
    st: GameState,
    seat: str | None,
    m: Any,
    common: dict[str, Any],
    mode_common: Any,
    hand_seats: dict[str, str],
) -> dict[str, Any]:
    """What only ``seat`` sees, as the members that replace or extend the shared public
    part (its hand, a recon choice, the mode's per-seat part); before the Kriegspiel
    redaction."""
    out: dict[str, Any] = {}
    held = [side for side in SIDES if seat is not None and hand_seats[side] == seat]
    if held:
        sides = out["sides"] = dict(common["sides"])
        chips = st.ext.get("commissar_chip") if m.machine is None and st.ext else None
        for side in held:
            base = sides[side]
            d = sides[side] = {k: base[k] for k in ("position", "medals", "victory", "hand_count")}
            d["hand"] = [card_view(c) for c in st.hands[side]]
            d.update((k, v) for k, v in base.items() if k not in d)
            if chips and side in chips and chips[side] is not None:
                d["commissar_card"] = card_view(chips[side])
    p = st.pending
    if p is not None and p["type"] == "choose_card" and seat == p["seat"]:
        out["pending"] = _pending_json(st, seat)
    m.extend_view(st, seat, out, mode_common)  # only adds members (never reads the view)
    return out


def events_for(
    events: list[dict[str, Any]], seat: str | None, st: GameState | None = None
) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them; ``st``: the state after them (or later), None
    when no longer held (004 Kriegspiel events carry their own ``fog``)."""
    out = []
    # no state: the events carry their own ``fog`` (004 Kriegspiel), read by the option
    redact = _kriegspiel.redact_events if st is None else st.hooks.redact_events
    for e in redact(st, seat, events):
        if "secret" in e and (seat is None or seat not in e.get("secret_to", ())):
            e = {k: v for k, v in e.items() if k != "secret"}
        out.append(e)
    return out
