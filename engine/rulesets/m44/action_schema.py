"""The canonical form of every action (m44 1v1, team and Overlord): what the log stores.

A client's action is JSON it chose; the log must hold only what the engine understands.
:func:`canonical_action` turns an action into its canonical form or refuses it:

* ``type`` must be a known action type (``unknown_action``);
* every other key must be a field of that type (``unknown_field``, ``details.field``);
  ``seat`` is a field of every type;
* every value must be of the field's documented kind and range (``bad_value``,
  ``details.field`` and ``details.expected``); a hex must be on the scenario's board;
  ``null`` for an optional field means "absent" and is dropped;
* a required field must be there (``missing_field``).

The canonical form has the keys in schema order (``type``, ``seat``, then the fields),
hexes as ``[row, col]`` lists, and nothing else.  ``apply`` of the canonical form equals
``apply`` of the original for every action the engine accepts (the engine never read
anything else).  Whether the action is *legal now* stays the engine's question
(``apply``); this module only checks shape and range, so it is cheap (no rules run).

:func:`normalise_logged` is the lenient form for log rows written before canonical
actions existed: unknown keys are dropped (they were ignored by the engine when the
action was applied), the values must still be valid.

The table :data:`SCHEMA` is the documentation: docs/architecture.md "Actions" lists the
same types and fields.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.dice import FACE_NAMES
from ...core.errors import IllegalAction
from .cards import CARDS

#: every card id an action may name is a key of ``CARDS``, the one id space of the card
#: tables (standard 0..59, the extra Artillery Bombard 60; the Overlord deck and Air
#: Sorties, 100.., join it when engine.rulesets.overlord is imported, as ``import engine``
#: does): looked up at call time, so this m44 module needs no import of the overlord one
UNIT_ID = re.compile(r"u[0-9]{1,5}")
SEAT = re.compile(r"(AXIS|ALLIES)(:(cinc|left|centre|right))?|chance")
MAX_DICE = 36
FGS = ("left", "centre", "right")

# field kinds: ("hex",) ("card",) ("unit",) ("bool",) ("int", lo, hi) ("enum", values)
# ("faces",); a field is (name, kind, required)
HEX, CARD, UNIT, BOOL, FACES = ("hex",), ("card",), ("unit",), ("bool",), ("faces",)


def _int(lo: int, hi: int) -> tuple[Any, ...]:
    return ("int", lo, hi)


def _enum(*values: str) -> tuple[Any, ...]:
    return ("enum", values)


Field = tuple[str, tuple[Any, ...], bool]

_UNIT_ONLY = (
    "remove_wire",
    "clear_mine",
    "remove_roadblock",
    "seal_cave",
    "heal",
    "battle_back",
    "order",
    "exit",
    "campaign_remove",
)
_UNIT_HEX = ("blow_bridge", "rig_bridge", "bombard_bridge", "build_pontoon")
_BARE = (
    "end_cards",
    "end_targets",
    "end_orders",
    "end_movement",
    "end_battles",
    "end_commissar",
    "end_smoke",
    "offer_cards",
    "end_offer",
    "end_exchange",
    "restoring_order",
    "big_push",
    "ambush",
    "pass",
    "confirm_dispatch",
    "initiative",
)

#: action type -> its fields (besides ``type`` and ``seat``), in canonical order
SCHEMA: dict[str, tuple[Field, ...]] = {
    "roll": (("dice", FACES, True),),
    "play_card": (
        ("card", CARD, True),
        ("half", _int(0, 1), False),
        ("as", _enum("air_power"), False),
        ("copy", _enum("field_general", "cinc"), False),
    ),
    "choose_section": (("section", _int(0, 2), True),),
    "target": (("hex", HEX, True),),
    "armor_breakthrough": (("hex", HEX, True),),
    "move": (("unit", UNIT, True), ("to", HEX, True)),
    "battle": (("unit", UNIT, True), ("target", HEX, True)),
    "firefight": (("unit", UNIT, True), ("target", HEX, True)),
    "retreat": (("unit", UNIT, False), ("to", HEX, True), ("ignore", _int(0, 6), False)),
    "take_ground": (("take", BOOL, True),),
    "choose_card": (("card", CARD, True),),
    "commissar": (("card", CARD, True),),
    "place_smoke": (("hex", HEX, True),),
    "airdrop": (("hex", HEX, True),),
    "reinforce": (("hex", HEX, True),),
    "exchange_card": (("card", CARD, True),),
    "offer": (("card", CARD, True),),
    "take": (("card", CARD, True), ("give", CARD, True)),
    # Overlord (engine/rulesets/overlord/)
    "dispatch": (("card", CARD, True), ("to", _enum("cinc", *FGS), True)),
    "undo_dispatch": (("card", CARD, True),),
    "visit": (("fg", _enum(*FGS), True),),
    "gung_ho": (("fg", _enum(*FGS), True),),
    "initiative_unit": (("unit", UNIT, True), ("to", HEX, False)),
    # 004 Simplified Campaign Rules, the pre-battle roll (options/campaign.py)
    "campaign_retreat": (("unit", UNIT, True), ("to", HEX, True)),
    **{t: (("unit", UNIT, True),) for t in _UNIT_ONLY},
    **{t: (("unit", UNIT, True), ("hex", HEX, True)) for t in _UNIT_HEX},
    **{t: () for t in _BARE},
}

_FIELDS: dict[str, dict[str, tuple[tuple[Any, ...], bool]]] = {
    t: {name: (kind, req) for name, kind, req in fields} for t, fields in SCHEMA.items()
}


def _bad(field: str, expected: str) -> IllegalAction:
    return IllegalAction(
        "bad_value", f"field {field!r} must be {expected}", field=field, expected=expected
    )


def _value(state: Any, field: str, kind: tuple[Any, ...], v: Any) -> Any:
    tag = kind[0]
    if tag == "hex":
        if not isinstance(v, (list, tuple)) or len(v) != 2 or not all(type(x) is int for x in v):
            raise _bad(field, "a hex [row, col] of two integers")
        h = (v[0], v[1])
        board = getattr(getattr(state, "scn", None), "board", None)
        if board is not None and not board.on_board(h):
            raise _bad(field, "a hex on the board")
        return [h[0], h[1]]
    if tag == "card":
        if type(v) is not int or v not in CARDS:
            raise _bad(field, "a card id")
        return v
    if tag == "unit":
        if type(v) is not str or not UNIT_ID.fullmatch(v):
            raise _bad(field, "a unit id (u<number>)")
        return v
    if tag == "bool":
        if type(v) is not bool:
            raise _bad(field, "true or false")
        return v
    if tag == "int":
        lo, hi = kind[1], kind[2]
        if type(v) is not int or not lo <= v <= hi:
            raise _bad(field, f"an integer {lo}..{hi}")
        return v
    if tag == "enum":
        if type(v) is not str or v not in kind[1]:
            raise _bad(field, "one of " + ", ".join(kind[1]))
        return v
    if tag == "faces":
        if (
            not isinstance(v, list)
            or not 1 <= len(v) <= MAX_DICE
            or not all(type(f) is str and f in FACE_NAMES for f in v)
        ):
            raise _bad(
                field, f"a list of 1..{MAX_DICE} die faces ({', '.join(sorted(FACE_NAMES))})"
            )
        return list(v)
    raise AssertionError(kind)


def canonical_action(state: Any, action: Any, *, lenient: bool = False) -> dict[str, Any]:
    """The canonical form of ``action`` in ``state`` (see the module docstring); raises
    ``IllegalAction`` (``malformed_action``, ``unknown_action``, ``unknown_field``,
    ``bad_value``, ``missing_field``).  ``lenient``: drop unknown keys instead."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "an action is a JSON object with a 'type'")
    t = action["type"]
    fields = _FIELDS.get(t)
    if fields is None:
        raise IllegalAction(
            "unknown_action", f"unknown action type {t[:40]!r}", known=sorted(SCHEMA)
        )
    out: dict[str, Any] = {"type": t}
    seat = action.get("seat")
    if seat is not None:
        if type(seat) is not str or not SEAT.fullmatch(seat):
            raise _bad("seat", "a seat (AXIS, ALLIES, SIDE:cinc|left|centre|right, chance)")
        out["seat"] = seat
    for key in action:
        if key not in fields and key not in ("type", "seat") and not lenient:
            name = key if isinstance(key, str) else repr(key)
            raise IllegalAction(
                "unknown_field",
                f"{t} has no field {name[:40]!r}",
                field=name[:40],
                fields=["seat", *fields],
            )
    for name, (kind, req) in fields.items():
        v = action.get(name)
        if v is None:
            if req:
                raise IllegalAction("missing_field", f"{t} needs the field {name!r}", field=name)
            continue
        out[name] = _value(state, name, kind, v)
    return out


def normalise_logged(state: Any, action: Any) -> dict[str, Any]:
    """A log row of an older release as the log stores it now: unknown keys dropped
    (the engine never read them), values checked as for a new action."""
    return canonical_action(state, action, lenient=True)
