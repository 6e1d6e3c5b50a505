"""Trains: a locomotive and its wagons as ONE unit; the supply train option.

Sources: vocabulary 2.2 (Locomotive 4 figures, Wagon 3, move 3 "along rails,
backwards", no dice, ignore 1 flag, cannot heal, hit only by grenades, "loco+wagon are
ordered, moved and damaged together", Wagon worth 0 medals), 4 ("Trains retreat along the
rail, backwards"), 1.x ``station`` ("as Village" = must stop; "a train entering it
triggers reinforcement"), 3.3 ``supply_train_rules`` and 2.5
``CANNOT_BE_ACTIVATED_TILL_TURN``.  Where the vocabulary is silent we follow the published
Memoir '44 Terrain Pack "Trains" / "Supply Train" rules (as summarised: "Locomotive and
wagon act as one unit; move 1-3 hexes if the line is clear; ignore one flag and retreat in
the opposite direction the train is facing; hit by grenades; fired at as one unit, wagon
takes 3 hits, locomotive takes 4"; supply train: the carried units get off when the train
reaches a station) and, for the option object's shape, the BGA implementation
(bga-devs/bga-memoir, scenario 1311 "Bug River").  004 Appendix 2 "Trains, Railway
Engines and Wagons" agrees on the damage ("one Hit ... for each Red Grenade ... on the
third Hit ... remove the Wagon.  On the fourth Hit, the Railway Engine is removed"), the
retreat ("ignore the first Purple Flag ... Moves backwards ... one hex along the Tracks
for each Purple Flag"; a hex it cannot retreat costs a hit) and the move (forwards or
backwards up to 3 hexes); its house additions (passing through friendly units, Armoured
Train) are not applied.

Our readings, all in this module:

* **Composition** (:func:`pieces`): at game start each locomotive takes the chain of
  wagons of its side on rail-linked adjacent hexes (``scn.rail_links``), front (the
  locomotive) to back.  A locomotive without wagons, and a wagon coupled to no locomotive,
  are one-hex trains (moving along the rail either way, as before).
* **Orders**: the train is one unit; it is ordered through its locomotive (ordering a
  wagon orders the train; only the locomotive's id goes to ``Play.ordered``; every piece
  is marked ordered); a card's section is met when any piece stands in it.
* **Movement** (:func:`paths`): forward = the locomotive leads, backward = the last wagon
  leads; the leading piece follows connected rail up to 3 hexes through empty hexes and
  stops on entering a station; the other pieces follow its path (each piece moves as many
  hexes as the leader).  The ``move`` action names the leading piece and its destination.
* **Damage** (:func:`hit_order`): a battle against any piece damages the train; hits are
  taken by the last wagon first (3 figures), then the next, the locomotive last (4).  An
  eliminated wagon gives 0 medals, the locomotive its 1 medal.
* **Retreat**: a coupled train retreats backwards along the rail (the last wagon leads,
  one hex per flag, through empty hexes); every step it cannot make costs a figure
  (taken as above).  A one-hex train keeps the general rule (a rail step towards its own
  baseline).  Retreat options name the hex the last wagon ends on.
* **Supply train** (option ``supply_train_rules`` ``{side, nbr_units, unit}``): the first
  time in the game a train of ``side`` moves (not retreats) with a piece entering a
  station, each surviving piece i (locomotive 0, wagons 1...) unloads ``nbr_units[i]``
  units (default 1) of template ``unit`` (a code or a ``.m44`` unit dict, default the
  train nation's infantry); the owner places each on an empty hex adjacent to the train
  (pending ``reinforce``); a unit with no such hex left is lost.  A unit with
  ``CANNOT_BE_ACTIVATED_TILL_TURN`` + ``turn`` t cannot be ordered while the game turn is
  <= arrival turn + t (BGA).  Standard and team modes only (not Overlord).
"""

from __future__ import annotations

from typing import Any, Literal

from ..core.geometry import Hex
from ..core.errors import IllegalAction
from ..core.scenario_pieces import inactive_turn
from ..core.scenario_model import Scenario
from .state import GameState, Unit
from ..core.units import army_rules, unit_spec
from .common import (
    TEMPLATE_KEYS,
    army_options,
    fresh_unit_id,
    mode,
    parse_hex,
    pop_ext,
    set_ext,
    template_spec,
    terrain_at,
    unit_sections,
)
from .terrain_changes import unit_left_hex

