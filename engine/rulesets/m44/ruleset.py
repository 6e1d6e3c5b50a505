"""The ``m44`` ruleset object: the Commands & Colors turn machine of Memoir '44 behind the
:class:`engine.core.ruleset.Ruleset` protocol.

Server mode names map onto the turn machine's seat modes: ``1v1`` -> ``standard`` (one
seat per side).  :class:`M44Ruleset` is also the base of the ``overlord`` ruleset, which
only changes the modes offered and the boards each accepts.
"""
from __future__ import annotations

from typing import Any, ClassVar

from . import game as _rules
from . import snapshot as _snapshot
from .action_schema import canonical_action, normalise_logged
from ...core.errors import EngineError, IllegalAction
from ...core.ruleset import Action, Event
from .options import describe
from ...core.scenario import board_for
from ...core.scenario_model import Scenario
from ...procedures.state import GameState
from .options.kriegspiel import actor_for, watch_seat
from .view import events_for, public_status, view_for, view_parts, views_for

class M44Ruleset:
    """Memoir '44 set up from a ``.m44`` scenario; the engine's turn machine."""

    name = "m44"
    version = "1"
    title = "Memoir '44"
    summary = ("The standard two-player Memoir '44 game: command cards order units by "
               "section, battle dice, medals.  Optional rules of the 004 compilation.")
    setup = "scenario"
    renderer = "hex"
    modes: tuple[str, ...] = ("1v1",)
    # engine.meta.undoable understands these states: remote-play ``undo`` is offered
    supports_undo: ClassVar[bool] = True
    # server mode -> turn-machine seat mode (engine/procedures/common.py MODES)
    ENGINE_MODES: ClassVar[dict[str, str]] = {"1v1": "standard", "standard": "standard"}
    # board kinds each mode is offered on
    BOARDS: ClassVar[dict[str, tuple[str, ...]]] = {"1v1": ("STANDARD", "BRKTHRU")}
    # players per side sharing the role seats (002 "Teams", 004 "Team Play"), default
    DEFAULT_LAYOUT: ClassVar[dict[str, str]] = {"1v1": "1"}

    # -- lobby ---------------------------------------------------------------------------
    def options(self) -> list[dict[str, Any]]:
        """The 004 optional rules (``engine.rulesets.m44.options.describe``)."""
        return describe()

    def modes_for(self, scenario: Any) -> list[str]:
        """The modes of this ruleset that accept ``scenario``, the natural one first."""
        return [m for m in self.modes if self.accepts(scenario, m)]

    def accepts(self, scenario: Any, mode: str | None) -> bool:
        """A parsed ``.m44`` scenario whose board kind the mode is offered on."""
        if not isinstance(scenario, Scenario):
            return False
        if mode is None:
            return bool(self.modes_for(scenario))
        return scenario.board.kind in self.BOARDS.get(mode, ())

    def layouts(self, mode: str) -> dict[str, list[list[str]]]:
        """Ways to share a side's role seats among players: layout name -> role groups."""
        return {"1": [[]]}

    def default_layout(self, mode: str) -> str:
        """The layout of a new game when the creator names none."""
        return self.DEFAULT_LAYOUT.get(mode, "1")

    def engine_mode(self, scenario: Any, mode: str | None) -> str:
        """The turn machine's seat mode for a server ``mode`` (None: the natural one)."""
        if mode is None:
            offered = self.modes_for(scenario)
            if not offered:
                raise IllegalAction("unknown_mode",
                                    f"ruleset {self.name} offers no mode for this board")
            mode = offered[0]
        try:
            return self.ENGINE_MODES[mode]
        except KeyError:
            raise IllegalAction("unknown_mode", f"unknown mode {mode!r} for ruleset "
                                f"{self.name} (one of {list(self.modes)})") from None

    # -- the game ------------------------------------------------------------------------
    def new_game(self, seed: int, options: dict[str, Any] | None = None,
                 scenario: Any = None, mode: str | None = None) -> GameState:
        if not isinstance(scenario, Scenario):
            raise EngineError("scenario_required", f"ruleset {self.name} is set up from a "
                              ".m44 scenario")
        return _rules.new_game(scenario, seed, options, self.engine_mode(scenario, mode))

    def seats(self, state: GameState) -> list[str]:
        return _rules.seats(state)

    def to_act(self, state: GameState) -> list[str]:
        return _rules.to_act(state)

    def legal_actions(self, state: GameState, seat: str | None) -> list[Action]:
        return _rules.legal_actions(state, seat)

    def canonical_action(self, state: GameState, action: Any) -> Action:
        """The action as the log stores it (``engine/action_schema.py``: known fields only,
        kinds and ranges checked; ``unknown_field``, ``bad_value``, ...)."""
        return canonical_action(state, action)

    def normalise_logged(self, state: GameState, action: Any) -> Action:
        """A log row of an older release: the keys the engine never read dropped."""
        return normalise_logged(state, action)

    def apply(self, state: GameState, action: Action) -> tuple[GameState, list[Event]]:
        return _rules.apply(state, action)

    def is_chance(self, state: GameState) -> bool:
        return _rules.is_chance(state)

    def sample_chance(self, state: GameState) -> Action:
        return _rules.sample_chance(state)

    def turn(self, state: GameState) -> int:
        """The game turn (one side's card play and its orders is one turn)."""
        return int(state.turn)

    def is_over(self, state: GameState) -> bool:
        return bool(state.game_over)

    def result(self, state: GameState) -> dict[str, Any]:
        medals = {s: state.elim_medals[s] + state.exit_medals[s] for s in state.elim_medals}
        return {"winner": state.winner, "draw": state.game_over and state.winner is None,
                "score": medals, "reason": "medals" if state.game_over else "in_progress"}

    def view_for(self, state: GameState, seat: str | None) -> dict[str, Any]:
        return view_for(state, seat)

    def views_for(self, state: GameState, seats: list[str | None]) -> list[dict[str, Any]]:
        return views_for(state, seats)

    def view_parts(self, state: GameState, seats: list[str | None]
                   ) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        return view_parts(state, seats)

    def public_status(self, state: GameState) -> dict[str, Any]:
        return public_status(state)

    def events_for(self, state: GameState, events: list[Event], seat: str | None) -> list[Event]:
        return events_for(events, seat, state)

    def actor_for(self, state: GameState, actor: str | None, seat: str | None) -> str | None:
        """The acting seat as ``seat`` may know it (004 Kriegspiel team play: an enemy
        role seat is only its side)."""
        return actor_for(state, actor, seat)

    def spectator_seat(self, side: str) -> str:
        """The seat a spectator watching ``side``'s board is shown (views and events as that
        side sees them, no hand): 004 Kriegspiel's fogged board; the public view otherwise."""
        return watch_seat(side)

    def board(self, state: GameState) -> dict[str, Any]:
        return board_for(state.scn)

    def dump_state(self, state: GameState) -> dict[str, Any]:
        """Versioned JSON (``engine/snapshot.py``), never a pickle."""
        return _snapshot.dump_state(state, self.name, self.version)

    def load_state(self, data: dict[str, Any], scenario: Any = None) -> GameState:
        """``snapshot_version`` for another format, ruleset or version (replay instead)."""
        if not isinstance(scenario, Scenario):
            raise EngineError("scenario_required", f"a {self.name} snapshot loads on its scenario")
        return _snapshot.load_state(data, scenario, self.name, self.version)


M44 = M44Ruleset()
