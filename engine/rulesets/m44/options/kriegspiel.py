"""004 Appendix 3 "Kriegspiel & The Fog Of War" (option ``kriegspiel``).

"Players can only "see" enemy Units on their Board when they come into Battle Range of
their own Units. Enemy Units are placed on the Board as soon as they are detected.
Detected enemy Units are removed from a players Board the moment they are no longer in
Battle Range of his Units."  The server is the Referee: :func:`detected` is the one rule
of what a side sees, and every channel through which a side learns anything uses it:

* the view (:func:`redact_view`, extension point ``redact_view``): undetected enemy units,
  the enemy's card plays, orders, pending decisions and the deck counts are removed;
* the events (:func:`annotate` at ``after_apply``, :func:`redact_events` at
  ``redact_events``): each event an action produced is annotated, while the state before
  and after the action is known, with what each side sees of it (``fog``: side ->
  reduced event or None); ``events_for`` then needs no state (the server's catch-up of
  delivered batches);
* targets (``hidden``): an undetected enemy unit is no target of battles, Air Power or
  Barrage, and a battle declared at it is refused exactly like one at an empty hex.

Seats: a player's seat sees its side's board (team play: the side's role seats share
it); ``None`` (a spectator) sees only what BOTH sides see.  ``watch:AXIS`` /
``watch:ALLIES`` is a spectator asking for one side's board: while the game is live it
sees what both sides see, like any spectator.  Our reading of "the server is the
Referee": a spectator is anyone, the players included (a second, anonymous connection of
the same person), so a live side's board shown to a spectator is shown to the enemy.
Only when the players chose it at creation (option ``kriegspiel_watch_delay`` = N) does
a ``watch:`` seat get that side's version of an event once N full turns have passed since
the end of its turn (the board itself stays what both sides see until the end).  Once the game is over every view and
event is shown in full (the finished game's replay).
"""

from __future__ import annotations

from typing import Any

from ....core.geometry import Hex
from ....core.scenario_model import Scenario
from ....procedures.battle import unit_dice
from ....procedures.common import SIDES, camouflaged, mode, other
from ....procedures.state import GameState, Unit

OPTION = "kriegspiel"
DELAY = "kriegspiel_watch_delay"  # turns after which a side's events reach its watchers
WATCH = "watch:"  # pseudo-seat of a spectator watching one side's board

#: Events every side sees as they are (the score, the turn, the night track); a unit
#: they name that the side has not detected is left out.
PUBLIC = frozenset(
    {
        "turn_started",
        "turn_ended",
        "game_over",
        "medal_gained",
        "medal_lost",
        "last_turn",
        "deck_reshuffled",
        "visibility_changed",
    }
)
#: Events of the enemy's command that no unit observes (cards, orders, sections).
COMMAND = frozenset(
    {
        "unit_ordered",
        "section_chosen",
        "target_chosen",
        "action_declared",
        "orders_dispatched",
        "initiative_declined",
        "initiative_rolled",
        "airdrop",
        "smoke_placed",
        "cross_hair_placed",
    }
)
#: What a side observes of a battle by an enemy unit it has not detected (dice thrown at
#: one of its units): the firer, its hex and the range are left out.
OBSERVED = ("type", "side", "target", "target_unit", "dice", "hits", "flags", "kind")
_MOVES = ("from", "path")  # where an event's unit was (before the action)
_ARRIVALS = ("to",)  # where it went (after the action)


def on(st: GameState) -> bool:
    return bool(st.options.get(OPTION))


def watch_seat(side: str) -> str:
    """The pseudo-seat of a spectator watching ``side``'s board."""
    return WATCH + side


def watched_side(seat: str | None) -> str | None:
    """The side a ``watch:`` pseudo-seat asks for (None for any other seat)."""
    if seat is None or not seat.startswith(WATCH):
        return None
    side = seat[len(WATCH) :]
    return side if side in SIDES else None


def viewer_side(st: GameState | None, seat: str | None) -> str | None:
    """The side whose board ``seat`` sees (None: what both sides see).  A spectator
    watching a side (``watch:``) sees what both sides see while the game is live."""
    if seat is None:
        return None
    if seat.startswith(WATCH):
        return watched_side(seat) if st is not None and st.game_over else None
    if st is not None:
        return mode(st).side_of(st, seat)
    side = seat.partition(":")[0]
    return side if side in SIDES else None


