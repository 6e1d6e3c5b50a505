"""The Fast Play '44 fight stack: one :class:`~.records.Fight` record per combat on
``ext["fights"]`` (a pre-assault fire or a British battle back sits on top of the fight
it answers), and the rolls against a unit with no firer that go on it (004 minefields,
frozen rivers).

Stages: ``pre_fire`` (5.7a: the assaulted unit's window: opportunity_fire /
defensive_fire / hold_fire) -> ``wait`` (its fire on top) -> ``roll`` (chance node) ->
``retreat`` (owner: retreat option or withdraw, 5.6d / 5.7d) -> ``take_ground``
(5.6e: ranged combat MAY; 5.7e: an assault MUST, automatically) -> ``overrun`` ->
``battle_back`` (12.3) -> ``second_assault`` (12.5) -> ``defensive_fire`` (5.6f / 7)
-> popped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.geometry import Hex
from ...procedures.common import other, terrain_at
from ...procedures.state import GameState, Mine, Unit
from .records import Fight, ext

ASSAULT_KINDS = ("battle", "overrun", "second_assault")


def fights(st: GameState) -> list[Fight]:
    return ext(st)["fights"]


def top(st: GameState) -> Fight:
    """The fight being resolved (the caller knows there is one)."""
    return ext(st)["fights"][-1]


def hex_of(x: Sequence[int]) -> Hex:
    return (x[0], x[1])


def fired_from(f: Fight) -> Hex | None:
    """The hex the firing unit fired from (None: a card's or a hazard's roll)."""
    frm = f["frm"]
    return None if frm is None else (frm[0], frm[1])


def firer(st: GameState, f: Fight) -> Unit | None:
    """The fight's firing unit (None: a card's or a hazard's roll, or the unit is gone)."""
    att = f["att"]
    return st.units.get(att) if att is not None else None


def firer_id(f: Fight) -> str:
    """The firing unit's id, at the stages only a unit's fight reaches (pre-assault fire,
    take ground, overrun, battle back, second assault, Defensive Fire)."""
    att = f["att"]
    if att is None:
        raise AssertionError(f"a {f['kind']} roll has no firing unit")
    return att


def _fight(
    kind: str,
    att: str | None,
    frm: list[int] | None,
    tgt: str,
    thex: list[int],
    dist: int,
    dice: int,
    assault: bool,
    side: str,
) -> Fight:
    return {
        "kind": kind,
        "assault": assault,
        "att": att,
        "tgt": tgt,
        "frm": frm,
        "thex": thex,
        "dist": dist,
        "dice": dice,
        "stage": "roll",
        "flags": 0,
        "opts": [],
        "vacated": False,
        "retreated": False,
        "side": side,
    }


def new_fight(kind: str, u: Unit, v: Unit, dist: int, dice: int, assault: bool) -> Fight:
    """``u`` battles or fires at ``v``."""
    return _fight(kind, u.id, [*u.hex], v.id, [*v.hex], dist, dice, assault, u.side)


def roll_against(kind: str, uid: str, h: Hex, dice: int, side: str) -> Fight:
    """A roll against the unit ``uid`` on ``h`` with no firing unit (a card, a mine, the
    ice), ``side`` rolling."""
    return _fight(kind, None, None, uid, [*h], 0, dice, False, side)


def _hazard(kind: str, u: Unit, dice: int) -> Fight:
    """A roll against ``u`` with no firer (a mine, the ice), resolved as in an assault."""
    f = roll_against(kind, u.id, u.hex, dice, other(u.side))
    f["assault"] = True
    return f


def enter_ice(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    """004 "Rivers & Waterways, Frozen": "Roll two Battle Dice whenever a Unit Moves or
    Retreats onto a Frozen River hex. For each Green Star rolled, 1 figure or model is
    lost" (4.1: the standard movement rules; a move or a retreat; no suppression: a star
    is a figure); a chance step on the fight stack, rolled before what follows."""
    n = terrain_at(st, u.hex).entry_hazard_dice
    if n <= 0:
        return
    events.append(
        {"type": "hazard", "unit": u.id, "hex": [*u.hex], "dice": n, "kind": "frozen_river"}
    )
    fights(st).append(_hazard("hazard", u, n))


def enter_minefield(st: GameState, u: Unit, events: list[dict[str, Any]]) -> None:
    """004 "Minefields" (our reading for Fast Play: the standard roll, grenades hit)."""
    m = st.mines.get(u.hex)
    if m is None:
        return
    st.mut(u.id).stopped = True  # must stop there, a decoy too (no take ground out of it)
    if m.side == u.side:
        return
    st.mines[u.hex] = Mine(m.side, m.value, True, m.decoy)
    events.append(
        {"type": "mine_revealed", "hex": [*u.hex], "value": m.value, "unit": u.id, "side": u.side}
    )
    if m.value <= 0:
        del st.mines[u.hex]
        events.append({"type": "mine_removed", "hex": [*u.hex], "reason": "decoy"})
        return
    fights(st).append(_hazard("mine", u, m.value))
