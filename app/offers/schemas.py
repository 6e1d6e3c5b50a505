"""Bodies of the offer endpoints (docs/protocol.md "Offers")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from ..accounts.schemas import AccountName
from ..clocks.schemas import ClockIn


class ChallengeIn(BaseModel):
    """A 1v1 game offered to the account ``to``: any ruleset and scenario, a clock."""

    to: AccountName
    ruleset: str | None = Field(default=None, max_length=32)
    scenario_id: str | None = Field(default=None, max_length=80)
    mode: str | None = Field(default=None, max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    clock: ClockIn | None = None
    rated: bool = False
    private: bool = False
    seat: str | None = Field(
        default=None,
        max_length=40,
        description="the challenger's side (default: the first)",
    )

    model_config = {"extra": "forbid"}


class OfferOut(BaseModel):
    id: str
    kind: str  # rematch | challenge
    status: str  # pending | accepted | declined | cancelled
    from_name: str
    to_name: str
    mine: bool  # sent by the caller
    ruleset: str | None
    scenario_id: str | None
    scenario_name: str | None
    mode: str | None
    clock: dict[str, Any] | None
    rated: bool
    seat: str | None  # the side the sender plays
    rematch_of: str | None
    game_id: str | None
    game_url: str | None
    created_at: datetime
    decided_at: datetime | None
