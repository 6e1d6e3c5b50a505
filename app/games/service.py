"""Games: creation, seats (claim / leave / bot), public summaries, finished logs."""
from __future__ import annotations

import json
import secrets
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from ..engine_api import E
from ..errors import Conflict, Forbidden, NotFound, Unprocessable
from ..models import ActionRow, Game, Identity, Seat
from ..scenarios import repository as scenario_repo
from ..scenarios import service as scenarios
from ..security import new_id
from . import repository
from .modes import get_mode, modes_for
from .runtime import SeatInfo, game_fields, settle_chance
from .schemas import GameCreate, GameCreated, GameLog, GameSummary, LogEntry, SeatOut

LIVE_STATUSES = ("open", "live")


class Notifier(Protocol):
    async def seats_changed(self, game_id: str) -> None: ...


def summary(game: Game, me: Identity | None = None) -> GameSummary:
    seats = [SeatInfo.of(s).public(me.id if me else None) for s in game.seats]
    return GameSummary(
        id=game.id, scenario_id=game.scenario_id, scenario_name=game.scenario_name,
        mode=game.mode, options=game.options or {}, private=game.private, status=game.status,
        seq=game.seq, to_act=list(game.to_act or []), turn=game.turn, winner=game.winner,
        created_at=game.created_at, seats=[SeatOut(**s) for s in seats], url=f"/games/{game.id}")


async def _reload(session: AsyncSession, game_id: str) -> Game:
    session.expunge_all()
    game = await repository.get(session, game_id)
    if game is None:
        raise NotFound(f"no game {game_id!r}", code="game_not_found")
    return game


async def get_game(session: AsyncSession, game_id: str) -> Game:
    game = await repository.get(session, game_id)
    if game is None:
        raise NotFound(f"no game {game_id!r}", code="game_not_found")
    return game


async def create_game(session: AsyncSession, creator: Identity, body: GameCreate) -> GameCreated:
    mode = get_mode(body.mode)
    row, scn = await scenarios.ensure_row(session, body.scenario_id)
    seed = body.seed if body.seed is not None else secrets.randbits(63)
    options = {**mode.engine_options, **body.options}
    if body.mode not in modes_for(scn):
        raise Unprocessable(f"mode {body.mode!r} is not offered for this scenario; "
                            f"offered: {modes_for(scn)}", code="unknown_mode")
    state = E.new_game(scn, seed, options, mode.engine_mode)    # EngineError -> 422
    specs = mode.seat_specs(list(E.seats(state)))
    if body.seat is not None and body.seat not in {s.seat for s in specs}:
        raise NotFound(f"no seat {body.seat!r}; seats: {[s.seat for s in specs]}",
                       code="seat_not_found")
    state, entries, _ = settle_chance(state)
    game_id = new_id("g")
    seats = [Seat(game_id=game_id, seat=s.seat, side=s.side, role=s.role,
                  identity_id=creator.id if s.seat == body.seat else None, is_bot=False)
             for s in specs]
    infos = [SeatInfo(s.seat, s.side, s.role, s.identity_id, None, False) for s in seats]
    game = Game(id=game_id, scenario_id=row.id, scenario_name=scn.name, mode=mode.name,
                engine_mode=mode.engine_mode,
                options=options, seed=seed, private=body.private,
                invite_code=secrets.token_urlsafe(16), seq=len(entries), created_by=creator.id,
                **game_fields(state, infos))
    await repository.add(session, game, seats)
    session.add_all([ActionRow(game_id=game_id, seq=i + 1, seat=seat, action=action)
                     for i, (seat, action) in enumerate(entries)])
    await session.commit()
    game = await _reload(session, game_id)
    out = summary(game, creator)
    return GameCreated(**out.model_dump(), invite=game.invite_code,
                       invite_url=f"/join/{game.invite_code}")


async def list_games(session: AsyncSession, statuses: list[str], me: Identity | None) -> list[GameSummary]:
    return [summary(g, me) for g in await repository.list_games(session, statuses)]


