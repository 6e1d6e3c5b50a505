"""ORM models (SQLAlchemy 2 typed mappings).  Schema changes go through migrations/."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
)
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
    # an account (0009_accounts; a guest has none of these): the name normalised
    # (``app.accounts.service.name_key``: NFKC, case-folded) is unique, so "Rommel" and
    # "rommel" cannot both register; the password as a pwdlib (argon2id) hash
    __table_args__ = (UniqueConstraint("name_key", name="uq_identities_name_key"),)
    name_key: Mapped[str | None] = mapped_column(String(40), nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    registered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # notification kind -> on/off (a kind absent is on; app/notifications)
    notify: Mapped[dict[str, bool] | None] = mapped_column(JSON, nullable=True)
    # the language its e-mails and notifications are written in (app/i18n.py; none:
    # English): the page language of its last sign-in, registration or language switch
    lang: Mapped[str | None] = mapped_column(String(8), nullable=True)


class AuthSession(Base):
    """One issued token (only its SHA-256): revocable and expiring (migration 0004)."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    identity_id: Mapped[str] = mapped_column(
        ForeignKey("identities.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str | None] = mapped_column(String(120), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ScenarioRow(Base):
    __tablename__ = "scenarios"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    source: Mapped[str] = mapped_column(String(16))  # bundled | uploaded
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    content: Mapped[str] = mapped_column(Text)  # the .m44 JSON text
    uploaded_by: Mapped[str | None] = mapped_column(
        ForeignKey("identities.id"), nullable=True, index=True
    )
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
    scenario_name: Mapped[str] = mapped_column(String(200))  # or the ruleset's title
    mode: Mapped[str] = mapped_column(String(32))  # one of the ruleset's modes
    # deprecated (0002): the mode the pre-ruleset engine was called with; kept for old rows
    engine_mode: Mapped[str] = mapped_column(
        String(32), default="standard", server_default="standard"
    )
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)  # the engine RNG seed (secret while live)
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
    status: Mapped[str] = mapped_column(
        String(16), index=True
    )  # open | live | finished | unplayable
    seq: Mapped[int] = mapped_column(Integer, default=0)  # optimistic concurrency
    turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    to_act: Mapped[list[str]] = mapped_column(JSON, default=list)
    winner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("identities.id"), nullable=True)
    layout: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)  # side -> layout
    bot_owner: Mapped[str | None] = mapped_column(String(40), nullable=True)  # worker driving bots
    bot_lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # remote play (0004_remote): the turn clock chosen at creation (app/clocks), when the
    # game went live (the clocks start), the game this one is the return match of
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # rated (0009_accounts): chosen at creation; the result then updates the players'
    # Glicko-2 ratings unless the game turns out casual (app/ratings/service.py)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.id", lazy="selectin"
    )


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

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(40))
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Snapshot(Base):
    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[bytes] = mapped_column(LargeBinary)
    # a timed game's clock fold after ``seq`` (``Clock.dump``; SQL NULL: untimed, or
    # written by an older release): a cold start folds only the log rows after it
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_game_channel", "game_id", "channel", "id"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
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
    scenarios: Mapped[list[str]] = mapped_column(JSON, default=list)  # scenario ids, in order
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # every battle's options
    # side -> identity id (or "bot") playing it in every battle
    players: Mapped[dict[str, str | None]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="active")  # active | finished
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    battles: Mapped[list[CampaignBattle]] = relationship(
        back_populates="campaign", order_by="CampaignBattle.index", lazy="selectin"
    )


class CampaignBattle(Base):
    __tablename__ = "campaign_battles"
    __table_args__ = (UniqueConstraint("campaign_id", "index", name="uq_campaign_battle"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    index: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    dice: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)  # pre-battle dice
    winner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    medals: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True)  # at game end

    campaign: Mapped[Campaign] = relationship(back_populates="battles")


class Offer(Base):
    """A game offered to one account (app/offers): a return match or a challenge.  The
    game is created when the addressee accepts (both players in); ``rematch_of`` is
    unique, so a finished game has at most one return-match offer."""

    __tablename__ = "offers"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # rematch | challenge
    from_id: Mapped[str] = mapped_column(
        ForeignKey("identities.id", ondelete="CASCADE"), index=True
    )
    to_id: Mapped[str] = mapped_column(ForeignKey("identities.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending | accepted
    #                                                 | declined | cancelled
    spec: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # the game to create
    rematch_of: Mapped[str | None] = mapped_column(String(32), unique=True, nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Notice(Base):
    """A notification sent (app/notifications): unique per identity, kind and key (e.g.
    one "your turn" per game and turn), so that it is sent at most once."""

    __tablename__ = "notices"
    __table_args__ = (UniqueConstraint("identity_id", "kind", "key", name="uq_notices_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    identity_id: Mapped[str] = mapped_column(ForeignKey("identities.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(24))
    key: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushSubscription(Base):
    """A browser's Web Push subscription (its endpoint and keys) for one identity."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    identity_id: Mapped[str] = mapped_column(
        ForeignKey("identities.id", ondelete="CASCADE"), index=True
    )
    endpoint: Mapped[str] = mapped_column(String(500), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """An account's Glicko-2 rating in one rule system (app/ratings)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_ruleset_rating", "ruleset", "rating"),)

    identity_id: Mapped[str] = mapped_column(
        ForeignKey("identities.id", ondelete="CASCADE"), primary_key=True
    )
    ruleset: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatedGame(Base):
    """A finished game whose result was applied to the ratings (once; primary key), or
    judged casual (``rated`` false, ``reason`` why)."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    rated: Mapped[bool] = mapped_column(Boolean)
    reason: Mapped[str | None] = mapped_column(String(40), nullable=True)
    changes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # identity -> before/after
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