def detection_range(st: GameState, u: Unit) -> int:
    """A unit's battle range: the hexes it sees enemy units within."""
    return max(1, len(unit_dice(st, u)))


_MEMO: dict[tuple[Any, ...], tuple[Scenario, frozenset[str]]] = {}  # -> (it, detected)


def detected(st: GameState, side: str) -> frozenset[str]:
    """The enemy units on ``side``'s board: within the battle range of one of its units;
    a camouflaged one only within close-assault distance (1 hex) of one of its units
    ("Camouflaged Units are always left off the board until they have lost their
    concealment. If a Camouflaged Unit is within Close Assault distance of a Moving Unit,
    then the active player should be informed")."""
    camo = camouflaged(st)
    key = (
        side,
        frozenset(st.occ.items()),
        camo,
        len(st.tiles_over),
        frozenset(u.id for u in st.units.values() if u.moved and u.spec.stationary_dice),
    )
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is st.scn:
        return hit[1]
    dist = st.scn.board.distance
    eyes = [(u.hex, detection_range(st, u)) for u in st.units.values() if u.side == side]
    out = []
    for v in st.units.values():
        if v.side == side:
            continue
        if v.hex in camo:
            if any(dist(h, v.hex) <= 1 for h, _ in eyes):
                out.append(v.id)
        elif any(dist(h, v.hex) <= r for h, r in eyes):
            out.append(v.id)
    res = frozenset(out)
    if len(_MEMO) > 5000:
        _MEMO.clear()
    _MEMO[key] = (st.scn, res)
    return res


def shown(st: GameState, side: str | None) -> frozenset[str]:
    """The units on the board of ``side`` (its own and the detected enemy units); for a
    spectator without a side (None), the units BOTH sides see."""
    if side is not None:
        return frozenset(u.id for u in st.units.values() if u.side == side) | detected(st, side)
    return detected(st, SIDES[0]) | detected(st, SIDES[1])


def hidden(st: GameState, side: str, unit: Unit) -> bool:
    """Extension point ``hidden``: ``unit`` (an enemy of ``side``) is off its board."""
    return on(st) and unit.side != side and unit.id not in detected(st, side)


# ============================================================================ moves
def unseen(st: GameState, u: Unit) -> frozenset[Hex] | None:
    """Extension point ``unseen``: the hexes of the enemy units ``u``'s side has not
    detected; its move destinations are those of its board, where they are not (a
    missing destination would tell of a hidden unit)."""
    if not on(st):
        return None
    seen = detected(st, u.side)
    return (
        frozenset(v.hex for v in st.units.values() if v.side != u.side and v.id not in seen) or None
    )


def move_stop(st: GameState, u: Unit, path: list[tuple[Hex, int]]) -> int | None:
    """Extension point ``move_stop``: the referee stops a move whose path runs into a
    hidden unit (at the hex before its hex: no unit moves onto or through another) or
    next to a hidden camouflaged one ("If a Camouflaged Unit is within Close Assault
    distance of a Moving Unit, then the active player should be informed and his Unit is
    left in Close Assault": at the first hex next to it); the unit is then detected
    (``detection_changed``).  Our reading: the path is the first fewest-hexes path the
    search finds (the player names the destination only)."""
    hid = unseen(st, u) or frozenset()
    camo = hid.intersection(camouflaged(st))
    dist = st.scn.board.distance
    for i, (h, _) in enumerate(path):
        if h in hid:
            return i - 1
        if any(dist(h, c) <= 1 for c in camo):
            return i if i < len(path) - 1 else None
    return None


