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
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tutorial:
    """One lesson: its scenario (a bundled file), the seat the player takes, the bot's
    seats and the dice seed."""

    name: str
    scenario_id: str
    seat: str
    bots: tuple[str, ...]
    seed: int


TUTORIALS: dict[str, Tutorial] = {
    "m44": Tutorial("m44", "tutorial-m44-first-battle", "ALLIES", ("AXIS",), 1),
}


def tutorial_of(scenario_id: str | None) -> str | None:
    """The lesson a game's scenario belongs to, if any (the game page shows its steps)."""
    return next((t.name for t in TUTORIALS.values() if t.scenario_id == scenario_id), None)