_COMP: dict[int, tuple[Scenario, dict[str, tuple[str, ...]]]] = {}


def compositions(scn: Scenario) -> dict[str, tuple[str, ...]]:
    """Unit id -> the ids of its coupled train, front to back (only trains of 2+ pieces).

    Unit ids are those of :func:`engine.rulesets.m44.game.new_game` (``u<index>``)."""
    hit = _COMP.get(id(scn))
    if hit is not None and hit[0] is scn:
        return hit[1]
    units = scn.units
    at = {us.hex: i for i, us in enumerate(units)}
    links = scn.rail_links
    claimed: set[int] = set()
    out: dict[str, tuple[str, ...]] = {}
    for i, us in enumerate(units):
        if us.spec.kind != "locomotive":
            continue
        chain, h = [i], us.hex
        claimed.add(i)
        while True:
            nxt = [
                j
                for n in sorted(links.get(h, ()))
                if (j := at.get(n)) is not None
                and j not in claimed
                and units[j].spec.kind == "wagon"
                and units[j].side == us.side
            ]
            if not nxt:
                break
            chain.append(nxt[0])
            claimed.add(nxt[0])
            h = units[nxt[0]].hex
        if len(chain) > 1:
            ids = tuple(f"u{k}" for k in chain)
            for x in ids:
                out[x] = ids
    _COMP[id(scn)] = (scn, out)
    return out


def pieces(st: GameState, u: Unit) -> list[Unit]:
    """The train of ``u`` still on the board, front (locomotive) to back; ``[u]`` for any
    other unit.  Damage is taken from the back, so the survivors stay a coupled chain."""
    if not u.spec.train:
        return [u]
    ids = compositions(st.scn).get(u.id)
    if ids is None:
        return [u]
    units = st.units
    return [units[x] for x in ids if x in units] or [u]


def coupled(st: GameState, u: Unit) -> bool:
    """Is ``u`` a piece of a train of two or more pieces?"""
    return u.spec.train and len(pieces(st, u)) > 1


def head(st: GameState, u: Unit) -> Unit:
    """The piece through which the train is ordered (its locomotive)."""
    return pieces(st, u)[0] if u.spec.train else u


def follower(st: GameState, u: Unit) -> bool:
    """A coupled piece other than the locomotive (never ordered on its own)."""
    return u.spec.train and head(st, u).id != u.id


def leaders(st: GameState, u: Unit) -> list[Unit]:
    """The pieces that may lead a move of ``u``'s train: locomotive (forward) and last
    wagon (backward); a one-hex train leads itself."""
    ps = pieces(st, u)
    return [ps[0], ps[-1]] if len(ps) > 1 else ps


def sections(st: GameState, u: Unit) -> frozenset[int]:
    """Sections of every piece (a card reaching any piece may order the train)."""
    out: frozenset[int] = frozenset()
    for p in pieces(st, u):
        out |= unit_sections(st, p)
    return out


# ----------------------------------------------------------------------------- movement
def paths(st: GameState, leader: Unit, allowance: int) -> dict[Hex, tuple[Hex, ...]]:
    """Destination of the leading piece -> its path (hexes entered, fewest first found).

    Steps follow connected rail (``scn.rail_links``) into empty hexes (the train's own
    other pieces block the way back, so a coupled train's leader moves away from them);
    a station ends the move (vocabulary 1.x: as Village, must stop).  A middle wagon
    cannot lead."""
    ps = pieces(st, leader)
    if len(ps) > 1 and leader.id not in (ps[0].id, ps[-1].id):
        return {}
    links, occ = st.scn.rail_links, st.occ
    out: dict[Hex, tuple[Hex, ...]] = {}
    frontier: list[tuple[Hex, tuple[Hex, ...]]] = [(leader.hex, ())]
    for _ in range(allowance):
        nxt = []
        for h, path in frontier:
            if path and terrain_at(st, h).station:
                continue
            for n in sorted(links.get(h, ())):
                if n in occ or n in out:
                    continue
                out[n] = path + (n,)
                nxt.append((n, out[n]))
        frontier = nxt
    return out


def reach(st: GameState, leader: Unit, allowance: int) -> dict[Hex, int]:
    """Destination -> hexes moved (see :func:`paths`)."""
    return {h: len(p) for h, p in paths(st, leader, allowance).items()}


def _lead_order(st: GameState, leader: Unit) -> list[Unit]:
    ps = pieces(st, leader)
    return ps if leader.id == ps[0].id else ps[::-1]


