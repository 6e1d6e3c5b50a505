"""The ``fastplay`` ruleset object: Fast Play '44 (rules text 000) behind the
:class:`engine.core.ruleset.Ruleset` protocol.  1v1 on standard and Breakthrough boards,
set up from any ``.m44`` scenario; the hex renderer draws it (the view carries ``cp``,
suppression and OpFire markers)."""

from __future__ import annotations

from typing import Any, ClassVar

from ...core.errors import EngineError, IllegalAction
from ...core.ruleset import Action, Event, Ruleset
from ...core.scenario import board_for
from ...core.scenario_model import Scenario
from ...procedures import ending
from ...procedures.snapshot import dump_state as dump_snapshot
from ...procedures.snapshot import load_state as load_snapshot
from ...procedures.state import GameState
from . import game as G
from . import machine as M
from .view import events_for, view_for


OPTIONS = [
    {
        "name": "dig_in",
        "default": False,
        "optional": True,
        "implemented": True,
        "source": "000 thread reply (Mike Austin), suggestion 1",
        "description": "Dig In as a CP order: an ordered infantry or artillery unit that has "
        "not moved or battled places sandbags on its hex instead of acting.",
    },
    {
        "name": "command_cards",
        "default": False,
        "optional": True,
        "implemented": True,
        "source": "000 thread reply (Mike Austin), suggestion 2",
        "description": "A small command-card draw: the 10 cards the reply lists, 3 each at the "
        "start; one per turn for 1 CP, effects in Fast Play terms "
        "(engine/rulesets/fastplay/cards.py).",
    },
]


class FastPlayRuleset(Ruleset[GameState]):
    name = "fastplay"
    version = "1"
    title = "Fast Play '44"
    summary = (
        "Memoir '44 without cards or sections: Command Points order units anywhere "
        "one at a time; opportunity fire, defensive fire, suppression, assaults "
        "and withdrawal (Chris Roper's Fast Play '44 rules)."
    )
    setup = "scenario"
    renderer = "hex"
    panels: ClassVar[tuple[str, ...]] = (
        "fastplay",
    )  # CP, the unit in hand, fire and assault prompts
    modes: tuple[str, ...] = ("1v1",)
    BOARDS = ("STANDARD", "BRKTHRU")

    def options(self) -> list[dict[str, Any]]:
        return [dict(o) for o in OPTIONS]

    def accepts(self, scenario: Any, mode: str | None) -> bool:
        if not isinstance(scenario, Scenario) or mode not in (None, "1v1", "standard"):
            return False
        return scenario.board.kind in self.BOARDS

    def new_game(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        scenario: Any = None,
        mode: str | None = None,
    ) -> GameState:
        if not isinstance(scenario, Scenario):
            raise EngineError("scenario_required", "Fast Play '44 is set up from a .m44 scenario")
        if not self.accepts(scenario, mode):
            raise IllegalAction(
                "unknown_mode", "Fast Play '44 plays 1v1 on standard or Breakthrough boards"
            )
        return G.new_game(scenario, seed, options)

    def seats(self, state: GameState) -> list[str]:
        return [state.scn.player1_side, state.scn.player2_side]

    def to_act(self, state: GameState) -> list[str]:
        return G.to_act(state)

    def legal_actions(self, state: GameState, seat: str | None) -> list[Action]:
        return G.legal_actions(state, seat)

    def canonical_action(self, state: GameState, action: Any) -> Action:
        return G.canonical_action(action)

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        return G.apply(state, action)

    def is_chance(self, state: GameState) -> bool:
        return G.is_chance(state)

    def sample_chance(self, state: GameState) -> Action:
        return G.sample_chance(state)

    def turn(self, state: GameState) -> int:
        return int(state.turn)

    def is_over(self, state: GameState) -> bool:
        return bool(state.game_over)

    def result(self, state: GameState) -> dict[str, Any]:
        medals = {s: state.medals(s) for s in state.elim_medals}
        return {
            "winner": state.winner,
            "draw": state.game_over and state.winner is None,
            "score": medals,
            "reason": "medals" if state.game_over else "in_progress",
        }

    def conclude(self, state: GameState, side: str, reason: str) -> tuple[GameState, list[Event]]:
        """(engine.meta) ``side`` resigns / runs out of time / forfeits;
        the other side wins (the Memoir '44 ending, medals as they stand)."""
        return ending.conclude(state, side, reason)

    def view_for(self, state: GameState, seat: str | None) -> dict[str, Any]:
        return view_for(state, seat)

    def events_for(self, state: GameState, events: list[Event], seat: str | None) -> list[Event]:
        return events_for(events, seat)

    def board(self, state: GameState) -> dict[str, Any]:
        """The standard board without the section lines (2.2: sections have no meaning)."""
        return {k: v for k, v in board_for(state.scn).items() if k != "sections"}

    def dump_state(self, state: GameState) -> dict[str, Any]:
        """Versioned JSON (:mod:`engine.procedures.snapshot`), never a pickle."""
        return dump_snapshot(state, self.name, self.version)

    def load_state(self, data: dict[str, Any], scenario: Any = None) -> GameState:
        """``snapshot_version`` for another format, ruleset or version (replay instead)."""
        if not isinstance(scenario, Scenario):
            raise EngineError("scenario_required", "a fastplay snapshot loads on its scenario")
        st = load_snapshot(data, scenario, self.name, self.version)
        st.hooks = M.HOOKS  # the game's hook table again (never in a snapshot)
        return st


FASTPLAY = FastPlayRuleset()
