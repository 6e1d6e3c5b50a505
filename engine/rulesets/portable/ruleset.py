"""The ``portable`` Ruleset object: The Colonial fast play 3x3 Portable Wargame (003)."""

from __future__ import annotations

from typing import Any

from engine.core.errors import EngineError
from engine.core.ruleset import Action, Event, Ruleset, register

from . import options as opts
from . import rules, victory, view
from .state import SIDES, State

VERSION = "1"


class PortableRuleset(Ruleset[State]):
    name = "portable"
    version = VERSION
    title = "The Portable Wargame (3x3)"
    summary = (
        "Bob Cordery's fast play Portable Wargame on a 3x3 square grid: six units and "
        "a General a side, reserve areas behind the baselines, D6 combat.  The dice "
        "decide the attacker and the terrain; the defender places the terrain and "
        "deploys first.  A battle takes a quarter of an hour."
    )
    setup = "none"
    renderer = "square"
    modes = ("1v1",)

    def options(self) -> list[dict[str, Any]]:
        return opts.describe()

    def accepts(self, scenario: Any, mode: str | None) -> bool:
        return scenario is None and mode in (None, "1v1")

    def new_game(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        scenario: Any = None,
        mode: str | None = None,
    ) -> State:
        if not self.accepts(scenario, mode):
            raise EngineError(
                "unknown_mode" if scenario is None else "scenario_not_accepted",
                "the Portable Wargame takes no scenario and plays 1v1",
            )
        return rules.new_game(seed, options)

    def turn(self, state: State) -> int:
        """The game turn (0 during the set-up)."""
        return state.turn

    def seats(self, state: State) -> list[str]:
        return list(SIDES)

    def to_act(self, state: State) -> list[str]:
        return rules.to_act(state)

    def legal_actions(self, state: State, seat: str | None) -> list[Action]:
        return rules.legal_actions(state, seat)

    def canonical_action(self, state: State, action: Any) -> Action:
        return rules.canonical_action(state, action)

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return rules.apply(state, action)

    def is_chance(self, state: State) -> bool:
        return not state.over and state.pending.get("type") == "roll"

    def sample_chance(self, state: State) -> Action:
        return rules.sample_chance(state)

    def is_over(self, state: State) -> bool:
        return state.over

    def result(self, state: State) -> dict[str, Any]:
        lost = view.view_for(state, None)["lost"]
        return {
            "winner": state.winner,
            "draw": state.over and state.winner is None,
            "score": {s: lost[SIDES[1 - i]] for i, s in enumerate(SIDES)},
            "reason": state.reason,
        }

    def conclude(self, state: State, side: str, reason: str) -> tuple[State, list[Event]]:
        """(engine.meta) ``side`` resigns / runs out of time / forfeits."""
        return victory.conclude(state, side, reason)

    def view_for(self, state: State, seat: str | None) -> dict[str, Any]:
        return view.view_for(state, seat)

    def events_for(self, state: State, events: list[Event], seat: str | None) -> list[Event]:
        return view.events_for(state, events, seat)

    def board(self, state: State) -> dict[str, Any]:
        return view.board()

    def dump_state(self, state: State) -> dict[str, Any]:
        return {"ruleset": self.name, "version": self.version, "state": state.to_dict()}

    def load_state(self, data: dict[str, Any], scenario: Any = None) -> State:
        if not isinstance(data, dict) or data.get("ruleset") != self.name:
            raise EngineError("malformed_state", "not a portable snapshot")
        if data.get("version") != self.version:
            raise EngineError("snapshot_version", f"snapshot version {data.get('version')!r}")
        return State.from_dict(data["state"])


PORTABLE = register(PortableRuleset())
