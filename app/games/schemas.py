from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class GameCreate(BaseModel):
    scenario_id: str = Field(examples=["2-PegasusBridge"])
    mode: str | None = Field(default=None, description="1v1 | team | overlord; default: the "
                             "scenario's natural mode (its first ScenarioSummary.modes entry)")
    layout: dict[str, str] | None = Field(
        default=None, examples=[{"AXIS": "4", "ALLIES": "3"}],
        description="players per side (team/overlord): overlord 4|3|2|1 (default 4), "
                    "team 3|2|1 (default 3)")
    bots: list[str] = Field(default_factory=list,
                            description="slots (or seats of slots) the server's bot plays")
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    seat: str | None = Field(default=None, description="claim this slot (or the slot of this "
                             "seat) for the creator at once")
    seed: int | None = Field(default=None, ge=0, lt=2**63,
                             description="fixed RNG seed (tests); random when omitted")


class SeatOut(BaseModel):
    seat: str
    side: str
    role: str
    slot: str
    taken: bool
    name: str | None
    is_bot: bool
    mine: bool
    bot_reason: str | None = None
    held_by: str | None = Field(default=None, description="the player's name, also while a bot "
                                "stands in for him (bot_reason away/assigned)")


class SlotOut(BaseModel):
    slot: str
    side: str
    seats: list[str]
    taken: bool
    name: str | None
    is_bot: bool
    mine: bool
    bot_reason: str | None = None


class GameSummary(BaseModel):
    id: str
    scenario_id: str
    scenario_name: str
    mode: str
    layout: dict[str, str]
    options: dict[str, Any]
    private: bool
    status: str
    seq: int
    to_act: list[str]
    turn: int | None
    winner: str | None
    created_at: datetime
    seats: list[SeatOut]
    slots: list[SlotOut]
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


class EventEntry(BaseModel):
    seq: int
    seat: str
    events: list[dict[str, Any]]


class GameEvents(BaseModel):
    game_id: str
    seq: int
    seats: list[str]
    entries: list[EventEntry]
    next_since: int | None = Field(default=None, description="more entries follow: ask again "
                                   "with since=next_since (at most EVENTS_PAGE per answer)")


class OptionalRuleOut(BaseModel):
    """One named optional rule a game may switch on (``GameCreate.options``)."""
    name: str
    description: str
    source: str
    implemented: bool
    values: list[Any] | None = None     # the value must be one of these (else ``true``)
    unit_types: dict[str, str] | None = None   # a mapping rule: its type names -> 004 names
    example: dict[str, Any] | None = None      # the value may be a JSON object like this one


class InviteOut(BaseModel):
    game_id: str
