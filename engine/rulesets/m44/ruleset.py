"""The ``m44`` ruleset object: the Commands & Colors turn machine of Memoir '44 behind the
:class:`engine.core.ruleset.Ruleset` protocol.

Server mode names map onto the turn machine's seat modes: ``1v1`` -> ``standard`` (one
seat per side).  :class:`M44Ruleset` is also the base of the ``overlord`` ruleset, which
only changes the modes offered and the boards each accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...core.errors import EngineError, IllegalAction
from ...core.ruleset import Action, Event, Ruleset, View
from ...core.scenario import board_for
from ...core.scenario_model import Scenario
from ...procedures import ending
from ...procedures.common import StandardMode
from ...procedures.state import GameState
from . import game as _rules
from . import hook_table as _hook_table
from . import snapshot as _snapshot
from .action_schema import canonical_action, normalise_logged
from .options import describe
from .options.campaign_value import prebattle_dice
from .options.kriegspiel import actor_for, watch_seat
from .undo import undoable
from .view import events_for, public_status, view_for, view_parts, views_for


class M44Ruleset(Ruleset[GameState]):
    """Memoir '44 set up from a ``.m44`` scenario; the engine's turn machine."""

    name = "m44"
    version = "1"
    title = "Memoir '44"
    summary = (
        "The standard two-player Memoir '44 game: command cards order units by "
        "section, battle dice, medals.  Optional rules of the 004 compilation."
    )
    setup = "scenario"
    renderer = "hex"
    # the hex page's Kriegspiel legend (option kriegspiel) and variant / campaign boxes
    panels: ClassVar[tuple[str, ...]] = ("fog", "variants")
    modes: tuple[str, ...] = ("1v1",)
    # remote-play ``undo`` is offered (:meth:`undoable`: which steps)
    supports_undo: ClassVar[bool] = True
    # the 004 Simplified Campaign Rules play a campaign's battles (options/campaign.py)
    supports_campaign: ClassVar[bool] = True
    # server mode -> turn-machine seat mode, the game's ``hooks.mode`` (SEAT_MODES)
    ENGINE_MODES: ClassVar[dict[str, str]] = {"1v1": "standard", "standard": "standard"}
    SEAT_MODES: ClassVar[Mapping[str, StandardMode]] = _hook_table.SEAT_MODES
    # board kinds each mode is offered on
    BOARDS: ClassVar[dict[str, tuple[str, ...]]] = {"1v1": ("STANDARD", "BRKTHRU")}
    # players per side sharing the role seats (002 "Teams", 004 "Team Play"), default
    DEFAULT_LAYOUT: ClassVar[dict[str, str]] = {"1v1": "1"}

    # -- lobby ---------------------------------------------------------------------------
    def options(self) -> list[dict[str, Any]]:
        """The 004 optional rules (``engine.rulesets.m44.options.describe``)."""
        return describe()

    def accepts(self, scenario: Any, mode: str | None) -> bool:
        """A parsed ``.m44`` scenario whose board kind the mode is offered on."""
        if not isinstance(scenario, Scenario):
            return False
        if mode is None:
            return bool(self.modes_for(scenario))
        return scenario.board.kind in self.BOARDS.get(mode, ())

    def default_layout(self, mode: str | None) -> str:
        """The layout of a new game when the creator names none."""
        return self.DEFAULT_LAYOUT.get(mode or "", "1")

    def engine_mode(self, scenario: Any, mode: str | None) -> str:
        """The turn machine's seat mode for a server ``mode`` (None: the natural one)."""
        if mode is None:
            offered = self.modes_for(scenario)
            if not offered:
                raise IllegalAction(
                    "unknown_mode", f"ruleset {self.name} offers no mode for this board"
                )
            mode = offered[0]
        try:
            return self.ENGINE_MODES[mode]
        except KeyError:
            raise IllegalAction(
                "unknown_mode",
                f"unknown mode {mode!r} for ruleset {self.name} (one of {list(self.modes)})",
            ) from None

    # -- the game ------------------------------------------------------------------------
    def new_game(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        scenario: Any = None,
        mode: str | None = None,
    ) -> GameState:
        if not isinstance(scenario, Scenario):
            raise EngineError(
                "scenario_required", f"ruleset {self.name} is set up from a .m44 scenario"
            )
        return _rules.new_game(
            scenario, seed, options, self.engine_mode(scenario, mode), self.SEAT_MODES
        )

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

    def undoable(
        self,
        before: GameState,
        action: Action,
        events: list[Event],
        after: GameState,
        rolls: int = 0,
    ) -> bool:
        """The step gave its seat nothing new and nobody else acted (:mod:`.undo`)."""
        return undoable(before, action, events, after, rolls)

    def turn(self, state: GameState) -> int:
        """The game turn (one side's card play and its orders is one turn)."""
        return int(state.turn)

    def is_over(self, state: GameState) -> bool:
        return bool(state.game_over)

    def result(self, state: GameState) -> dict[str, Any]:
        medals = {s: state.elim_medals[s] + state.exit_medals[s] for s in state.elim_medals}
        return {
            "winner": state.winner,
            "draw": state.game_over and state.winner is None,
            "score": medals,
            "reason": "medals" if state.game_over else "in_progress",
        }

    def conclude(self, state: GameState, side: str, reason: str) -> tuple[GameState, list[Event]]:
        """``side`` resigns / runs out of time / forfeits; the other side wins, medals as
        they stand (:mod:`engine.procedures.ending`)."""
        return ending.conclude(state, side, reason)

    def campaign_score(self, state: GameState) -> dict[str, int]:
        """004 Simplified Campaign Rules: the Victory Points of the battle, the medals
        the public view shows (a sudden death: the victory total)."""
        sides = view_for(state, None).get("sides", {})
        return {s: int(sides.get(s, {}).get("medals", 0)) for s in state.elim_medals}

    def campaign_carry(self, score: dict[str, int], wins: dict[str, int]) -> dict[str, int]:
        """004: the pre-battle dice, "equal to the number of Victory Points won in the
        previous game" plus one per campaign Victory."""
        return {s: prebattle_dice(score.get(s, 0), wins.get(s, 0)) for s in score}

    def view_for(self, state: GameState, seat: str | None) -> View:
        return view_for(state, seat)

    def views_for(self, state: GameState, seats: Sequence[str | None]) -> list[View]:
        return views_for(state, list(seats))

    def view_parts(
        self, state: GameState, seats: Sequence[str | None]
    ) -> tuple[View, list[View]] | None:
        """The shared part once; None under 004 Kriegspiel (whose redaction rewrites
        each side's whole view)."""
        return view_parts(state, list(seats))

    def public_status(self, state: GameState) -> dict[str, Any]:
        return public_status(state)

    def events_for(self, state: GameState, events: list[Event], seat: str | None) -> list[Event]:
        return events_for(events, seat, state)

    def actor_for(self, state: GameState, actor: str | None, seat: str | None) -> str | None:
        """The acting seat as ``seat`` may know it (004 Kriegspiel team play: an enemy
        role seat is only its side)."""
        known: str | None = actor_for(state, actor, seat)
        return known

    def spectator_seat(self, side: str) -> str | None:
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
        return _snapshot.load_state(data, scenario, self.name, self.version, self.SEAT_MODES)


M44 = M44Ruleset()
