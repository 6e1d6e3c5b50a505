""" "Achtung! Zombie!" (004 Appendix 3, Suggested Variants; option ``variant: ZOMBIE``,
the Dead side = option ``variant_side``, default AXIS).

Engine reading of the text (quoted in tests/engine/test_variants.py):

* Conversion: "For each Infantry-based Unit = 1 Zombie Unit · For each Artillery Unit = 2
  · For each Armour Unit = 3", the first on the unit's hex, the extra ones on the nearest
  empty hexes "to one side or behind" (never a row nearer the Living side; board order
  breaks ties); with no such hex within 3 the extra unit is not placed.
* "Zombie Units start with 3 zombie figures each": class infantry, move 1 and battle,
  range 1 only (they bite), as many dice as figures (terrain protection still applies);
  "ignore all terrain limitations on Movement"; "may not Take Ground".
* "The Dead Player is given no Command Cards. Zombies DO NOT require orders.": the Dead
  side's hand size is 0 and each of its turns orders every zombie (a card-less play);
  no card is drawn.
* "Grenade Hits are treated as a Purple Flag. A Zombie Unit Retreats a maximum of one
  hex": grenades on a zombie are flags, at most 1 flag counts.  "A Zombie Unit that is
  forced to Retreat into another simply dislodges that Unit back one hex": a retreat
  may end on a hex of another zombie that has a free hex one step back (board order);
  that zombie steps back first (event ``unit_moved`` reason ``dislodged``; no chain).
  A zombie with no hex to retreat to loses a figure as usual.
* "All eliminated Living figures ... are exchanged for Zombies on a one-for-one basis
  ... placed with the Zombie Unit that eliminated the Living figure": every figure a
  zombie's battle removes joins that zombie unit (event ``zombie_created``).  "If a
  Zombie Unit reaches 6 figures in size it immediately divides into two equally-sized
  Zombie Units": the new one goes to the first empty adjacent hex (board order, not
  nearer the Living side first); with none, an adjacent zombie steps back one hex to
  make room ("Zombie Units may be displaced backwards", event ``unit_moved`` reason
  ``displaced``); with no such room either, the unit stays whole.
* Terrain objectives: a marker on every Towns & Villages / Bunkers hex
  (``view.variant.markers``); a zombie that stood on it a whole Dead turn without moving
  removes it permanently (event ``marker_claimed``).
* Object of the game: the Dead win when no Living unit is left on the board, unless the
  figures the Living saved (exited by their own baseline row, which is an exit for
  them, plus unclaimed markers) exceed the Living figures lost: a draw.  The Living win
  when no zombie is left.  Medals and scenario victory counts are ignored.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from .....core.geometry import Hex
from .....core.scenario_model import ExitZone
from .....procedures import battle as B
from .....procedures.battle_outcome import dislodge_unit
from .....procedures.common import is_top, mode
from .....core.units import UnitSpec
from .....procedures.hooks import Victory
from .....procedures.state import Battle, GameState, Play, Unit
from ... import tactics as T
from .common import (
    add_unit,
    alien,
    baseline,
    data,
    human,
    on,
    put,
    remove_unit,
    respec,
    first_turn_once,
    section_hexes,
    spec_like,
    towns,
)

NAME = "ZOMBIE"
SPLIT_AT = 6
COPIES = {"inf": 1, "art": 2, "armor": 3}


def zombie_spec(base: UnitSpec) -> UnitSpec:
    return spec_like(
        base,
        "zombie",
        "Zombie",
        "inf",
        figures=3,
        move=1,
        move_fire=1,
        dice=(3,),
        take_ground=0,
        move_class="zombie",
        can_heal=False,
    )


def is_zombie(u: Unit | None) -> TypeGuard[Unit]:
    return u is not None and u.spec.kind == "zombie"


def _spot(st: GameState, origin: Hex, dead: str, taken: set[Hex]) -> Hex | None:
    board = st.scn.board
    top = is_top(st, dead)
    for dist in (1, 2, 3):
        for h in board.hexes:
            if (
                board.distance(origin, h) == dist
                and h not in st.occ
                and h not in taken
                and board.rows_toward_enemy(origin, h, top) <= 0
                and not st.scn.terrain_at(h).ocean
            ):
                return h
    return None


def setup(st: GameState) -> None:
    if not on(st, NAME):
        return
    dead = alien(st)
    extra = []
    for u in sorted(st.units.values(), key=lambda x: int(x.id[1:])):
        if u.side != dead:
            continue
        if u.spec.train:
            remove_unit(st, u)
            continue
        spec = zombie_spec(u.spec)
        extra += [(u.hex, spec)] * (COPIES.get(u.cls, 1) - 1)
        respec(u, spec)
    taken: set[Hex] = set()
    for origin, spec in extra:
        h = _spot(st, origin, dead, taken)
        if h is not None:
            taken.add(h)
            add_unit(st, dead, spec, h, 3)
    living = human(st)
    put(
        st,
        markers=tuple(towns(st, bunkers=True)),
        claimed=(),
        lost=0,
        living_start=sum(u.figures for u in st.units.values() if u.side == living),
        start_hex=(),
    )


def turn_begins(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    """The Dead side's turn: every zombie ordered without a card; movement begins.  At
    the first turn the cards dealt to the Dead go back into the deck."""
    if not on(st, NAME):
        return
    if first_turn_once(st, NAME):
        dead = alien(st)
        st.deck.extend(st.hands[dead])
        st.hands[dead] = []
        st.rng.shuffle(st.deck)
    if side != alien(st):
        return
    play = Play(None, "none", mode(st).play_seat(st, side, None), side)
    play.flags.update({"ignore_terrain": True, "no_draw": True, "advance": NAME})
    st.plays.append(play)
    for u in list(st.units.values()):
        if u.side == side and is_zombie(u):
            T.order(st, play, u, events)
    marks = set(data(st)["markers"])
    put(
        st,
        start_hex=tuple(
            sorted((u.id, u.hex) for u in st.units.values() if is_zombie(u) and u.hex in marks)
        ),
    )
    st.phase = "move"


def turn_ending(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    """Markers on hexes a zombie occupied the whole Dead turn are removed for good."""
    if not on(st, NAME) or side != alien(st):
        return
    d = data(st)
    marks = list(d["markers"])
    claimed = list(d["claimed"])
    for uid, h in d["start_hex"]:
        u = st.units.get(uid)
        if u is not None and u.hex == h and not u.moved and h in marks:
            marks.remove(h)
            claimed.append(h)
            events.append({"type": "marker_claimed", "hex": [*h], "unit": uid, "side": side})
    put(st, markers=tuple(marks), claimed=tuple(claimed), start_hex=())


def _town_duty(st: GameState, u: Unit) -> set[Hex]:
    """The empty marker hexes next to zombie ``u`` that has not moved yet: "One Zombie
    Unit must enter a Towns & Villages or Bunkers hex if it begins its Move next to one"
    (a zombie that starts next to an empty marker hex must move into one; once one has
    entered, the hex is no longer empty and the others are free)."""
    if u.moved or not is_zombie(u):
        return set()
    marks = set(data(st)["markers"])
    return {h for h in st.scn.board.neighbours(u.hex) if h in marks and h not in st.occ}


def destinations(st: GameState, u: Unit, play: Play | None, res: dict[Hex, int]) -> dict[Hex, int]:
    """A zombie with a town duty may only move into one of those marker hexes."""
    if not on(st, NAME) or play is None or play.flags.get("advance") != NAME:
        return res
    duty = _town_duty(st, u)
    return {h: k for h, k in res.items() if h in duty} if duty else res


def obligations(st: GameState, play: Play, phase: str) -> list[str]:
    """Zombies with a town duty must move; "Zombie Units must Battle when in Close
    Assault with the Living" (an ordered zombie next to a Living unit it may battle)."""
    if not on(st, NAME) or play.flags.get("advance") != NAME:
        return []
    out = []
    for uid in play.ordered:
        u = st.units.get(uid)
        if u is None:
            continue
        if phase == "move" and _town_duty(st, u):
            out.append(uid)
        elif (
            phase == "battle"
            and B.can_battle(st, u, play)
            and any(n == 1 for _h, n in _ranges(st, u, play))
        ):
            out.append(uid)
    return out


