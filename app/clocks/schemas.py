from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class ClockIn(BaseModel):
    """The turn clock of a game, chosen at creation (``POST /api/games`` ``clock``)."""

    kind: Literal["none", "bank", "move"] = Field(
        default="none",
        description="none | bank (a time bank per side + an increment per "
        "turn, chess style) | move (a fixed time per decision; days for correspondence)",
    )
    initial_seconds: int = Field(
        default=600, ge=10, le=30 * 86400, description="bank: each side's time at the start"
    )
    increment_seconds: int = Field(
        default=10, ge=0, le=7 * 86400, description="bank: added when the side's turn ends"
    )
    move_seconds: int = Field(
        default=60,
        ge=5,
        le=30 * 86400,
        description="move: the time for each decision (correspondence: days x 86400)",
    )
    on_timeout: Literal["lose", "bot"] = Field(
        default="lose",
        description="lose: the side out of time loses (a `timeout` log "
        "entry); bot: the server's bot decides for it while it has no time left",
    )
    bot_level: Literal["easy", "normal", "hard", "random"] = Field(
        default="normal",
        description="on_timeout bot: the level of the computer player "
        "deciding for a side out of time (engine/ai, docs/ai.md)",
    )
