"""ORM models (SQLAlchemy 2 typed mappings).  Schema changes go through migrations/."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (JSON, BigInteger, Boolean, DateTime, ForeignKey, Index, Integer,
                        LargeBinary, String, Text, UniqueConstraint)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import Base


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Identity(Base):
    __tablename__ = "identities"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AuthSession(Base):
    """One issued token (only its SHA-256): revocable and expiring (migration 0004)."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    identity_id: Mapped[str] = mapped_column(ForeignKey("identities.id", ondelete="CASCADE"),
                                             index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str | None] = mapped_column(String(120), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ScenarioRow(Base):
    __tablename__ = "scenarios"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    source: Mapped[str] = mapped_column(String(16))          # bundled | uploaded
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    content: Mapped[str] = mapped_column(Text)               # the .m44 JSON text
    uploaded_by: Mapped[str | None] = mapped_column(ForeignKey("identities.id"), nullable=True,
                                                    index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # the parsed ScenarioSummary fields, stored once at upload (listing never re-parses)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class Game(Base):
    __tablename__ = "games"
    # one return match per game (concurrent requests: one wins, the others get a 409)
    __table_args__ = (Index("uq_games_rematch_of", "rematch_of", unique=True),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    # the rule system (engine registry name) and its version when the game was created
    ruleset: Mapped[str] = mapped_column(String(32), default="m44", server_default="m44")
    ruleset_version: Mapped[str] = mapped_column(String(16), default="1", server_default="1")
    # NULL for rulesets whose setup is played as actions (``setup == "none"``)
    scenario_id: Mapped[str | None] = mapped_column(ForeignKey("scenarios.id"), nullable=True)
    scenario_name: Mapped[str] = mapped_column(String(200))   # or the ruleset's title
    mode: Mapped[str] = mapped_column(String(32))             # one of the ruleset's modes
    # deprecated (0002): the mode the pre-ruleset engine was called with; kept for old rows
    engine_mode: Mapped[str] = mapped_column(String(32), default="standard", server_default="standard")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)        # the engine RNG seed (secret while live)
    # fair dice (docs/protocol.md "Fair dice"): the server's secret seed and salt (hex,
    # revealed when the game ends) and the public commitment SHA-256(seed || salt);
    # None for test seeds and for games created before fair dice
    seed_secret: Mapped[str | None] = mapped_column(String(128), nullable=True)
    seed_salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # why the log no longer replays ({"reason", "detail", "seq"}); status is then "unplayable"
    unplayable: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_code: Mapped[str] = mapped_column(String(64), unique=True)
    status: Mapped[str] = mapped_column(String(16), index=True)   # open | live | finished | unplayable
    seq: Mapped[int] = mapped_column(Integer, default=0)           # optimistic concurrency
    turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    to_act: Mapped[list[str]] = mapped_column(JSON, default=list)
    winner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("identities.id"), nullable=True)
    layout: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)  # side -> layout
    bot_owner: Mapped[str | None] = mapped_column(String(40), nullable=True)    # worker driving bots
    bot_lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # remote play (0004_remote): the turn clock chosen at creation (app/clocks), when the
    # game went live (the clocks start), the game this one is the return match of
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.id",
                                             lazy="selectin")


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat", name="uq_seats_game_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(40))
    side: Mapped[str] = mapped_column(String(20))
    role: Mapped[str] = mapped_column(String(20))
    identity_id: Mapped[str | None] = mapped_column(ForeignKey("identities.id"), nullable=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    # the player slot (seats claimed together by one identity), e.g. "ALLIES:cinc+centre"
    slot: Mapped[str | None] = mapped_column(String(80), nullable=True)
    # why a bot plays the seat: creator | assigned | left | away (away: the identity,
    # still recorded, takes the seat back when it reconnects)
    bot_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # the level of the bot playing the seat (app.engine_api.bot_levels); None: the default
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    last_seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    game: Mapped[Game] = relationship(back_populates="seats")
    identity: Mapped[Identity | None] = relationship(lazy="selectin")


class ActionRow(Base):
    """The append-only log: one row per accepted action or chance roll."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                    primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(40))
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Snapshot(Base):
    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[bytes] = mapped_column(LargeBinary)
    # a timed game's clock fold after ``seq`` (``Clock.dump``; SQL NULL: untimed, or
    # written by an older release): a cold start folds only the log rows after it
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_game_channel", "game_id", "channel", "id"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                    primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(40))
    identity_id: Mapped[str | None] = mapped_column(ForeignKey("identities.id"), nullable=True)
    seat: Mapped[str | None] = mapped_column(String(40), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Campaign(Base):
    """004 "Simplified Campaign Rules": an ordered list of scenarios played by the same
    two sides (players or teams); each battle is an ordinary game (campaign_battles)."""

    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    created_by: Mapped[str | None] = mapped_column(ForeignKey("identities.id"), nullable=True)
    scenarios: Mapped[list[str]] = mapped_column(JSON, default=list)   # scenario ids, in order
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # every battle's options
    # side -> identity id (or "bot") playing it in every battle
    players: Mapped[dict[str, str | None]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="active")    # active | finished
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    battles: Mapped[list[CampaignBattle]] = relationship(
        back_populates="campaign", order_by="CampaignBattle.index", lazy="selectin")


class CampaignBattle(Base):
    __tablename__ = "campaign_battles"
    __table_args__ = (UniqueConstraint("campaign_id", "index", name="uq_campaign_battle"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"),
                                             index=True)
    index: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    dice: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)   # pre-battle dice
    winner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    medals: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True)  # at game end

    campaign: Mapped[Campaign] = relationship(back_populates="battles")
