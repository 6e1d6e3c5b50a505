"""004 Appendix 3 "Simplified Campaign Rules": the pre-battle dice of a campaign battle
(option ``campaign``, value ``{"AXIS": n, "ALLIES": m}``: each side's pre-battle dice).

004 text: "At the beginning of the game, before the Command Cards are dealt, each player
rolls Battle Dice equal to the number of Victory Points won in the previous game. As a
Victory Bonus, each player rolls 1 additional Battle Die for each Victory he has won in
the Campaign."  The count is the campaign's business (:func:`prebattle_dice`, used by the
server's campaigns, app/campaigns/); the battle game plays the roll and its effects:

* Before the first turn, each side with dice rolls them (chance step ``for: campaign``,
  the starting side first; event ``dice_rolled {side, dice, kind: campaign}``).
* Then each die of the first roll, then of the second, in the order rolled:
  "Black Tank - Your opponent must remove one Tank model from any one of his Armour
  Units." / "Blue Infantryman - Your opponent must remove one Infantry figure from any
  one of his Infantry Units.": pending ``campaign_loss`` for the opponent (the
  opponent's hand seat), actions ``campaign_remove {unit}`` among his units of that
  class (none: no effect).
  "Purple Flag - Your opponent must Retreat any one Unit by one hex. Units may not
  Retreat off the Board.": pending ``campaign_retreat`` for the opponent, actions
  ``campaign_retreat {unit, to}`` (a free hex one step toward his own baseline the unit
  could retreat to; none anywhere: no effect).
  "Red Grenade - You remove one figure/model from any one of your Opponent's Units.":
  pending ``campaign_loss`` for the roller, ``campaign_remove {unit}`` among every enemy
  unit.
  "Green Star - Reduce the number of Command Cards your opponent holds at the start of
  the Battle by 1. His starting hand however, must always be at least 1 card. He will
  draw two cards after each turn, untill the number of cards he holds is equal to the
  number listed": applied at once (the last card dealt goes back on top of the deck,
  which is the same as not dealing it); while his hand is short he draws one more card
  at the end of each of his turns (never beyond the scenario's hand size).
* "You gain a Victory Point if all of the figures/models of an opponent's Unit are
  removed before the Battle begins.": a unit losing its last figure is eliminated as in
  battle (its medal value to the side that rolled).
* Then the scenario's own set-up steps (airdrop, smoke) and the first turn's night roll
  (m44 ``turn.advance``).
"""

from __future__ import annotations

from typing import Any

from ....core.errors import IllegalAction
from ....procedures.battle import apply_hits
from ....procedures.common import SIDES, is_top, mode, other, set_ext
from ....procedures.medals import check_victory
from ....procedures.state import GameState
from . import airdrop as AD
from . import smoke as SM
from .campaign_value import prebattle_dice  # noqa: F401  (re-exported for the server)

NAME = "campaign"
KEY = "campaign"
PHASE = "campaign"
CLASS_OF_FACE = {"armor": "armor", "inf": "inf"}


def _data(st: GameState) -> dict[str, Any]:
    return (st.ext or {}).get(KEY) or {}


def _put(st: GameState, **changes: Any) -> None:
    set_ext(st, KEY, {**_data(st), **changes})


