"""What a Fast Play '44 game keeps in ``GameState.ext`` (all public: markers lie on the
table, fights and moves are played in the open):

* ``cp``: Command Points left to the active side this turn (rules 1-3);
* ``current``: the unit being used (3.3: units are ordered and used one at a time);
* ``opfire``: units holding an OpFire marker (6.1);
* ``supp``: unit -> suppression level 1/2 (8.2);
* ``towed``: artillery that rallied (10.4: defends as infantry until its next turn);
* ``withdrawn``: units withdrawn per side (9, 11.1);
* ``fights``: the fight stack (:class:`Fight`, top last);
* ``move``: a move waiting on an opportunity fire decision (4.2, :class:`Move`);
* ``setup``: the set-up steps left (scenario airdrop / smoke, :mod:`.setup`);
* ``supply_train``: a supply train unloading (procedure ``trains``).

``ext`` is copied by ``GameState.clone`` (nested dicts and lists copied), so values are
changed in place only on a cloned state.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from ...procedures.state import GameState


class FightOption(TypedDict, total=False):
    """A retreat option of the standard procedure (``to``, ``losses``, ``ignore``) or a
    withdrawal off the board (``withdraw``: 5.6d / 5.7d / 9)."""

    to: list[int]
    losses: int
    ignore: int
    withdraw: bool


class Fight(TypedDict):
    """One combat on the fight stack: a battle, a fire, a card's or a hazard's roll."""

    # battle | overrun | opportunity_fire | defensive_fire | battle_back |
    # second_assault; a card's key (air_power, barrage, medics); mine | hazard
    kind: str
    assault: bool
    att: str | None  # the firing unit (None: a card or a hazard)
    tgt: str  # the target unit
    frm: list[int] | None  # the firing unit's hex
    thex: list[int]  # the target's hex
    dist: int
    dice: int
    # pre_fire | wait | roll | retreat | take_ground | overrun | battle_back |
    # after_bb | second_assault | defensive_fire
    stage: str
    flags: int
    opts: list[FightOption]  # the target's retreat choices (stage ``retreat``)
    vacated: bool
    retreated: bool
    side: str  # the firing side
    no_ignore: NotRequired[bool]  # flags may not be ignored (a card's roll)
    tiger: NotRequired[int]  # the Tiger's first roll's flags, waiting under its second
    bb_done: NotRequired[bool]  # the British battle back was offered


#: a move carried out hex by hex (4.2): ``path`` the hexes after the start (the
#: destination last), ``i`` the hexes entered so far, ``cost`` the hexes the whole move
#: counts, ``from`` its start, ``seg`` where the current stretch (one ``unit_moved``
#: event) started, ``window`` the enemy units that may opportunity fire at the mover
#: where it stands now
Move = TypedDict(
    "Move",
    {
        "unit": str,
        "path": list[list[int]],
        "i": int,
        "cost": int,
        "from": list[int],
        "seg": list[int],
        "window": list[str] | None,
    },
)


class FastPlayExt(TypedDict):
    """``GameState.ext`` of a Fast Play '44 game (the module docstring)."""

    cp: int
    current: str | None
    opfire: list[str]
    supp: dict[str, int]
    towed: list[str]
    withdrawn: dict[str, int]
    fights: list[Fight]
    move: Move | None
    setup: NotRequired[list[dict[str, Any]]]
    supply_train: NotRequired[dict[str, Any]]


def ext(st: GameState) -> FastPlayExt:
    """The game's Fast Play data."""
    # set by new_game (fresh_ext) and kept by every clone and snapshot of the game
    return cast(FastPlayExt, st.ext)


def fresh_ext(cp: int) -> FastPlayExt:
    return {
        "cp": cp,
        "current": None,
        "opfire": [],
        "supp": {},
        "towed": [],
        "withdrawn": {"AXIS": 0, "ALLIES": 0},
        "fights": [],
        "move": None,
    }
