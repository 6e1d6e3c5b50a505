"""Heuristic evaluation of a position for one side: how good it looks, in medal-like points.

Two boards, two evaluations:

* hex games (``GameState``: m44, overlord, fastplay): medals (the ruleset's ``result``
  score) weigh most; then strength (figures left, with a unit close to its last figure
  counting as a medal at risk); then **threats** computed from the battle-dice tables
  (:func:`engine.procedures.battle.battle_dice`, terrain included): the expected hits
  each unit can score on its best target in range and line of sight, for the side whose units may still
  fight this turn at full weight, for the other side as the danger of the coming turn;
  then closing in on the enemy, terrain objectives and exit zones.
* the Portable Wargame (``State``): units lost (the army breaks at a count), strength
  points, the Generals, the attacker's presence in the enemy half, and the seat's own
  foot and horse closing on the enemy, more so as the turn limit nears.

A won game is worth ``WIN``, a lost one ``-WIN``.  The functions read only what the
seat's view shows (units, hexes, figures, medals, objectives); never a hand or the RNG
(under 004 Kriegspiel the units it has not detected are already off the imagined board:
:func:`engine.ai.hidden.determinize`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from ..core.ruleset import Ruleset
from ..procedures import los
from ..procedures.battle import battle_dice, needs_los, unit_dice
from ..rulesets.portable.battlefield import distance, on_battlefield
from ..rulesets.portable.state import baseline

WIN = 10000.0
MEDAL = 40.0
FIGURE = 3.0
#: chance that one battle die hits a unit of the class (004 "Battle": two infantry faces
#: and the grenade hit infantry; armor face and grenade hit armor; grenade hits artillery)
HIT_P = {"inf": 0.5, "armor": 1 / 3, "art": 1 / 6}
#: weights of a shot by when it can be fired (:func:`_weight`)
OWN_NOW, OWN_LATER = 0.8, 0.25
FOE_NOW, FOE_NEXT, FOE_LATER = 0.8, 0.45, 0.3
#: per hex beyond 2 between an own unit with no shot and the nearest enemy
CLOSING = 0.4
#: per hex between the nearest own unit and an objective only the enemy may win
GUARD = 0.3


def evaluate(rs: Ruleset[Any], st: Any, side: str) -> float:
    """The value of ``st`` for ``side`` (higher is better)."""
    if rs.is_over(st):
        res = rs.result(st)
        w = res.get("winner")
        return 0.0 if w is None else (WIN if w == side else -WIN)
    if hasattr(st, "scn"):
        return _hex_value(rs, st, side)
    return _portable_value(st, side)


def side_of(seat: str) -> str:
    """The side of a seat (``"AXIS:left"`` -> ``"AXIS"``; a side names itself)."""
    return seat.split(":", 1)[0]


# ------------------------------------------------------------------------------ hex games
def _hex_value(rs: Ruleset[Any], st: Any, side: str) -> float:
    score = rs.result(st).get("score") or {}
    foe = next((s for s in score if s != side), None)
    v = 0.0
    if foe is not None:
        v += MEDAL * (score.get(side, 0) - score.get(foe, 0))
        need = st.scn.victory.get(side, 0) - score.get(side, 0)
        if need == 1:
            v += 0.3 * MEDAL  # one medal from victory: press on
    mine = [u for u in st.units.values() if u.side == side]
    theirs = [u for u in st.units.values() if u.side != side]
    v += _strength(mine) - _strength(theirs)
    active = getattr(st, "active", None)
    mine_v, idle = _threat(st, mine, theirs, True, active == side)
    theirs_v, _ = _threat(st, theirs, mine, False, active not in (None, side))
    v += mine_v - theirs_v
    v -= CLOSING * _far(idle, theirs)  # own units close in (the enemy's distance is his)
    v += _objectives(st, side, foe, mine)
    return v


def _strength(units: list[Any]) -> float:
    total = 0.0
    for u in units:
        total += FIGURE * u.figures
        if u.figures == 1:
            total -= 0.25 * MEDAL  # the next hit gives the enemy a medal
    return total


def _hexdist(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance in the board's doubled-width coordinates (engine.core.geometry)."""
    dr = abs(a[0] - b[0])
    dc = abs(a[1] - b[1])
    return dr + max(0, (dc - dr) // 2)


_DICE: dict[tuple[Any, ...], int] = {}


def forget() -> None:
    """Empty the dice memory of :func:`_dice` (each decision starts afresh, so that a
    decision never depends on what the process evaluated before)."""
    _DICE.clear()


def _dice(st: Any, u: Any, t: Any, d: int) -> int:
    """:func:`battle_dice` without a card play, remembered within a decision (the unit
    flags, figures and changed tiles it reads are in the key)."""
    key = (
        u.id,
        u.hex,
        u.moved > 0,
        u.figures,
        t.id,
        t.hex,
        d,
        len(st.tiles_over),
    )
    n = _DICE.get(key)
    if n is None:
        n = _DICE[key] = battle_dice(st, u, t, d, None)
    return n


def _weight(u: Any, own: bool, active: bool) -> float:
    """How much the shot of ``u`` counts: by when it can fire.  The seat's own units:
    0.8 in its turn, 0.25 in the enemy's.  An enemy unit: 0.8 when it can fire this turn
    (its side's turn, ordered and not yet battled), 0.45 when it fires after the seat's
    coming move (the seat may still step away or destroy it first), 0.3 later (it has
    fought or was not ordered this turn: it fires after the seat's whole next turn)."""
    if own:
        return OWN_NOW if active else OWN_LATER
    if not active:
        return FOE_NEXT
    return FOE_NOW if u.ordered and not u.battles and not u.no_battle else FOE_LATER


def _threat(
    st: Any, shooters: list[Any], targets: list[Any], own: bool, active: bool
) -> tuple[float, list[Any]]:
    """The expected value of the shooters' fire: each shooter's best shot in range and
    in line of sight (:func:`engine.procedures.los.clear`, the rules' own test, with the
    units standing now), weighted by :func:`_weight`; the expected hits on one target
    are added up and capped at its figures (a unit dies once: its kill value), worth 3
    per figure and a medal as they approach its strength.  Also the shooters with no
    target in range and sight."""
    hits: dict[str, float] = {}
    idle: list[Any] = []
    weighted: dict[str, float] = {}
    units: dict[str, Any] = {}
    # the targets by column: a shooter looks only at those within 2 * reach + 1 columns
    # (farther ones are out of range); ``i`` keeps the list's order among equal shots
    placed = sorted((t.hex[1], i, t.hex[0], t) for i, t in enumerate(targets))
    cols = [p[0] for p in placed]
    for u in shooters:
        reach = len(unit_dice(st, u))
        shots: list[tuple[float, int, float, int, Any]] = []
        r0, c0 = u.hex
        lo = bisect_left(cols, c0 - 2 * reach - 1)
        hi = bisect_right(cols, c0 + 2 * reach + 1)
        for c1, i, r1, t in placed[lo:hi]:
            dr = r0 - r1 if r0 > r1 else r1 - r0
            if dr > reach:
                continue
            dc = c0 - c1 if c0 > c1 else c1 - c0
            d = dr + (dc - dr) // 2 if dc > dr else dr
            if d > reach:
                continue
            n = _dice(st, u, t, d)
            if n <= 0:
                continue
            h = n * HIT_P.get(t.cls, 1 / 3)
            shots.append((-_kill_value(h, t.figures), i, h, d, t))
        sight = needs_los(u)
        shots.sort()
        for _value, _i, h, d, t in shots:
            if d == 1 or los.clear(st, u.hex, t.hex, sight, u.cls):
                w = _weight(u, own, active)
                hits[t.id] = hits.get(t.id, 0.0) + h
                weighted[t.id] = weighted.get(t.id, 0.0) + w * h
                units[t.id] = t
                break
        else:
            idle.append(u)
    total = 0.0
    for tid, h in hits.items():
        total += weighted[tid] / h * _kill_value(h, units[tid].figures)
    return total, idle


def _kill_value(hits: float, figures: int) -> float:
    """Expected hits on a unit of ``figures``, capped at its strength: 3 per figure and
    up to a medal as they approach its destruction."""
    return FIGURE * min(hits, figures) + MEDAL * min(1.0, hits / figures) ** 2


def _far(idle: list[Any], theirs: list[Any]) -> float:
    """Hexes beyond 2 between each idle unit (no shot) and the nearest enemy."""
    if not theirs:
        return 0.0
    placed = [t.hex for t in theirs]
    total = 0
    for u in idle:
        r0, c0 = u.hex
        near = 1 << 30
        for r1, c1 in placed:  # _hexdist, inline: this loop is the evaluation's hottest
            dr = r0 - r1 if r0 > r1 else r1 - r0
            dc = c0 - c1 if c0 > c1 else c1 - c0
            d = dr + (dc - dr) // 2 if dc > dr else dr
            if d < near:
                near = d
                if near <= 2:
                    break
        total += max(0, near - 2)
    return float(total)


def _objectives(st: Any, side: str, foe: str | None, mine: list[Any]) -> float:
    """Closeness of the nearest own unit to each objective the side may win and to its
    exit zones; and, less, to each objective only the enemy may win (guarding it)."""
    if not mine:
        return 0.0
    v = 0.0
    for o in st.scn.objectives:
        near = min(_hexdist(u.hex, h) for u in mine for h in o.hexes)
        if o.side is not None and o.side == foe:
            v -= GUARD * o.counts_for * min(near, 8)
        elif o.side in (None, side) and st.objectives.get(o.id) != side:
            v -= 0.6 * o.counts_for * min(near, 8)
    for z in st.scn.exits:
        if z.side != side:
            continue
        near = min(_hexdist(u.hex, h) for u in mine for h in z.hexes)
        v -= 0.5 * z.value * min(near, 8)
    return v


# ------------------------------------------------------------------------------ portable
def _portable_value(st: Any, side: str) -> float:
    v = 0.0
    for s in {u.side for u in st.units.values()}:
        sign = 1.0 if s == side else -1.0
        lost = sum(1 for u in st.units.values() if u.side == s and u.lost and not u.general)
        if lost == st.options.get("break_units", 3) - 1:
            v -= sign * 20.0  # one more unit lost and the army breaks
    areas: dict[tuple[str, str], list[Any]] = {}
    for u in st.units.values():
        sign = 1.0 if u.side == side else -1.0
        if u.lost:
            v -= sign * (30.0 if u.general else 20.0)
            continue
        v += sign * 5.0 * u.sp
        if u.area is None or u.area.endswith("reserve"):
            continue
        areas.setdefault((u.side, u.area), []).append(u)
        if st.attacker == u.side:
            forward = int(u.area[1]) - 1 if u.side == "BLUE" else 3 - int(u.area[1])
            v += sign * 1.0 * forward
    v += _pressing(st, side)
    for (s, _area), units in areas.items():
        sign = 1.0 if s == side else -1.0
        kinds = [u.type for u in units if not u.general]
        v += sign * 2.0 * (len(kinds) - len(set(kinds)))  # +1 in combat: same type beside
        if len(kinds) < len(units) and kinds:
            v += sign * 1.5  # +1 in combat: the General
    return v


def _pressing(st: Any, side: str) -> float:
    """The seat's own foot and horse closing on the enemy (a draw at the turn limit is
    worth nothing): -1 per area between each of them and the nearest enemy on the
    battlefield (a unit in reserve stands one behind its baseline), growing to -3 as the
    turn limit nears; artillery stays where it can fire."""
    foes = [u.area for u in st.units.values() if u.side != side and on_battlefield(u.area)]
    if not foes:
        return 0.0
    limit = max(1, st.options.get("turn_limit", 12))
    weight = 1.0 + 2.0 * min(1.0, st.turn / limit)
    v = 0.0
    for u in st.units.values():
        if u.side != side or u.lost or u.area is None or u.type not in ("foot", "mounted"):
            continue
        if on_battlefield(u.area):
            near = min(distance(u.area, a) for a in foes)
        else:
            near = 1 + min(distance(b, a) for b in baseline(side) for a in foes)
        v -= weight * max(0, near - 1)
    return v
