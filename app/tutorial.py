"""Tutorials: a lesson is an ordinary game on a bundled scenario drawn for it, against the
server's bot, with a fixed dice seed so that the lesson comes out as written.

The standard game's lesson (``m44``): ``scenarios/tutorial-m44-first-battle.m44``, the
player takes the Allies, the bot the Axis.  The Axis hold no command card, so the bot has
no choice to make (it passes); the seed was found by ``scripts/tutorial_seed.py`` (the
deal holds a centre section card on each turn, the first battle rolls one flag and one
hit, the second eliminates the German unit).  The steps the player is told are the
client's (static/tutorial.js); the rules stay the engine's: a player who does something
else plays on, only the lesson's words no longer fit.  tests/app/test_tutorial.py plays
the lesson through the API and checks that it ends as written.

Overlord's lesson (``overlord``): ``scenarios/tutorial-overlord-first-turn.m44`` on an
Overlord board, the player holds the four Allied role seats (layout 1): as
Commander-in-Chief he gives "Attack Centre" (in the hand the seed deals) to the Centre
Field General, visits him and confirms; the Field Generals without a card do nothing;
the Centre Field General plays the card in the right half of his section, orders, moves
and battles.  Fast Play's lesson (``fastplay``): ``scenarios/tutorial-fastplay-first-turn.m44``,
2 Command Points: one unit moves, the other takes an OpFire marker; the Axis turn is
scripted (:attr:`Tutorial.script`) so that the German unit always moves into the marked
unit's range and the opportunity fire the lesson asks for always happens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Tutorial:
    """One lesson: its scenario (a bundled file), the ruleset and seat mode it is played
    under, the seat the player takes (with the layout that gives him his side's seats),
    the bot's seats, the dice seed, and the bot's scripted moves: patterns of actions the
    bot plays, the first one a legal action matches, before it thinks for itself."""

    name: str
    scenario_id: str
    seat: str
    bots: tuple[str, ...]
    seed: int
    ruleset: str = "m44"
    mode: str = "1v1"
    layout: dict[str, str] | None = None
    script: tuple[dict[str, Any], ...] = field(default=())


TUTORIALS: dict[str, Tutorial] = {
    "m44": Tutorial("m44", "tutorial-m44-first-battle", "ALLIES", ("AXIS",), 1),
    "overlord": Tutorial(
        "overlord",
        "tutorial-overlord-first-turn",
        "ALLIES:cinc",
        ("AXIS:cinc",),
        5,
        ruleset="overlord",
        mode="overlord",
        layout={"AXIS": "1", "ALLIES": "1"},
    ),
    "fastplay": Tutorial(
        "fastplay",
        "tutorial-fastplay-first-turn",
        "ALLIES",
        ("AXIS",),
        1,
        ruleset="fastplay",
        script=(
            {"type": "move", "unit": "u0", "to": [3, 13]},
            {"type": "end_turn"},
        ),
    ),
}


def tutorial_of(scenario_id: str | None) -> str | None:
    """The lesson a game's scenario belongs to, if any (the game page shows its steps)."""
    return next((t.name for t in TUTORIALS.values() if t.scenario_id == scenario_id), None)


def lesson_move(
    scenario_id: str | None, legal: Callable[[], list[dict[str, Any]]]
) -> dict[str, Any] | None:
    """The bot's scripted move in a lesson: the first legal action (``legal()``, asked only
    in a lesson with a script) that matches one of the lesson's patterns, tried in their
    order; None: the bot thinks for itself."""
    lesson = next((t for t in TUTORIALS.values() if t.scenario_id == scenario_id), None)
    if lesson is None or not lesson.script:
        return None
    actions = legal()
    for pattern in lesson.script:
        for a in actions:
            if all(a.get(k) == v for k, v in pattern.items()):
                return a
    return None
