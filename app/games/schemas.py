from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class GameCreate(BaseModel):
    scenario_id: str = Field(examples=["2-PegasusBridge"])
    mode: str = "1v1"
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    seat: str | None = Field(default=None, description="claim this seat for the creator at once")
    seed: int | None = Field(default=None, ge=0, lt=2**63,
                             description="fixed RNG seed (tests); random when omitted")


class SeatOut(BaseModel):
    seat: str
    side: str
    role: str
    taken: bool
    name: str | None
    is_bot: bool
    mine: bool


class GameSummary(BaseModel):
    id: str
    scenario_id: str
    scenario_name: str
    mode: str
    options: dict[str, Any]
    private: bool
    status: str
    seq: int
    to_act: list[str]
    turn: int | None
    winner: str | None
    created_at: datetime
    seats: list[SeatOut]
    url: str


class GameCreated(GameSummary):
    invite: str
    invite_url: str


class ClaimBody(BaseModel):
    invite: str | None = None


class LogEntry(BaseModel):
    seq: int
    seat: str
    action: dict[str, Any]


class GameLog(BaseModel):
    game_id: str
    scenario_id: str
    scenario: dict[str, Any]
    seed: int
    mode: str
    engine_mode: str
    options: dict[str, Any]
    winner: str | None
    actions: list[LogEntry]


class InviteOut(BaseModel):
    game_id: str