# ============================================================================ the view
def redact_view(st: GameState, seat: str | None, view: dict[str, Any]) -> dict[str, Any]:
    """``view_for`` of a seat (or spectator) under Kriegspiel: only its side's board."""
    if not on(st) or st.game_over:
        return view
    side = viewer_side(st, seat)
    seen = shown(st, side)
    view = dict(view)
    units = []
    for u in view["units"]:
        if u["id"] not in seen:
            continue
        if u["side"] != side:
            u = {**u, "ordered": None}  # an order is not observed
            if "train" in u:  # the coupled pieces it sees
                u["train"] = [p for p in u["train"] if p in seen]
        units.append(u)
    view["units"] = units
    hexes = {tuple(u["hex"]) for u in units}
    occupied = {u.hex for u in st.units.values()}
    if view.get("mines"):  # a minefield an undetected unit stands in
        view["mines"] = [
            {**m, "value": None}
            if tuple(m["hex"]) in occupied and tuple(m["hex"]) not in hexes
            else m
            for m in view["mines"]
        ]
    view["played"] = [p for p in view["played"] if p.get("side") == side]
    view["deck_count"] = view["discard_count"] = None  # draws would tell the cards played
    # the enemy's hand size changes when he plays and draws: it would time his card play
    view["sides"] = {
        s_: (
            {**v, "hand_count": None}
            if s_ != side and isinstance(v, dict) and "hand_count" in v
            else v
        )
        for s_, v in (view.get("sides") or {}).items()
    }
    if side != st.active:
        view["phase"] = None
    # team play: which role seat of the enemy acts would tell the card (its section)
    view["to_act"] = [_side_seat(st, side, x) for x in view.get("to_act") or []]
    p = view.get("pending")
    if p is not None and (side is None or viewer_side(st, p.get("seat")) != side):
        view["pending"] = {"type": "waiting", "seat": _side_seat(st, side, p.get("seat"))}
    view["last_roll"] = _last_roll(st, side, seen, view.get("last_roll"))
    if "camouflage" in view:
        view["camouflage"] = [h for h in view["camouflage"] if tuple(h) in hexes]
    view["crosshairs"] = [c for c in view["crosshairs"] if c["gun"] in seen and c["unit"] in seen]
    view["changed_hexes"] = [
        c
        for c in view["changed_hexes"]
        if tuple(c["hex"]) in hexes or tuple(c["hex"]) not in occupied
    ]
    view["fog"] = _fog_info(st, side)
    return view


def actor_for(st: GameState, actor: Any, seat: str | None) -> Any:
    """The seat that acted (an update's ``actor``, an event log entry's ``seat``) as
    ``seat`` may know it: in team play an enemy role seat is only its side (which general
    acts would tell the section of his card); a spectator sees the sides only."""
    if not on(st) or st.game_over:
        return actor
    return _side_seat(st, viewer_side(st, seat), actor)


def _side_seat(st: GameState, side: str | None, seat: Any) -> Any:
    """An enemy role seat as its side (a seat of the viewer's side unchanged)."""
    if not isinstance(seat, str):
        return seat
    owner = viewer_side(st, seat)
    return seat if owner is None or owner == side else owner


def _last_roll(
    st: GameState, side: str | None, seen: frozenset[str], roll: dict[str, Any] | None
) -> dict[str, Any] | None:
    if roll is None or side is None and roll.get("unit") not in seen:
        return None
    if roll.get("unit") in seen:
        return roll
    target = st.unit_at(tuple(roll["target"])) if roll.get("target") else None
    if target is not None and target.side == side:  # dice thrown at one of its units
        return {k: v for k, v in roll.items() if k != "unit"}
    return None


def _fog_info(st: GameState, side: str | None) -> dict[str, Any]:
    """The viewer's own detection: its side, the enemy units it detects, and each of its
    units' detection range (the client draws the range on demand)."""
    if side is None:
        return {"side": None, "detected": sorted(shown(st, None))}
    return {
        "side": side,
        "detected": sorted(detected(st, side)),
        "ranges": {u.id: detection_range(st, u) for u in st.units.values() if u.side == side},
    }


