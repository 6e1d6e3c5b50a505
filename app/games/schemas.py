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
                             description="test servers only (OVERLORD_TEST_SEEDS=1): a fixed "
                             "engine RNG seed; refused otherwise (seed_not_allowed)")


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
    fair_dice: dict[str, Any] = Field(description="{commitment, verify_url} and, once the game "
                                      "is finished, seed and salt (docs/protocol.md \"Fair dice\")")
    ruleset: str = "m44"
    engine_version: str = Field(description="the engine the game was created with "
                                "(\"0\": before versioning)")
    unplayable: dict[str, Any] | None = Field(
        default=None, description="status unplayable: why the log no longer replays "
        "({reason, detail, seq}: the engine's code and message, the first log entry that fails)")


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
    """A finished game's exported log (docs/protocol.md "Finished game log"): what
    ``python -m engine verify LOG.json`` checks."""
    format: str
    game_id: str
    ruleset: str
    engine_version: str
    scenario_id: str
    scenario_sha256: str
    scenario: dict[str, Any]
    mode: str
    engine_mode: str
    options: dict[str, Any]
    commitment: str | None
    seed: str | None
    salt: str | None
    rng_seed: int
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
