"""What a side may do now in the m44 turn machine: playable cards (Commissar chip,
Recon as Air Power, cards fitting the units), the units that may move, the battle
actions of an ordered unit, the card a play comes from."""

from __future__ import annotations

from typing import Any

from ...core.geometry import Hex
from ...core.scenario_json import parse_coord
from ...core.scenario_model import Scenario
from ...procedures import battle as B
from ...procedures import battle_outcome as BO
from ...procedures import trains as TR
from .cards import CARDS, CardDef, first_of
from ...procedures.common import mode, other
from ...procedures.movement import exit_hexes, reachable
from ...procedures.state import GameState, Play, Unit
from ...core.errors import IllegalAction


def _move_actions(st: GameState, play: Play, seat: str) -> list[dict[str, Any]]:
    """``move`` / ``exit`` actions of the units ``play`` ordered."""
    out = []
    for uid in play.ordered:
        u = st.units.get(uid)
        if u is None or u.moved:
            continue
        for m in _movers(st, u):
            for h in reachable(st, m, play, None, bool(play.flags.get("ignore_terrain"))):
                out.append({"type": "move", "seat": seat, "unit": m.id, "to": [*h]})
        if exit_hexes(st, u, play):
            out.append({"type": "exit", "seat": seat, "unit": uid})
    return out


def _battle_actions(st: GameState, play: Play, seat: str) -> list[dict[str, Any]]:
    """``battle`` / instead-of-battle / second ``move`` actions of the units ``play``
    ordered."""
    out = []
    for uid in play.ordered:
        u = st.units.get(uid)
        if u is None:
            continue
        if B.can_battle(st, u, play):
            for h, _n in B.targets(st, u, play):
                out.append({"type": "battle", "seat": seat, "unit": uid, "target": [*h]})
            aimed = st.hooks.instead_of_battle_hexes
            for t in st.hooks.instead_of_battle(st, u):
                if t in aimed:
                    out += [
                        {"type": t, "seat": seat, "unit": uid, "hex": [*h]} for h in aimed[t](st, u)
                    ]
                else:
                    out.append({"type": t, "seat": seat, "unit": uid})
        if _may_move_again(play, u):
            for h in reachable(st, u, play, play.flags["move_again"], True):
                out.append({"type": "move", "seat": seat, "unit": uid, "to": [*h]})
    return out


def playable(st: GameState, side: str) -> list[int]:
    """The cards ``side`` may play now (Ambush only when it holds nothing else)."""
    under_chip = st.hooks.commissar_playable(st, side)
    if under_chip is not None:  # the card under the Commissar chip, or Recon / Counter-Attack
        return under_chip
    hand = st.hands[side]
    cards = [c for c in hand if CARDS[c].key != "ambush"]
    return cards or list(hand)


def recon_as_air_power(st: GameState, side: str) -> bool:
    """Game option ``blitzkrieg`` (the side using it, 004 "Blitzkrieg Rules (Optional)":
    "The player may play a "Recon 1" card as an Air Power Tactic Card in that Section");
    vocabulary 2.6: with ``air_strikes_rules`` (value: the side, or true for both) or,
    for the Axis, ``blitz_rules``, a Recon card may be played as an Air Power; vocabulary
    3.3 ``hill317``: so may the Allies while one of their units stands on a listed hex
    (004 "Calling In Air Strikes (Hill 317 Rule)": "for as long as a Unit occupies a
    specific hex")."""
    if st.hooks.no_air(st):
        return False  # 004 Rainstorm: "No ... tactical airpower are allowed"
    if st.options.get("blitzkrieg") == side:
        return True  # 004 "Blitzkrieg Rules (Optional)", Air Attack
    opts = st.scn.options
    v = opts.get("air_strikes_rules")
    if v and (v is True or str(v).upper() in (side, "ALL", "BOTH")):
        return True
    if (
        side == "ALLIES"
        and "hill317" in opts
        and any((u := st.unit_at(h)) is not None and u.side == side for h in hill317_hexes(st.scn))
    ):
        return True
    return bool(opts.get("blitz_rules")) and side == "AXIS"


def hill317_hexes(scn: Scenario) -> tuple[Hex, ...]:
    """The hexes of scenario option ``hill317``: coordinate strings (vocabulary 3.4), as a
    list (or an index-keyed map, or one string)."""
    v = scn.options.get("hill317")
    items = v.values() if isinstance(v, dict) else [v] if isinstance(v, str) else v or ()
    return tuple(h for c in items if (h := parse_coord(c, scn.board.rows)) is not None)


def _movers(st: GameState, u: Unit) -> list[Unit]:
    """The units whose ``move`` actions move the ordered unit ``u``: a train moves by its
    locomotive (forward) or its last wagon (backward), see engine/procedures/trains.py."""
    return TR.leaders(st, u) if u.spec.train else [u]


def _may_move_again(play: Play, u: Unit) -> bool:
    return bool(play.flags.get("move_again")) and not u.moved_again and u.ordered


def card_source(
    st: GameState, side: str, card: CardDef, as_: str | None = None
) -> tuple[CardDef, bool, int | None]:
    """(procedure card, mirrored, section) a played ``card`` is carried out as: a Recon
    played as an Air Power (``as_``) is an Air Power; a Counter-Attack copies the card the
    opponent played last (mirrored; a copied Infantry Assault keeps the physical section),
    or itself when there is nothing to copy."""
    if as_ == "air_power":
        return CARDS[first_of("air_power")], False, None
    if card.key == "counter_attack":
        last = st.last_card.get(other(side))
        if last is not None:
            section = 2 - last["section"] if last.get("section") is not None else None
            return CARDS[last["src"]], not last["mirror"], section
    return card, False, None


def obliged(st: GameState, phase: str) -> list[str]:
    """Units that must still move / battle this turn before the phase may end (004
    variants, extension point ``obligations``: zombies)."""
    if not st.options:
        return []
    return [uid for p in st.hooks.unit_plays(st) for uid in st.hooks.obligations(st, p, phase)]


def check_obliged(st: GameState, phase: str) -> None:
    """``end_movement`` / ``end_battles``: refused (``must_move`` / ``must_battle``) while
    :func:`obliged` names a unit."""
    left = obliged(st, phase)
    if left:
        raise IllegalAction("must_" + phase, f"these units must still {phase}: {', '.join(left)}")


def firefight_pairs(st: GameState, play: Play) -> list[tuple[Unit, Unit]]:
    """Continuing firefights (option ``firefight_continuing``) ``play`` may declare now:
    :func:`battle.firefight_options` of its side that the mode gives to this play
    (``StandardMode.fights_on``; Overlord: the Field General commanding the unit)."""
    m = mode(st)
    return [(a, b) for a, b in BO.firefight_options(st, play.side) if m.fights_on(st, play, a)]