def _ranges(st: GameState, u: Unit, play: Play) -> list[tuple[Hex, int]]:
    """(target hex, distance) of the zombie's legal targets."""
    board = st.scn.board
    return [(h, board.distance(u.hex, h)) for h, _dice in B.targets(st, u, play)]


def exit_zones(st: GameState, side: str, zones: list[ExitZone]) -> list[ExitZone]:
    """The Living may leave the board by their own baseline row (to save figures)."""
    if not on(st, NAME) or side != human(st):
        return zones
    return zones + [ExitZone(side, tuple(section_hexes(st, baseline(st, side), None)), 1)]


def hits_flags(
    st: GameState, b: Battle, v: Unit, faces: list[str], hf: tuple[int, int]
) -> tuple[int, int]:
    if not on(st, NAME) or not is_zombie(v):
        return hf
    hits, flags = hf
    grenades = faces.count("grenade") if not b.ignore_grenades else 0
    return max(0, hits - grenades), min(1, flags + grenades)


def dice_minus(st: GameState, u: Unit) -> int:
    """A zombie rolls as many dice as it has figures (profile: 3 dice)."""
    return 3 - u.figures if on(st, NAME) and is_zombie(u) else 0


def figures_lost(
    st: GameState, v: Unit, lost: int, by_side: str, events: list[dict[str, Any]]
) -> None:
    if not on(st, NAME) or v.side == alien(st) or not lost:
        return
    put(st, lost=data(st)["lost"] + lost)
    z = st.units.get(st.battles[-1].attacker) if st.battles and st.battles[-1].attacker else None
    if not is_zombie(z):
        return
    z = st.mut(z.id)
    z.figures += lost
    z.max_figures = max(z.max_figures, z.figures)
    events.append(
        {
            "type": "zombie_created",
            "unit": z.id,
            "hex": [*z.hex],
            "count": lost,
            "figures": z.figures,
        }
    )
    if z.figures >= SPLIT_AT:
        _split(st, z, events)