def turn_begins(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    """Turn 1 of a campaign battle: the pre-battle rolls come first."""
    dice = st.options.get(NAME)
    if not dice or st.turn != 1 or _data(st):
        return
    order = [s for s in (side, other(side)) if dice.get(s, 0) > 0]
    short = {s: st.scn.cards.get(s, 0) for s in SIDES}
    _put(st, to_roll=tuple(order), queue=(), short=(), sizes=tuple(sorted(short.items())))
    if order:
        _next_roll(st)


def _next_roll(st: GameState) -> None:
    d = _data(st)
    if d["to_roll"]:
        st.chance = {"n": st.options[NAME][d["to_roll"][0]], "for": KEY}
        st.phase = "chance"
        return
    _next_effect(st, [])


def rolled(st: GameState, faces: list[str], events: list[dict[str, Any]]) -> None:
    d = _data(st)
    side = d["to_roll"][0]
    events.append(
        {
            "type": "dice_rolled",
            "side": side,
            "seat": mode(st).hand_seat(st, side),
            "dice": list(faces),
            "kind": KEY,
        }
    )
    _put(st, to_roll=d["to_roll"][1:], queue=d["queue"] + tuple((side, f) for f in faces))
    _next_roll(st)


def _hand_down(st: GameState, victim: str, events: list[dict[str, Any]]) -> None:
    hand = st.hands[victim]
    if len(hand) <= 1:
        return
    st.deck.append(hand.pop())
    d = _data(st)
    _put(st, short=tuple(sorted(set(d["short"]) | {victim})))
    events.append({"type": "hand_reduced", "side": victim, "count": len(hand)})


def _choices(st: GameState, roller: str, face: str) -> list[dict[str, Any]]:
    """The actions the face's effect offers (empty: no effect)."""
    victim = other(roller)
    units = sorted((u for u in st.units.values() if u.side == victim), key=lambda u: int(u.id[1:]))
    if face in CLASS_OF_FACE:
        return [
            {"type": "campaign_remove", "unit": u.id} for u in units if u.cls == CLASS_OF_FACE[face]
        ]
    if face == "grenade":
        return [{"type": "campaign_remove", "unit": u.id} for u in units]
    if face == "flag":
        board = st.scn.board
        top = is_top(st, victim)
        return [
            {"type": "campaign_retreat", "unit": u.id, "to": [*h]}
            for u in units
            for h in board.retreat_hexes(u.hex, top)
            if h not in st.occ and not _impassable(st, u, h)
        ]
    return []


def _impassable(st: GameState, u: Any, h: Any) -> bool:
    t = st.scn.terrain_at(h)
    return u.cls in t.impassable or t.ocean


def _seat(st: GameState, roller: str, face: str) -> str:
    """Who decides: the roller for a grenade, else his opponent."""
    return mode(st).hand_seat(st, roller if face == "grenade" else other(roller))


def _next_effect(st: GameState, events: list[dict[str, Any]]) -> None:
    """Apply the queued faces until one needs a decision; then the battle begins."""
    while True:
        q = _data(st)["queue"]
        if not q:
            break
        roller, face = q[0]
        if face == "star":
            _hand_down(st, other(roller), events)
        elif _choices(st, roller, face):
            st.phase = PHASE
            return
        _put(st, queue=q[1:])
    st.phase = "play_card"
    if check_victory(st, events):
        return
    AD.init_airdrop(st)
    SM.init_smoke(st)


class CampaignPhase:
    """The ``campaign`` phase (extension point ``phases``)."""

    @staticmethod
    def pending(st: GameState) -> dict[str, Any]:
        roller, face = _data(st)["queue"][0]
        kind = "campaign_retreat" if face == "flag" else "campaign_loss"
        return {"type": kind, "seat": _seat(st, roller, face), "face": face, "roller": roller}

    @staticmethod
    def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
        roller, face = _data(st)["queue"][0]
        return [{**a, "seat": seat} for a in _choices(st, roller, face)]

    @staticmethod
    def apply(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
        roller, face = _data(st)["queue"][0]
        want = {k: v for k, v in action.items() if k != "seat"}
        if want not in _choices(st, roller, face):
            raise IllegalAction(
                "illegal_campaign_effect", "not one of the pre-battle effect's choices"
            )
        u = st.units[action["unit"]]
        if action["type"] == "campaign_remove":
            apply_hits(st, u, 1, roller, events)
        else:
            to = (action["to"][0], action["to"][1])
            frm = u.hex
            u = st.mut(u.id)
            del st.occ[frm]
            u.hex = to
            st.occ[to] = u.id
            events.append(
                {
                    "type": "unit_retreated",
                    "unit": u.id,
                    "side": u.side,
                    "from": [*frm],
                    "to": [*to],
                    "reason": KEY,
                }
            )
        _put(st, queue=_data(st)["queue"][1:])
        _next_effect(st, events)


def turn_ending(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    """A short-handed side draws one more card (two in all) while below its hand size."""
    d = _data(st)
    if not d or side not in d["short"]:
        return
    size = dict(d["sizes"])[side]
    if len(st.hands[side]) + 1 < size:
        st.hooks.give(st, side, st.hooks.draw(st, side, events, 1), events)
    if len(st.hands[side]) + 1 >= size:
        _put(st, short=tuple(s for s in d["short"] if s != side))


def view(st: GameState) -> dict[str, Any] | None:
    d = _data(st)
    if not d:
        return None
    return {
        "dice": st.options.get(NAME),
        "effects_left": [{"roller": r, "face": f} for r, f in d["queue"]],
        "short": list(d["short"]),
    }


#: the extension points this module fills (engine/procedures/hooks.py)
def public_view(st: GameState, out: dict[str, Any]) -> None:
    """Extension point ``public_view``: the pre-battle decisions (view field ``campaign``)."""
    out["campaign"] = view(st)


HOOKS = {
    "public_view": public_view,
    "turn_begins": turn_begins,
    "turn_ending": turn_ending,
    "chance_handlers": {KEY: rolled},
    "phases": {PHASE: CampaignPhase},
}