def shift(
    st: GameState, leader: Unit, path: tuple[Hex, ...], events: list[dict[str, Any]], kind: str
) -> list[tuple[Unit, Hex]]:
    """Move the whole train ``len(path)`` hexes: the leader along ``path``, every other
    piece into the hex the piece ahead of it left (along the same track).  ``kind``:
    ``move`` (events ``unit_moved``) or ``retreat`` (``unit_retreated``).  Returns
    (piece after the move, hex it came from), leader first."""
    order = _lead_order(st, leader)
    track = [p.hex for p in reversed(order)] + list(path)
    k, n = len(path), len(order) - 1
    old = [p.hex for p in order]
    for h in old:
        st.occ.pop(h, None)
    moved = []
    for i, p in enumerate(order):
        p = st.mut(p.id)
        p.hex = track[n - i + k]
        st.occ[p.hex] = p.id
        moved.append((p, old[i]))
    for h in old:
        if h not in st.occ:
            unit_left_hex(st, h, events)
    for p, frm in moved:
        if kind == "move":
            events.append(
                {
                    "type": "unit_moved",
                    "unit": p.id,
                    "side": p.side,
                    "from": [*frm],
                    "to": [*p.hex],
                    "hexes": k,
                }
            )
        else:
            events.append(
                {
                    "type": "unit_retreated",
                    "unit": p.id,
                    "side": p.side,
                    "from": [*frm],
                    "to": [*p.hex],
                }
            )
    return moved


def move(
    st: GameState, leader: Unit, to: Hex, allowance: int, events: list[dict[str, Any]]
) -> Unit:
    """The ``move`` action for a train (the caller checked the order); returns the leader."""
    hd = head(st, leader)
    if hd.moved:
        raise IllegalAction("unit_already_moved", "a unit moves only once per turn")
    route = paths(st, leader, allowance).get(to)
    if route is None:
        raise IllegalAction("illegal_move", "the train cannot move there")
    moved = shift(st, leader, route, events, "move")
    for p, _ in moved:
        p.moved = len(route)
        p.entered = True
    if any(terrain_at(st, p.hex).station for p, frm in moved if p.hex != frm):
        supply_train_arrives(st, [p for p, _ in moved], events)
    return moved[0][0]


# ----------------------------------------------------------------------------- damage
def hit_order(st: GameState, v: Unit) -> list[Unit]:
    """Pieces in the order they take hits: last wagon first, the locomotive last."""
    return pieces(st, v)[::-1]


# ----------------------------------------------------------------------------- retreat
def retreat_leader(st: GameState, v: Unit) -> Unit:
    """The piece leading a retreat: the last wagon of a coupled train, else ``v``."""
    return pieces(st, v)[-1]


def _retreat_track(st: GameState, v: Unit, max_steps: int) -> list[Hex]:
    """Coupled train: the hexes its last wagon retreats through, backwards along the rail
    through empty hexes (vocabulary 4: "Trains retreat along the rail, backwards"); at a
    junction the first rail link in hex order is taken."""
    links, occ = st.scn.rail_links, st.occ
    out: list[Hex] = []
    h, prev = retreat_leader(st, v).hex, None
    for _ in range(max_steps):
        nxt = [
            n
            for n in sorted(links.get(h, ()))
            if n != prev and n not in occ and not _blocked(st, v, n)
        ]
        if not nxt:
            break
        prev, h = h, nxt[0]
        out.append(h)
    return out


def retreat_ends(st: GameState, v: Unit, max_steps: int) -> dict[Hex, int]:
    """Coupled train: hex the last wagon may end its retreat on -> steps."""
    return {h: k for k, h in enumerate(_retreat_track(st, v, max_steps), 1)}


def _blocked(st: GameState, v: Unit, n: Hex) -> bool:
    t = terrain_at(st, n)
    return v.cls in t.impassable or v.cls in t.retreat_impassable or t.ocean


def retreat(st: GameState, v: Unit, to: Hex, events: list[dict[str, Any]]) -> None:
    """Retreat the coupled train so that its last wagon ends on ``to``."""
    track = _retreat_track(st, v, 99)
    if to in track:
        shift(st, retreat_leader(st, v), tuple(track[: track.index(to) + 1]), events, "retreat")