def _split(st: GameState, z: Unit, events: list[dict[str, Any]]) -> None:
    board = st.scn.board
    top = is_top(st, z.side)
    free = [
        h for h in board.neighbours(z.hex) if h not in st.occ and not st.scn.terrain_at(h).ocean
    ]
    if not free:
        made = _make_room(st, z, events)
        if made is None:
            return
        free = [made]
    free.sort(key=lambda h: (board.rows_toward_enemy(z.hex, h, top) > 0, h))
    half = z.figures // 2
    z.figures -= half
    z.max_figures = z.figures
    add_unit(st, z.side, z.spec, free[0], half, events, "zombie_split")


def _make_room(st: GameState, z: Unit, events: list[dict[str, Any]]) -> Any:
    """ "Zombie Units may be displaced backwards to make room for the new Unit": the first
    adjacent zombie (board order) with a free hex behind it steps back; its hex is freed."""
    for h in st.scn.board.neighbours(z.hex):
        back = dislodge(st, z, h)
        if back is not None:
            dislodge_unit(st, st.units[st.occ[h]], back, events, "displaced")
            return h
    return None


def dislodge(st: GameState, z: Unit, h: Hex) -> Hex | None:
    """ "A Zombie Unit that is forced to Retreat into another simply dislodges that Unit
    back one hex": the first free hex (board order, not the ocean) one step back from
    ``h`` for the zombie of ``z``'s side on ``h``, or None (extension point
    ``dislodge``; no chain of dislodgings)."""
    other = st.units.get(st.occ.get(h, ""))
    if not on(st, NAME) or not is_zombie(z) or not is_zombie(other) or other.side != z.side:
        return None
    for back in st.scn.board.retreat_hexes(h, is_top(st, z.side)):
        if back not in st.occ and not st.scn.terrain_at(back).ocean:
            return back
    return None


def victory(st: GameState) -> Victory:
    if not on(st, NAME):
        return None
    dead, living = alien(st), human(st)
    present = {u.side for u in st.units.values()}
    if dead not in present:
        return living, "annihilation"
    if living in present:
        return False
    d = data(st)
    saved = d["living_start"] - d["lost"] + len(d["markers"])
    return (None, "draw") if saved > d["lost"] else (dead, "annihilation")


def view(st: GameState) -> dict[str, Any]:
    d = data(st)
    return {
        "name": NAME,
        "side": alien(st),
        "markers": [[*h] for h in d["markers"]],
        "claimed": [[*h] for h in d["claimed"]],
        "living_lost": d["lost"],
    }


#: the extension points this variant fills (engine/procedures/hooks.py)
HOOKS = {
    "game_setup": setup,
    "turn_begins": turn_begins,
    "turn_ending": turn_ending,
    "hits_flags": hits_flags,
    "dice_minus": dice_minus,
    "figures_lost": figures_lost,
    "exit_zones": exit_zones,
    "filter_destinations": destinations,
    "obligations": obligations,
    "dislodge": dislodge,
}
