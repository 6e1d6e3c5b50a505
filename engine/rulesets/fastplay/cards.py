"""Optional rule ``command_cards``: the small command-card draw suggested in the reply of
the Fast Play '44 thread (000, Mike Austin): the ten cards he lists form a deck, each
player draws 3 at the start of the scenario.

Our reading (the reply gives only the card names): a card is played during one's own
command phase, at most one per turn, for 1 CP (a card play is an order); its effect is
the card's standard effect put in Fast Play terms:

* Their Finest Hour: +3 CP this turn.
* Behind Enemy Lines: this turn infantry moves up to 3 hexes ignoring terrain
  restrictions (impassable terrain excepted); battling after it follows the normal rules.
* Infantry Assault (x2): this turn infantry moves 2 and still battles, or 3 without
  battling (the standard card's movement).
* Armor Assault: this turn armor assaults with 1 extra die.
* Close Assault: this turn every assault rolls 1 extra die.
* Artillery Bombard: this turn artillery may battle twice.
* Barrage: 4 dice at any enemy unit, resolved as Ranged Combat (grenades suppress),
  terrain ignored, flags may not be ignored.
* Air Power: the target and up to 3 enemy units adjacent to it (4 hexes), 2 dice each
  (Allies) or 1 (Axis), as Barrage.
* Medics & Mechanics: one own unit that lost figures rolls 4 dice; each symbol of its
  class or star gives a figure back (up to its starting strength).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...procedures.common import parse_hex, parse_unit
from ...core.geometry import Hex
from ...procedures.state import GameState
from .command import turn_play
from .fights import roll_against
from .records import Fight, ext

CARDS: tuple[tuple[str, str], ...] = (
    ("their_finest_hour", "Their Finest Hour"),
    ("behind_enemy_lines", "Behind Enemy Lines"),
    ("infantry_assault", "Infantry Assault"),
    ("infantry_assault", "Infantry Assault"),
    ("armor_assault", "Armor Assault"),
    ("close_assault", "Close Assault"),
    ("barrage", "Barrage"),
    ("artillery_bombard", "Artillery Bombard"),
    ("air_power", "Air Power"),
    ("medics", "Medics & Mechanics"),
)
TEXT = {
    "their_finest_hour": "+3 CP this turn.",
    "behind_enemy_lines": "This turn infantry moves up to 3 hexes ignoring terrain restrictions.",
    "infantry_assault": "This turn infantry moves 2 and battles, or 3 without battling.",
    "armor_assault": "This turn armor assaults with 1 extra die.",
    "close_assault": "This turn every assault rolls 1 extra die.",
    "barrage": "4 dice at any enemy unit (ranged: grenades suppress), no terrain, flags count.",
    "artillery_bombard": "This turn artillery may battle twice.",
    "air_power": "The target and up to 3 adjacent enemy units: 2 dice each (Allies), 1 (Axis).",
    "medics": "One damaged unit rolls 4 dice: each own symbol or star = 1 figure back.",
}
HAND = 3
TARGETED = ("barrage", "air_power")


def card_json(cid: int) -> dict[str, Any]:
    key, name = CARDS[cid]
    return {"id": cid, "key": key, "name": name, "text": TEXT[key], "kind": "tactic"}


def deal(st: GameState) -> None:
    """At set-up (option ``command_cards``): shuffle the 10 cards, 3 to each player."""
    deck = list(range(len(CARDS)))
    st.rng.shuffle(deck)
    for side in (st.scn.player1_side, st.scn.player2_side):
        st.hands[side] = [deck.pop() for _ in range(HAND)]
    st.deck = deck


def actions(st: GameState, seat: str) -> list[dict[str, Any]]:
    """``play_card`` actions of the active side (1 CP, one card per turn)."""
    if (
        not st.options.get("command_cards")
        or seat != st.active
        or ext(st)["cp"] <= 0
        or turn_play(st).flags.get("card_played")
    ):
        return []
    out = []
    for c in st.hands[seat]:
        key = CARDS[c][0]
        a = {"type": "play_card", "seat": seat, "card": c}
        if key in TARGETED:
            out += [{**a, "target": [*u.hex]} for u in st.units.values() if u.side != seat]
        elif key == "medics":
            out += [
                {**a, "unit": u.id}
                for u in st.units.values()
                if u.side == seat and u.figures < u.max_figures
            ]
        else:
            out.append(a)
    return out


def play(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    side = st.active
    if not any(a == {**action, "seat": side} for a in actions(st, side)):
        cid = action.get("card")
        if cid not in st.hands.get(side, ()):
            raise IllegalAction("card_not_in_hand", "that card is not in your hand")
        raise IllegalAction("card_not_playable", "this card cannot be played so now")
    cid = action["card"]
    key = CARDS[cid][0]
    st.hands[side].remove(cid)
    st.discard.append(cid)
    ext(st)["cp"] -= 1
    ext(st)["current"] = None
    f = turn_play(st).flags
    f["card_played"] = True
    events.append(
        {
            "type": "card_played",
            "seat": side,
            "side": side,
            "card": card_json(cid),
            "cp": ext(st)["cp"],
        }
    )
    if key == "their_finest_hour":
        ext(st)["cp"] += 3
    elif key == "behind_enemy_lines":
        f.update(move_max=3, move_max_classes=("inf",), fp_ignore_terrain="inf")
    elif key == "infantry_assault":
        f["inf_move_bonus"] = 1
    elif key == "armor_assault":
        f["fp_assault_bonus_armor"] = 1
    elif key == "close_assault":
        f["fp_assault_bonus"] = 1
    elif key == "artillery_bombard":
        f.update(battles=2, battles_classes=("art",))
    elif key == "medics":
        u = parse_unit(st, action)
        _push(st, "medics", u.id, u.hex, 4, side)
    else:
        v = st.units[st.occ[parse_hex(action, "target")]]  # a legal target: an enemy unit
        targets = [v]
        if key == "air_power":
            for n in sorted(st.scn.board.neighbours(v.hex)):
                w = st.unit_at(n)
                if w is not None and w.side != side and len(targets) < 4:
                    targets.append(w)
        dice = 4 if key == "barrage" else (2 if side == "ALLIES" else 1)
        for w in reversed(targets):  # the first target is resolved first
            _push(st, key, w.id, w.hex, dice, side)


def _push(st: GameState, kind: str, uid: str, h: Hex, dice: int, side: str) -> None:
    f = roll_against(kind, uid, h, dice, side)
    f["no_ignore"] = True
    ext(st)["fights"].append(f)


def heal(st: GameState, f: Fight, faces: list[str], events: list[dict[str, Any]]) -> None:
    """Medics & Mechanics: each symbol of the unit's class or star = 1 figure back."""
    u = st.units.get(f["tgt"])
    if u is None:
        return
    symbol = {"inf": "inf", "armor": "armor"}.get(u.cls)
    n = sum(1 for x in faces if x == "star" or x == symbol)
    gained = min(n, u.max_figures - u.figures)
    events.append(
        {
            "type": "dice_rolled",
            "side": f["side"],
            "unit": None,
            "target_unit": u.id,
            "dice": list(faces),
            "hits": 0,
            "flags": 0,
            "kind": "medics",
        }
    )
    if gained:
        m = st.mut(u.id)
        m.figures += gained
        events.append(
            {"type": "unit_healed", "unit": u.id, "figures_gained": gained, "figures": m.figures}
        )
