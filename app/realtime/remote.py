"""Websocket messages of remote play: ``resign``, ``undo``, ``claim_win`` and
``absent_bot`` (docs/protocol.md).  Outcomes are log entries folded by ``engine.meta``
(so a replay ends where the live game did); the server decides who may ask, the engine
what an entry does (``undo``: only what ``engine.meta.undoable`` allowed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import update

from ..models import Seat

if TYPE_CHECKING:
    from ..games.runtime import GameRuntime
    from .connection import Connection
    from .hub import Hub

TYPES = ("resign", "undo", "claim_win", "absent_bot")


def _reject(
    conn: Connection, rt: GameRuntime, msg_id: Any, code: str, message: str, **details: Any
) -> None:
    conn.send_json(
        {
            "type": "reject",
            "id": msg_id,
            "code": code,
            "message": message,
            "seq": rt.seq,
            "details": details,
        }
    )


def _seat(conn: Connection, msg: dict[str, Any]) -> str | None:
    seat = msg.get("seat")
    if isinstance(seat, str) and seat in conn.seats:
        return seat
    return conn.seat


async def handle(
    hub: Hub, rt: GameRuntime, conn: Connection, mtype: str, msg: dict[str, Any]
) -> None:
    msg_id = msg.get("id")
    seat = _seat(conn, msg)
    if seat is None:
        return _reject(conn, rt, msg_id, "not_seated", "spectators cannot do this")
    if mtype == "resign":
        await hub.act(rt, conn, seat, rt.seq, {"type": "resign"}, msg_id, meta=True)
    elif mtype == "undo":
        if not rt.fold.undo_supported:
            return _reject(
                conn,
                rt,
                msg_id,
                "undo_not_supported",
                "this game's rules cannot tell which moves may be taken back",
            )
        target = rt.fold.undo_target(seat)
        if target is None:
            return _reject(
                conn,
                rt,
                msg_id,
                "nothing_to_undo",
                "nothing to take back: dice were rolled, a card drawn, something "
                "hidden revealed or the opponent has acted since",
            )
        await hub.act(rt, conn, seat, rt.seq, {"type": "undo", "undoes": target}, msg_id, meta=True)
    elif mtype in ("claim_win", "absent_bot"):
        mine = rt.seats[seat].side
        other = next((s.side for s in rt.seats.values() if s.side != mine), None)
        gone = hub.presence.gone_seats(rt, other) if other else None
        if not gone:
            return _reject(
                conn,
                rt,
                msg_id,
                "opponent_present",
                f"the opponent has not been gone for {int(hub.presence.grace)} s",
            )
        if rt.status != "live":
            return _reject(
                conn,
                rt,
                msg_id,
                "game_over" if rt.status == "finished" else "game_not_started",
                "the game is not being played",
            )
        if mtype == "claim_win":
            await hub.act(rt, conn, gone[0], rt.seq, {"type": "forfeit"}, msg_id, meta=True)
            return None
        db = hub.db
        async with db.writing() as s:
            await s.execute(
                update(Seat)
                .where(Seat.game_id == rt.game_id, Seat.seat.in_(gone), Seat.is_bot.is_(False))
                .values(is_bot=True, bot_reason="away")
                .execution_options(synchronize_session=False)
            )
            await s.commit()
        conn.send_json({"type": "ack", "id": msg_id, "seq": rt.seq})
        await hub.games.seats_changed(rt.game_id)
    return None
