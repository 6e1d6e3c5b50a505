from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field, field_validator

from ..inputs import has_control


class IdentityCreate(BaseModel):
    name: str = Field(min_length=1, max_length=40, examples=["Rommel"])

    @field_validator("name")
    @classmethod
    def _strip(cls, v: str) -> str:
        if has_control(v):
            raise ValueError("name must not contain control characters")
        v = " ".join(v.split())
        if not v:
            raise ValueError("name must not be blank")
        return v


class IdentityOut(BaseModel):
    id: str
    name: str


class IdentityCreated(IdentityOut):
    token: str


class SessionOut(BaseModel):
    id: str
    label: str | None
    created_at: datetime
    expires_at: datetime
    current: bool
