"""Persistence of games, seats, the append-only action log and state snapshots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    bindparam,
    case,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..db import is_sqlite
from ..models import ActionRow, Game, Seat, Snapshot, utcnow


class StaleSeq(Exception):
    """Another writer appended to the game's log first (optimistic concurrency)."""


async def get(session: AsyncSession, game_id: str) -> Game | None:
    return await session.get(Game, game_id)


async def by_invite(session: AsyncSession, code: str) -> Game | None:
    res = await session.execute(select(Game).where(Game.invite_code == code))
    return res.scalar_one_or_none()


async def list_games(
    session: AsyncSession,
    statuses: Sequence[str],
    limit: int = 100,
    viewer: str | None = None,
    offset: int = 0,
) -> tuple[list[Game], int]:
    """The lobby: public games, and the private ones ``viewer`` created or plays in; one
    page (``offset``, ``limit``) of them, open games first, then live, then the others,
    newest first within each; and how many there are in all."""
    visible: ColumnElement[bool] = Game.private.is_(False)
    if viewer is not None:
        visible = (
            visible
            | (Game.created_by == viewer)
            | Game.id.in_(select(Seat.game_id).where(Seat.identity_id == viewer))
        )
    where = (Game.status.in_(list(statuses)), visible)
    rank = case((Game.status == "open", 0), (Game.status == "live", 1), else_=2)
    res = await session.execute(
        select(Game)
        .where(*where)
        .order_by(rank, Game.created_at.desc(), Game.id.desc())
        .offset(offset)
        .limit(limit)
    )
    total = await session.execute(select(func.count()).select_from(Game).where(*where))
    return list(res.scalars()), int(total.scalar_one())


async def add(session: AsyncSession, game: Game, seats: list[Seat]) -> None:
    session.add(game)
    await session.flush()
    session.add_all(seats)
    await session.flush()


async def seats_of(session: AsyncSession, game_id: str) -> list[Seat]:
    res = await session.execute(select(Seat).where(Seat.game_id == game_id).order_by(Seat.id))
    return list(res.scalars())


async def set_seat(
    session: AsyncSession,
    game_id: str,
    seat: str,
    *,
    identity_id: str | None,
    is_bot: bool,
    only_if_free: bool,
) -> bool:
    """Atomically give a seat to an identity (or a bot, or nobody).  With ``only_if_free``
    the update happens only when nobody holds the seat; returns whether it happened."""
    stmt = update(Seat).where(Seat.game_id == game_id, Seat.seat == seat)
    if only_if_free:
        stmt = stmt.where(Seat.identity_id.is_(None), Seat.is_bot.is_(False))
    res = await session.execute(
        stmt.values(identity_id=identity_id, is_bot=is_bot).execution_options(
            synchronize_session=False
        )
    )
    return bool(res.rowcount)  # type: ignore[attr-defined]


async def set_fields(session: AsyncSession, game_id: str, **fields: Any) -> None:
    await session.execute(
        update(Game)
        .where(Game.id == game_id)
        .values(updated_at=utcnow(), **fields)
        .execution_options(synchronize_session=False)
    )


_GAMES, _ACTIONS = cast(Table, Game.__table__), cast(Table, ActionRow.__table__)
# the hot append, built once: the compare-and-set of games.seq and the log rows (Core
# statements on the transaction's connection: no ORM unit of work per action)
_CAS = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("g_id"), _GAMES.c.seq == bindparam("old_seq"))
    .values(
        seq=bindparam("new_seq"),
        updated_at=bindparam("now"),
        status=bindparam("status"),
        turn=bindparam("turn"),
        to_act=bindparam("to_act"),
        winner=bindparam("winner"),
    )
)
_ROWS = insert(_ACTIONS)
_SNAPSHOTS = insert(cast(Table, Snapshot.__table__))


def append(
    conn: Connection,
    game_id: str,
    old_seq: int,
    entries: list[tuple[str, dict[str, Any]]],
    fields: dict[str, Any],
) -> None:
    """One game's append in the caller's transaction: the compare-and-set on
    ``games.seq`` and the rows (unique ``(game_id, seq)``).  Raises :class:`StaleSeq` if
    another writer got there first; the caller's transaction then rolls back and nothing
    is written.  Synchronous: SQLite's log connection calls it on the loop
    (``Database.write_log``), PostgreSQL's async connection through ``run_sync``."""
    now = utcnow()
    cas = {
        "g_id": game_id,
        "old_seq": old_seq,
        "new_seq": old_seq + len(entries),
        "now": now,
        **{k: fields[k] for k in ("status", "turn", "to_act", "winner")},
    }
    rows = [
        {"game_id": game_id, "seq": old_seq + i, "seat": seat, "action": action, "created_at": now}
        for i, (seat, action) in enumerate(entries, 1)
    ]
    try:
        if conn.execute(_CAS, cas).rowcount != 1:
            raise StaleSeq()
        conn.execute(_ROWS, rows)
    except IntegrityError:
        raise StaleSeq() from None


