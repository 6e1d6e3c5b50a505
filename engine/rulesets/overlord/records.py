"""What an Overlord game keeps in ``GameState.ext`` (a ``ShallowExt``: values are replaced,
never mutated in place, so a state clone copies the top level only; nested mappings are
rebuilt through :func:`engine.rulesets.overlord.chain._put`).

Beside these keys the same mapping holds the scenario rules' own entries, written by
:func:`engine.procedures.common.set_ext` (the night track, camouflage, air drops, smoke,
Armor Breakthrough, HQ tents, ...); they are read by their own modules, not through
:class:`OverlordExt`.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict, cast

from ...procedures.state import GameState


class InitiativePending(TypedDict):
    """A Field General's initiative roll waiting for its unit (002 "Initiative")."""

    fg: str
    face: str


class LastPlay(TypedDict):
    """A card a side played last turn, for the opponent's Counter-Attack."""

    role: str | None
    src: int
    subs: list[int] | None  # the sub-sections it ordered in


class OverlordExt(TypedDict):
    """``GameState.ext`` of an Overlord game (002 "Teams", "The Game Turn")."""

    # -- the game
    hand_size: dict[str, int]  # side -> its hand size
    commissar_sides: tuple[str, ...]  # sides under the Commissar rule
    gung_ho_sides: tuple[str, ...]  # sides whose C-in-C may name a Gung Ho general
    chip: dict[str, tuple[int, ...]]  # side -> the cards under its Commissar chip
    setup: tuple[str, ...]  # sides still to place their game-start Commissar cards
    last_plays: dict[str, tuple[LastPlay, ...]]  # side -> its cards of the last turn
    visits: tuple[list[Any], ...]  # [turn, side, general] of every C-in-C visit
    # commissar_setup | scenario_setup | commissar | dispatch | play | ...
    step: str
    # -- the turn (reset by ``machine._new_turn_ext``)
    dispatch: dict[str, tuple[int, ...]]  # role -> the cards the C-in-C gives it
    visit: str | None  # the Field General the C-in-C visits
    gung_ho_fg: str | None  # the Gung Ho general
    received: dict[str, tuple[int, ...]]  # general -> cards received, not yet played
    initiative: dict[str, str | None]  # general -> his initiative this turn
    taken: tuple[int, ...]  # the cards taken from under the Commissar chip
    placed: int  # Commissar cards placed this turn
    init_pending: InitiativePending | None
    chance_fg: str | None  # the general whose roll is due
    halves: dict[str, tuple[int, ...]]  # general -> the halves of his cards used


#: the keys of :class:`OverlordExt` holding a mapping (rebuilt by ``chain._put``)
Nested = Literal["chip", "last_plays", "dispatch", "received", "initiative", "halves"]


def ox(st: GameState) -> OverlordExt:
    """The game's Overlord data."""
    # set by machine.init_game and kept by every clone and snapshot of the game
    return cast(OverlordExt, st.ext)
