"""HTTP shapes of campaigns (docs/protocol.md "Campaigns")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class CampaignCreate(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    ruleset: str = Field(
        default="m44",
        description="a ruleset that plays campaigns "
        "(GET /api/rulesets: ``campaign``); every battle is played by it",
    )
    scenario_ids: list[str] = Field(
        min_length=1, max_length=30, description="the campaign's battles, in order"
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="optional rules of every battle"
    )
    seat: str | None = Field(
        default=None, description="AXIS | ALLIES: the creator's side in every battle"
    )
    bots: list[str] = Field(default_factory=list, description="sides the server's bot plays")


class BattleOut(BaseModel):
    index: int
    scenario_id: str
    scenario_name: str = ""  # the scenario's name (its id when the row is gone)
    game_id: str | None
    status: str  # open | live | finished | pending
    dice: dict[str, int]
    winner: str | None
    medals: dict[str, int] | None


class CampaignOut(BaseModel):
    id: str
    name: str
    ruleset: str  # every battle's ruleset
    status: str  # active | finished
    scenarios: list[str]
    scenario_names: list[str] = []  # the scenarios' names, in order
    options: dict[str, Any]
    players: dict[str, str | None]
    wins: dict[str, int]  # campaign victories per side
    battles: list[BattleOut]
    next: BattleOut | None  # the battle to create next (its pre-battle dice)
    winner: str | None  # the campaign's winner once finished (None: draw)