def _seat(game: Game, seat: str) -> Seat:
    for s in game.seats:
        if s.seat == seat:
            return s
    raise NotFound(f"no seat {seat!r} in game {game.id}", code="seat_not_found")


async def _after_seat_change(session: AsyncSession, notifier: Notifier, game_id: str,
                             me: Identity) -> GameSummary:
    game = await _reload(session, game_id)
    if game.status != "finished":
        held = all(s.identity_id is not None or s.is_bot for s in game.seats)
        await repository.set_fields(session, game_id, status="live" if held else "open")
    await session.commit()
    game = await _reload(session, game_id)
    await notifier.seats_changed(game_id)
    return summary(game, me)


async def claim_seat(session: AsyncSession, notifier: Notifier, me: Identity, game_id: str,
                     seat: str, invite: str | None) -> GameSummary:
    game = await get_game(session, game_id)
    row = _seat(game, seat)
    if row.identity_id == me.id:
        return summary(game, me)
    if game.status == "finished":
        raise Conflict("the game is over", code="game_finished")
    if game.private and not (invite and secrets.compare_digest(invite, game.invite_code)):
        raise Forbidden("this game needs its invite code", code="invite_required")
    if not await repository.set_seat(session, game_id, seat, identity_id=me.id, is_bot=False,
                                     only_if_free=True):
        await session.rollback()
        raise Conflict(f"seat {seat} is already taken", code="seat_taken")
    return await _after_seat_change(session, notifier, game_id, me)


async def leave_seat(session: AsyncSession, notifier: Notifier, me: Identity, game_id: str,
                     seat: str) -> GameSummary:
    game = await get_game(session, game_id)
    row = _seat(game, seat)
    if row.identity_id != me.id:
        raise Forbidden(f"you do not hold seat {seat}", code="not_seated")
    if game.status == "finished":
        raise Conflict("the game is over", code="game_finished")
    await repository.set_seat(session, game_id, seat, identity_id=None, is_bot=False,
                              only_if_free=False)
    return await _after_seat_change(session, notifier, game_id, me)


async def seat_bot(session: AsyncSession, notifier: Notifier, me: Identity, game_id: str,
                   seat: str) -> GameSummary:
    """Give a free seat (or one the caller holds) to the server's engine bot."""
    game = await get_game(session, game_id)
    row = _seat(game, seat)
    if not any(s.identity_id == me.id for s in game.seats) and game.created_by != me.id:
        raise Forbidden("only a player of this game may add a bot", code="not_seated")
    if game.status == "finished":
        raise Conflict("the game is over", code="game_finished")
    if row.is_bot:
        return summary(game, me)
    if row.identity_id not in (None, me.id):
        raise Conflict(f"seat {seat} is already taken", code="seat_taken")
    await repository.set_seat(session, game_id, seat, identity_id=None, is_bot=True,
                              only_if_free=False)
    return await _after_seat_change(session, notifier, game_id, me)


async def game_by_invite(session: AsyncSession, code: str) -> Game:
    game = await repository.by_invite(session, code)
    if game is None:
        raise NotFound("unknown invite code", code="invite_not_found")
    return game


async def finished_log(session: AsyncSession, game_id: str) -> GameLog:
    game = await get_game(session, game_id)
    if game.status != "finished":
        raise Conflict("the log of a running game is secret (it would reveal the dice seed)",
                       code="game_not_finished")
    row = await scenario_repo.get(session, game.scenario_id)
    assert row is not None
    rows = await repository.actions_after(session, game_id, 0)
    scenario: dict[str, Any] = json.loads(row.content)
    return GameLog(game_id=game.id, scenario_id=game.scenario_id, scenario=scenario,
                   seed=game.seed, mode=game.mode, engine_mode=game.engine_mode,
                   options=game.options or {},
                   winner=game.winner,
                   actions=[LogEntry(seq=r.seq, seat=r.seat, action=r.action) for r in rows])