# ----------------------------------------------------------------------------- supply train
def _supply_option(st: GameState) -> dict[str, Any] | Literal[True] | None:
    v = st.scn.options.get("supply_train_rules")
    return v if isinstance(v, dict) or v is True else None


def supply_train_arrives(st: GameState, train: list[Unit], events: list[dict[str, Any]]) -> None:
    """A train piece entered a station by a move: unload the supply train (once a game)."""
    opt = _supply_option(st)
    x = st.ext or {}
    if opt is None or x.get("supply_train_done") or mode(st).machine is not None:
        return
    opt = opt if isinstance(opt, dict) else {}
    side = str(opt.get("side") or "").upper()
    if side in ("AXIS", "ALLIES") and side != train[0].side:
        return
    nbr = opt.get("nbr_units", 1)
    counts = nbr if isinstance(nbr, list) else [nbr] * len(train)
    loads = [_int(counts[i]) if i < len(counts) else 1 for i in range(len(train))]
    tpl = opt.get("unit") or {"name": "inf" + head(st, train[0]).spec.nation}
    if isinstance(tpl, str):
        tpl = {"name": tpl}
    tpl = {k: tpl.get(k) for k in TEMPLATE_KEYS}
    try:
        template_spec(st, tpl)
    except (KeyError, ValueError):
        return
    set_ext(st, "supply_train_done", True)
    set_ext(
        st,
        "supply_train",
        {
            "side": train[0].side,
            "left": sum(loads),
            "unit": tpl,
            "train": tuple(p.id for p in train),
            "resume": st.phase,
        },
    )
    events.append(
        {
            "type": "supply_train_arrived",
            "side": train[0].side,
            "units": sum(loads),
            "train": [p.id for p in train],
        }
    )
    st.phase = "reinforce"
    _skip_if_no_room(st, events)


def _int(v: Any) -> int:
    try:
        return max(0, int(v))
    except (TypeError, ValueError):
        return 1


def reinforce_hexes(st: GameState) -> list[Hex]:
    """Empty hexes adjacent to a surviving piece of the supply train, passable to the
    unit being unloaded."""
    s = st.ext["supply_train"]
    cls = unit_spec(str(s["unit"]["name"]), s["unit"].get("badge")).unit_class
    nb = st.scn.board._nbrs
    out = set()
    for uid in s["train"]:
        p = st.units.get(uid)
        if p is None:
            continue
        for n in nb.get(p.hex, ()):
            if (
                n not in st.occ
                and cls not in terrain_at(st, n).impassable
                and not terrain_at(st, n).ocean
            ):
                out.add(n)
    return sorted(out)


def _skip_if_no_room(st: GameState, events: list[dict[str, Any]]) -> None:
    s = st.ext["supply_train"]
    if s["left"] > 0 and reinforce_hexes(st):
        return
    if s["left"] > 0:
        events.append({"type": "reinforcement_lost", "side": s["side"], "count": s["left"]})
    st.phase = s["resume"]
    pop_ext(st, "supply_train")


def pending(st: GameState) -> dict[str, Any]:
    s = st.ext["supply_train"]
    return {
        "type": "reinforce",
        "seat": st.plays[-1].seat,
        "left": s["left"],
        "code": s["unit"]["name"],
    }


def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
    return [{"type": "reinforce", "seat": seat, "hex": [*h]} for h in reinforce_hexes(st)]


def apply_reinforce(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Place one unloaded unit on an empty hex adjacent to the train."""
    h = parse_hex(action, "hex")
    if h not in reinforce_hexes(st):
        raise IllegalAction("illegal_target", "place the unit on an empty hex next to the train")
    s = st.ext["supply_train"]
    tpl = s["unit"]
    spec = template_spec(st, tpl)
    spec = army_rules(spec, s["side"], army_options(st))
    uid = fresh_unit_id(st)
    u = Unit(
        uid, s["side"], spec, h, spec.figures, spec.figures, spec.badge, inactive_turn(tpl, st.turn)
    )
    st.units[uid] = u
    st.owned.add(uid)
    st.occ[h] = uid
    set_ext(st, "reinforced", st.ext.get("reinforced", 0) + 1)
    set_ext(st, "supply_train", {**s, "left": s["left"] - 1})
    events.append(
        {
            "type": "unit_reinforced",
            "unit": uid,
            "side": u.side,
            "hex": [*h],
            "code": spec.code,
            "inactive_until": u.inactive_until,
        }
    )
    _skip_if_no_room(st, events)
