"""The ``overlord`` ruleset object: the m44 ruleset with role seats (C-in-C and Field
Generals) and, on an Overlord board, the 002 turn machine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ...core.ruleset import View
from ...procedures.common import StandardMode
from ..m44.ruleset import M44Ruleset
from . import talk
from .chain import seat_layouts
from .modes import SEAT_MODES as _SEAT_MODES


class OverlordRuleset(M44Ruleset):
    """Memoir '44 played by teams: 002 Overlord and 004 Team Play."""

    name = "overlord"
    version = "1"
    title = "Memoir '44 Overlord"
    summary = (
        "Up to eight players: per side a Commander-in-Chief who holds the cards and "
        "Field Generals who command a section each.  Overlord boards (002) or Team "
        "Play on a standard board (004)."
    )
    modes: tuple[str, ...] = ("overlord", "team")
    # the command bar, the C-in-C's dispatch desk, the Field Generals' cards and sections
    panels: ClassVar[tuple[str, ...]] = ("overlord", "fog", "variants")
    ENGINE_MODES: ClassVar[dict[str, str]] = {"team": "team", "overlord": "overlord"}
    SEAT_MODES: ClassVar[Mapping[str, StandardMode]] = _SEAT_MODES
    BOARDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "overlord": ("OVERLORD",),
        "team": ("STANDARD", "BRKTHRU"),
    }
    DEFAULT_LAYOUT: ClassVar[dict[str, str]] = {"team": "3", "overlord": "4"}
    # the 004 Simplified Campaign Rules are written for two players
    supports_campaign: ClassVar[bool] = False

    def layouts(self, mode: str | None) -> dict[str, list[list[str]]]:
        """002 "Teams" / 004 "Team Play": how players share a side's four role seats."""
        return seat_layouts(self.ENGINE_MODES.get(mode or "", mode or ""))

    def panels_for(self, mode: str | None) -> tuple[str, ...]:
        """004 Team Play (``team``) has no C-in-C dispatch and no ``overlord`` view part:
        no command bar, desk or Field General panel."""
        if mode == "overlord":
            return self.panels
        return tuple(p for p in self.panels if p != "overlord")

    def bots_stand_in(self, mode: str | None) -> bool:
        """Its modes share a side's role seats among a team: a bot stands in for a player
        who leaves, so his teammates play on."""
        return mode in self.modes and any(
            roles for groups in self.layouts(mode).values() for roles in groups
        )

    def collective_sides(self, slots: Mapping[str, int]) -> frozenset[str]:
        """002 "Teams": "with 2 or even 1 player per side, the players play all roles
        collectively, for their camp": no chain of command inside such a side."""
        return frozenset(side for side, n in slots.items() if n <= 2)

    def chat_line(self, view: View | None, side: str | None) -> tuple[str, str | None]:
        """002 "The Military Chain of Command" (:mod:`.talk`)."""
        return talk.chat_line(view, side)


OVERLORD = OverlordRuleset()
