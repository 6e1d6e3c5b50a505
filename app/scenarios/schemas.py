from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class ScenarioSummary(BaseModel):
    id: str
    name: str
    source: str  # bundled | uploaded
    board_type: str | None = None
    face: str | None = None
    player1_side: str | None = None
    player2_side: str | None = None
    starting_side: str | None = None
    modes: list[str] = []
    layouts: dict[str, dict[str, list[list[str]]]] = {}  # mode -> layout -> role groups
    rulesets: dict[str, list[str]] = {}  # ruleset -> modes it accepts this scenario in
    error: dict[str, Any] | None = None  # a bundled file the engine cannot load (yet)
    # the lobby's one-line summary and list (app/scenarios/service.py ``scenario_kind``)
    kind: str = "battle"  # battle | tutorial | rules_example (not listed)
    date: str | None = None  # game_info date_begin, "1944-06-06"
    front: str | None = None  # game_info front, lower case: western, eastern...
    victory: dict[str, int] = {}  # side -> medals to win
    subtitle: str | None = None  # the scenario's own subtitle (its language)


class ScenarioDetail(ScenarioSummary):
    board: dict[str, Any] | None = None