# ============================================================================ events
def annotate(before: GameState, after: GameState, events: list[dict[str, Any]]) -> None:
    """Extension point ``after_apply``: mark each event with what each side sees of it
    (``fog``: side -> reduced event, or None when the side sees nothing of it; a side
    absent sees it whole), then tell each side the enemy units that came onto or left
    its board (``detection_changed``, its camouflaged ones by hex: the notice)."""
    if not on(after):
        return
    det0 = {s: detected(before, s) for s in SIDES}
    det1 = {s: detected(after, s) for s in SIDES}
    owner = {u.id: u.side for u in before.units.values()}
    owner.update((u.id, u.side) for u in after.units.values())
    occ = (before.occ, after.occ)
    for i, e in enumerate(events):
        fog: dict[str, Any] = {}
        for s in SIDES:
            v = _fog_event(e, s, det0[s], det1[s], owner, occ)
            seat = (v or {}).get("seat")
            if (
                v is not None
                and isinstance(seat, str)
                and ":" in seat
                and not seat.startswith(s + ":")
            ):
                v = {**v, "seat": seat.partition(":")[0]}  # not which enemy general acts
            if v is not e:
                fog[s] = v
        if fog:
            events[i] = {**e, "fog": {**fog, "turn": before.turn}}
    camo = camouflaged(after)
    for s in SIDES:
        new = det1[s] - det0[s]
        lost = {u for u in det0[s] - det1[s] if u in after.units}
        if new or lost:
            events.append(
                {
                    "type": "detection_changed",
                    "side": s,
                    "detected": sorted(new),
                    "lost": sorted(lost),
                    "camouflaged": [
                        [*after.units[u].hex] for u in sorted(new) if after.units[u].hex in camo
                    ],
                    "fog": {other(s): None, "turn": before.turn},
                }
            )


def _fog_event(
    e: dict[str, Any],
    s: str,
    det0: frozenset[str],
    det1: frozenset[str],
    owner: dict[str, str],
    occ: tuple[dict[Hex, str], dict[Hex, str]],
) -> dict[str, Any] | None:
    """What side ``s`` sees of event ``e`` (``e`` itself when all of it)."""
    t = e["type"]
    subj = e.get("unit")

    def seen(uid: Any) -> bool:
        return owner.get(uid) == s or uid in det0 or uid in det1

    if t in PUBLIC:
        if subj is not None and not seen(subj):
            return {k: v for k, v in e.items() if k not in ("unit", "hex")}
        return e
    side = owner.get(subj) if isinstance(subj, str) else e.get("side")
    if side == s:
        return e
    if t in COMMAND or t.startswith(("card", "commissar", "dispatch", "offer", "exchange")):
        return None
    if isinstance(subj, str):
        if subj in det0 or subj in det1:
            hide = (_MOVES if subj not in det0 else ()) + (_ARRIVALS if subj not in det1 else ())
            hide = tuple(k for k in hide if e.get(k) is not None)
            return {**e, **{k: None for k in hide}} if hide else e
        target = e.get("target_unit")
        if isinstance(target, str) and owner.get(target) == s:  # dice at one of its units
            return {k: e[k] for k in OBSERVED if k in e}
        return None
    units = e.get("units")
    if isinstance(units, list):
        keep = [u for u in units if seen(u)]
        return None if not keep else e if len(keep) == len(units) else {**e, "units": keep}
    h = e.get("hex")
    if isinstance(h, list) and len(h) == 2 and side is None:
        hx = tuple(h)
        for o in occ:
            if hx in o and not seen(o[hx]):
                return None  # terrain changed under an undetected enemy unit
        return e
    return None if side is not None else e


def redact_events(
    st: GameState | None, seat: str | None, events: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Extension point ``redact_events``: each event as the seat's side sees it (the
    ``fog`` annotation); a spectator without a side gets only the events both sides see
    whole; after the game everything.  A spectator watching a side (``watch:``) of a game
    created with ``kriegspiel_watch_delay`` = N gets that side's version of an event once
    N full turns have passed since the end of the turn it happened in (``fog["turn"]``)."""
    if not any("fog" in e for e in events):
        return events
    over = st is not None and st.game_over
    side = viewer_side(st, seat)
    delayed = watched_side(seat) if st is not None else None
    delay = int(st.options.get(DELAY) or 0) if st is not None else 0
    out = []
    for e in events:
        fog = e.get("fog")
        if fog is None:
            out.append(e)
            continue
        if over:
            out.append({k: v for k, v in e.items() if k != "fog"})
            continue
        as_side = side
        if (
            as_side is None
            and delayed is not None
            and delay
            and st is not None
            and st.turn - int(fog.get("turn", st.turn)) > delay
        ):
            as_side = delayed
        if as_side is not None:
            v = fog.get(as_side, e)
            if v is not None:
                out.append({k: x for k, x in v.items() if k != "fog"})
    return out


#: the extension points this module fills (engine/procedures/hooks.py)
HOOKS = {
    "fogged": on,
    "hidden": hidden,
    "unseen": unseen,
    "move_stop": move_stop,
    "after_apply": annotate,
    "redact_view": redact_view,
    "redact_events": redact_events,
}
