"""004 Appendix 3 "Army Manoeuvres": the two Tactics Cards declared instead of playing a
Command Card (options ``restoring_order`` and ``big_push``; both also under ``army_manoeuvres``, which
adds Extra Command Cards, engine/rulesets/m44/options/extra_cards.py).

004 text: "Restoring Order, Tactics Card - May only be used by each player once per game.
Instead of playing a Command Card, a player may declare that he is Regrouping. He may
order all his Units to Move, regardless of which Section they are in, but they may not
advance towards the enemy. Only Units that do not Move may Battle."

"The Big Push, Tactics Card - May only be used by each player once per game. Instead of
playing a Command Card, a player may declare an Army Advance. Every Unit must advance at
least one hex towards the enemy. Infantry Units must Infantry Charge and Take Ground if
the opportunity presents itself. Armour Units must Armour Overrun if the opportunity
presents itself. Artillery Units can March forward one hex or Battle with one additional
Battle-Die."

Engine reading (where the text is silent):

* Both are ``play_card``-phase actions (``restoring_order`` / ``big_push``), once per game
  per side, like the ``discard_useless_cards`` actions (engine/rulesets/m44/options/useless_cards.py).
  Every unit of the side is ordered (units held back by ``CANNOT_BE_ACTIVATED_TILL_TURN``
  excepted).  No card is played, so none is drawn at the end of the turn and a
  Counter-Attack next turn has nothing to copy.
* "Towards the enemy" is measured in rows, the opposite of the retreat direction
  (:meth:`engine.core.geometry.Board.rows_toward_enemy`; 004/vocabulary: a retreat step moves
  one row toward the own baseline).  A move is judged by where the unit ends it.
* Restoring Order: a unit may not end its move on a row nearer the enemy than its start
  (sideways and backwards are fine), nor leave the board by an exit; a unit that moved
  may not battle.
* The Big Push: a unit other than artillery may only end its move on a row nearer the
  enemy, and ``end_movement`` is refused while an ordered unit that can still advance has
  not moved (a unit with no such hex stays and may battle).  Artillery may march 1 hex,
  forward only, or battle with +1 die.  An infantry or armour unit must take ground when
  it can, and armour must overrun when it can.  "Must Infantry Charge": infantry that
  marched 2 hexes into contact may battle as under the ``infantry_charge`` option (the
  player's choice of move is not forced).
* Standard and team modes (the Overlord machine does not offer them); trains are
  ordered but not forced to advance.
"""

from __future__ import annotations

from typing import Any

from ....core.errors import IllegalAction
from ....core.geometry import Hex
from ....procedures.state import GameState, Play, Unit
from .. import tactics as T
from ....procedures.common import is_top, mode, set_ext, side_units
from ....procedures.movement import reachable

RESTORING_ORDER = "restoring_order"
BIG_PUSH = "big_push"
KINDS = (RESTORING_ORDER, BIG_PUSH)
KEY = "manoeuvres"  # GameState.ext: {"used": ((side, kind), ...)}

#: Play flags of each declaration (read by movement.reachable, battle.can_battle,
#: battle.battle_dice, battle.charging and the take ground / overrun decisions).
FLAGS: dict[str, dict[str, Any]] = {
    RESTORING_ORDER: {"advance": "never", "battle_unmoved_only": True, "no_draw": True},
    BIG_PUSH: {
        "advance": "must",
        "move_max": 1,
        "move_max_classes": ("art",),
        "bonus_art": 1,
        "press_on": True,
        "no_draw": True,
    },
}
EVENT = {RESTORING_ORDER: "regrouping_declared", BIG_PUSH: "army_advance_declared"}


def enabled(st: GameState, kind: str) -> bool:
    """Option ``kind`` on, or ``army_manoeuvres`` (all of Army Manoeuvres)."""
    return bool(st.options.get(kind) or st.options.get("army_manoeuvres"))


def _used(st: GameState) -> tuple[tuple[str, str], ...]:
    """(side, kind) of each declaration made this game."""
    used: tuple[tuple[str, str], ...] = (st.ext or {}).get(KEY, {"used": ()})["used"]
    return used


def play_card_options(st: GameState, seat: str) -> list[dict[str, Any]]:
    """The declarations the active side may make instead of playing a card."""
    return [
        {"type": k, "seat": seat}
        for k in KINDS
        if enabled(st, k) and (st.active, k) not in _used(st)
    ]


def declare(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """``restoring_order`` / ``big_push``: order every unit of the side."""
    kind = action["type"]
    side = st.active
    if not enabled(st, kind):
        raise IllegalAction("card_not_playable", f"optional rule {kind} is off")
    if (side, kind) in _used(st):
        raise IllegalAction("card_not_playable", f"{kind} may be used only once per game")
    set_ext(st, KEY, {"used": _used(st) + ((side, kind),)})
    play = Play(None, kind, mode(st).play_seat(st, side, None), side)
    play.flags.update(FLAGS[kind])
    st.plays.append(play)
    events.append({"type": EVENT[kind], "side": side, "seat": play.seat})
    for u in side_units(st, side):
        T.order(st, play, u, events)
    st.phase = "move"


def allowed_destinations(
    st: GameState, u: Unit, play: Play | None, res: dict[Hex, int]
) -> dict[Hex, int]:
    """Filter the move destinations ``res`` of ``u`` by the play's ``advance`` flag."""
    adv = play.flags.get("advance") if play is not None else None
    if not adv or not res:
        return res
    top = is_top(st, u.side)
    fwd = st.scn.board.rows_toward_enemy
    if adv == "never":
        return {h: k for h, k in res.items() if fwd(u.hex, h, top) <= 0}
    if adv != "must":
        return res  # another option's flag (004 variants: zombies)
    return {h: k for h, k in res.items() if fwd(u.hex, h, top) > 0}


def must_still_advance(st: GameState, play: Play) -> list[str]:
    """The Big Push: ordered units (not artillery, not trains) that have not moved yet and
    can still end a move nearer the enemy."""
    if play.flags.get("advance") != "must":
        return []
    out = []
    for uid in play.ordered:
        u = st.units.get(uid)
        if (
            u is not None
            and not u.moved
            and u.cls != "art"
            and not u.spec.train
            and reachable(st, u, play)
        ):
            out.append(uid)
    return out


def check_end_movement(st: GameState, play: Play) -> None:
    left = must_still_advance(st, play)
    if left:
        raise IllegalAction(
            "must_advance", f"The Big Push: every unit must advance ({', '.join(left)})"
        )


def pressing_on(st: GameState, u: Unit | None) -> bool:
    """The Big Push: infantry must take ground, armour must take ground and overrun."""
    play = st.play
    return (
        play is not None
        and bool(play.flags.get("press_on"))
        and u is not None
        and u.side == play.side
        and u.cls in ("inf", "armor")
    )


def must_advance(st: GameState, play: Play) -> bool:
    """The Big Push: units of ``play`` must still advance (``end_movement`` is refused)."""
    return bool(must_still_advance(st, play))


#: the extension points this module fills (engine/procedures/hooks.py) when one of its
#: options is on
HOOKS = {
    "filter_destinations": allowed_destinations,
    "pressing_on": pressing_on,
    "must_advance": must_advance,
    "check_end_movement": check_end_movement,
}
#: ... and its declarations, in every game (refused when the option is off:
#: ``card_not_playable``)
ACTIONS = {
    "play_card_options": play_card_options,
    "actions": {("play_card", RESTORING_ORDER): declare, ("play_card", BIG_PUSH): declare},
}
