from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from ..clocks.schemas import ClockIn


class GameCreate(BaseModel):
    ruleset: str | None = Field(
        default=None,
        examples=["m44"],
        description="a registered "
        "ruleset (GET /api/rulesets); default: the first ruleset "
        "accepting the scenario in ``mode`` (m44, or overlord for "
        "modes team/overlord and Overlord boards)",
    )
    scenario_id: str | None = Field(
        default=None,
        examples=["2-PegasusBridge"],
        description="required by rulesets whose setup is 'scenario'; none for setup 'none'",
    )
    mode: str | None = Field(
        default=None,
        description="one of the ruleset's modes (1v1 | "
        "team | overlord for Memoir '44); default: the natural mode "
        "(the first the ruleset accepts the scenario in)",
    )
    layout: dict[str, str] | None = Field(
        default=None,
        examples=[{"AXIS": "4", "ALLIES": "3"}],
        description="players per side (team/overlord): overlord 4|3|2|1 (default 4), "
        "team 3|2|1 (default 3)",
    )
    bots: list[str] = Field(
        default_factory=list, description="slots (or seats of slots) the server's bot plays"
    )
    bot_level: str | None = Field(
        default=None,
        max_length=16,
        description="the level of those bots: one of GET /api/bot-levels (default: the first)",
    )
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    seat: str | None = Field(
        default=None,
        description="claim this slot (or the slot of this seat) for the creator at once",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        lt=2**63,
        description="test servers only (OVERLORD_TEST_SEEDS=1): a fixed "
        "engine RNG seed; refused otherwise (seed_not_allowed)",
    )
    clock: ClockIn | None = Field(
        default=None, description="the turn clock (app/clocks); none when omitted"
    )
    rated: bool = Field(
        default=False,
        description="rated (the result updates the players' "
        "ratings, app/ratings) or casual; a game against a bot, ended before "
        "turn 2, with an undo, or with a guest is casual whatever is chosen",
    )


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
    bot_level: str | None = None  # a bot's level (app.engine_api.bot_levels)
    held_by: str | None = Field(
        default=None,
        description="the player's name, also while a bot "
        "stands in for him (bot_reason away/assigned)",
    )


class SlotOut(BaseModel):
    slot: str
    side: str
    seats: list[str]
    taken: bool
    name: str | None
    is_bot: bool
    mine: bool
    bot_reason: str | None = None
    bot_level: str | None = None


class GameSummary(BaseModel):
    id: str
    ruleset: str = "m44"
    ruleset_version: str = "1"
    renderer: str = "hex"
    scenario_id: str | None
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
    fair_dice: dict[str, Any] = Field(
        description="{commitment, verify_url} and, once the game "
        'is finished, seed and salt (docs/protocol.md "Fair dice")'
    )
    unplayable: dict[str, Any] | None = Field(
        default=None,
        description="status unplayable: why the log no longer replays "
        "({reason, detail, seq}: the engine's code and message, the first log entry that fails)",
    )
    clock: dict[str, Any] | None = None  # the clock settings (ClockIn), null: untimed
    rematch_of: str | None = None  # the first game of a return match
    created_by_me: bool = False  # the caller created it (starts it, gives seats to bots)
    rated: bool = False  # chosen at creation (docs/protocol.md "Ratings")


class GameCreated(GameSummary):
    invite: str
    invite_url: str


class ClaimBody(BaseModel):
    invite: str | None = None


class BotBody(BaseModel):
    """``POST .../seats/{seat}/bot`` and ``POST .../start``: the bots' level."""

    level: str | None = Field(
        default=None, max_length=16, description="one of GET /api/bot-levels (default: the first)"
    )


class BotLevelsOut(BaseModel):
    levels: list[str]
    default: str


class LogEntry(BaseModel):
    seq: int
    seat: str
    action: dict[str, Any]


class GameLog(BaseModel):
    """A finished game's exported log (docs/protocol.md "Finished game log"): what
    ``python -m engine verify LOG.json`` checks."""

    format: str
    game_id: str
    ruleset: str = "m44"
    ruleset_version: str = "1"
    scenario_id: str | None
    scenario_sha256: str | None
    scenario: dict[str, Any] | None
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
    # the units of the game's first state (public view): the client names units in the
    # log where they stood, moving them with the events (live == reload)
    units: list[dict[str, Any]] = []
    next_since: int | None = Field(
        default=None,
        description="more entries follow: ask again "
        "with since=next_since (at most 500 entries per answer)",
    )


class OptionalRuleOut(BaseModel):
    """One named optional rule a game may switch on (``GameCreate.options``)."""

    name: str
    description: str
    source: str
    implemented: bool
    values: list[Any] | None = None  # the value must be one of these (else ``true``)
    unit_types: dict[str, str] | None = None  # a mapping rule: its type names -> 004 names
    example: dict[str, Any] | None = None  # the value may be a JSON object like this one
    prefill: bool | None = None  # the lobby fills the value in with ``example`` to edit
    value_descriptions: dict[str, str] | None = None  # a rules summary per value (variants)


class PreviewBody(BaseModel):
    """``POST /api/rulesets/{name}/preview``: an action and the game's options."""

    options: dict[str, Any] = Field(default_factory=dict)
    action: dict[str, Any]


class RulesetOut(BaseModel):
    """A registered rule system (``engine.core.ruleset.Ruleset``) as the lobby lists it."""

    name: str
    version: str
    title: str
    summary: str
    setup: str  # "scenario": needs a scenario_id; "none": set-up is played
    renderer: str  # the client module drawing it: "hex" or static/renderers/<name>.js
    panels: list[str]  # the renderer's optional panels its games use (Ruleset.panels)
    mode_panels: dict[str, list[str]]  # mode -> the panels its games use (panels_for)
    stand_in_modes: list[str]  # modes where a bot stands in for a leaver (bots_stand_in)
    modes: list[str]
    options: list[dict[str, Any]]  # Ruleset.options(): {"name", "description", ...}
    campaign: bool = False  # plays the battles of a campaign (POST /api/campaigns)


class InviteOut(BaseModel):
    game_id: str