class LogWriter:
    """Commits accepted actions: ``append`` is durable when it returns True (False: the
    compare-and-set lost, nothing written).  Each append is a transaction of its own:
    on PostgreSQL one of the async engine (concurrent ones only meet on the game's row),
    on SQLite one of the log's connection on the loop (``Database.write_log``), so an
    action goes from its frame to its commit and its broadcast without waiting for
    another task."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.on_loop = is_sqlite(db.url)

    async def append(
        self,
        game_id: str,
        old_seq: int,
        entries: list[tuple[str, dict[str, Any]]],
        fields: dict[str, Any],
    ) -> bool:
        try:
            if self.on_loop:
                await self.db.write_log(
                    lambda conn: append(conn, game_id, old_seq, entries, fields)
                )
            else:
                async with self.db.transaction() as conn:
                    await conn.run_sync(append, game_id, old_seq, entries, fields)
            return True
        except StaleSeq:
            return False

    async def snapshot(
        self, game_id: str, seq: int, state: bytes, clock: dict[str, Any] | None
    ) -> None:
        """Store a state snapshot (``snapshots`` row) the way the log is written: on
        SQLite in a transaction of the log's connection (no hand-over to aiosqlite's
        thread), on PostgreSQL in a Core transaction."""
        row = {"game_id": game_id, "seq": seq, "state": state, "clock": clock}
        row["created_at"] = utcnow()
        if not self.on_loop:
            async with self.db.transaction() as conn:
                await conn.execute(_SNAPSHOTS, row)
            return
        await self.db.write_log(lambda conn: conn.execute(_SNAPSHOTS, row))


async def actions_after(session: AsyncSession, game_id: str, after_seq: int) -> list[ActionRow]:
    res = await session.execute(
        select(ActionRow)
        .where(ActionRow.game_id == game_id, ActionRow.seq > after_seq)
        .order_by(ActionRow.seq)
    )
    return list(res.scalars())


async def latest_snapshot(session: AsyncSession, game_id: str) -> Snapshot | None:
    res = await session.execute(
        select(Snapshot).where(Snapshot.game_id == game_id).order_by(Snapshot.seq.desc()).limit(1)
    )
    return res.scalar_one_or_none()


async def claim_slot(session: AsyncSession, game_id: str, slot: str, identity_id: str) -> int:
    """Give every seat of a slot to an identity where nobody else holds it (a free seat, a
    bot playing for nobody, or the identity's own seat a bot plays); returns the rows
    changed (the caller rolls back unless it is the whole slot)."""
    res = await session.execute(
        update(Seat)
        .where(
            Seat.game_id == game_id,
            Seat.slot == slot,
            (Seat.identity_id.is_(None)) | (Seat.identity_id == identity_id),
        )
        .values(identity_id=identity_id, is_bot=False, bot_reason=None, last_seen=utcnow())
        .execution_options(synchronize_session=False)
    )
    return int(res.rowcount)  # type: ignore[attr-defined]


async def set_slot(
    session: AsyncSession,
    game_id: str,
    slot: str,
    *,
    identity_id: str | None,
    is_bot: bool,
    bot_reason: str | None,
    bot_level: str | None = None,
) -> None:
    await session.execute(
        update(Seat)
        .where(Seat.game_id == game_id, Seat.slot == slot)
        .values(
            identity_id=identity_id,
            is_bot=is_bot,
            bot_reason=bot_reason,
            bot_level=bot_level if is_bot else None,
        )
        .execution_options(synchronize_session=False)
    )


async def log_times(
    session: AsyncSession, game_id: str, after: int = 0, upto: int | None = None
) -> list[tuple[str, Any]]:
    """(seat, created_at) of the log rows ``after+1..upto`` in seq order: the turn
    clocks' fold."""
    q = select(ActionRow.seat, ActionRow.created_at).where(
        ActionRow.game_id == game_id, ActionRow.seq > after
    )
    if upto is not None:
        q = q.where(ActionRow.seq <= upto)
    rows = await session.execute(q.order_by(ActionRow.seq))
    return [(seat, at) for seat, at in rows.all()]


async def clock_snapshot(
    session: AsyncSession, game_id: str, before: int | None = None
) -> tuple[int, dict[str, Any]] | None:
    """(seq, clock fold) of the latest snapshot that has one (at a seq below ``before``)."""
    q = select(Snapshot.seq, Snapshot.clock).where(
        Snapshot.game_id == game_id, Snapshot.clock.is_not(None)
    )
    if before is not None:
        q = q.where(Snapshot.seq < before)
    row = (await session.execute(q.order_by(Snapshot.seq.desc()).limit(1))).first()
    return (int(row[0]), dict(row[1])) if row is not None else None
