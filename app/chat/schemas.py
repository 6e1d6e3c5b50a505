from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class ChatOut(BaseModel):
    type: str = "chat"
    id: int
    channel: str
    seat: str | None
    name: str
    text: str
    ts: datetime
