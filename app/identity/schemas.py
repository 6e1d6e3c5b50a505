from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


class IdentityCreate(BaseModel):
    name: str = Field(min_length=1, max_length=40, examples=["Rommel"])

    @field_validator("name")
    @classmethod
    def _strip(cls, v: str) -> str:
        v = " ".join(v.split())
        if not v:
            raise ValueError("name must not be blank")
        return v


class IdentityOut(BaseModel):
    id: str
    name: str


class IdentityCreated(IdentityOut):
    token: str
