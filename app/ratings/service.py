"""Glicko-2 ratings per rule system (the ``glicko2`` library; docs/protocol.md "Ratings").

A game is **rated** when chosen so at creation and, once finished, every seat was held
by an account (no bot, no guest), it reached turn 2, and nobody took an action back
(``undo``); otherwise it is casual (``rated_games.reason`` says why).  A resignation, a
time-out and a forfeit end a game like any victory and count.  Each player is rated as
one rating period of one game against the opposing side: a single opponent in 1v1, in
team and Overlord games the opposing humans as one composite player (their mean rating,
the root mean square of their deviations), so a team's result updates each of its
humans' rating of that rule system.  A game is applied once (``rated_games`` key).
"""

from __future__ import annotations

import math
from typing import Any

from glicko2 import Player  # type: ignore[import-untyped]
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..db import Database
from ..models import Game, Identity, RatedGame, Rating, utcnow
from . import repository

START = (1500.0, 350.0, 0.06)  # Glicko-2's defaults: rating, deviation, volatility


def casual_reason(game: Game, accounts: set[str], undo: bool) -> str | None:
    """Why a finished game does not count (None: it is rated)."""
    if not game.rated:
        return "casual"
    if any(s.is_bot or s.bot_reason for s in game.seats):
        return "bot"
    if any(s.identity_id is None or s.identity_id not in accounts for s in game.seats):
        return "guest"
    if len({s.side for s in game.seats}) != 2:
        return "sides"
    if game.turn is None or game.turn < 2:
        return "before_turn_2"
    if undo:
        return "undo"
    return None


def updated(
    me: tuple[float, float, float],
    opponents: list[tuple[float, float, float]],
    score: float,
) -> tuple[float, float, float]:
    """``me`` after one game scoring ``score`` (1, 0.5, 0) against ``opponents`` as one
    composite player."""
    p = Player(rating=me[0], rd=me[1], vol=me[2])
    rating = sum(o[0] for o in opponents) / len(opponents)
    rd = math.sqrt(sum(o[1] ** 2 for o in opponents) / len(opponents))
    p.update_player([rating], [rd], [score])
    return float(p.getRating()), float(p.getRd()), float(p.vol)


async def rate_game(db: Database, game_id: str) -> dict[str, Any] | None:
    """Apply a finished game to the ratings once; returns the changes (identity ->
    before/after), None when it was applied already or is not finished."""
    async with db.writing() as s:
        return await _rate(s, game_id)


async def _rate(s: AsyncSession, game_id: str) -> dict[str, Any] | None:
    game = await s.get(Game, game_id)
    if game is None or game.status != "finished":
        return None
    if await s.get(RatedGame, game_id) is not None:
        return None
    ids = sorted({x.identity_id for x in game.seats if x.identity_id})
    accounts = {
        i.id for i in [await s.get(Identity, i) for i in ids] if i is not None and i.password_hash
    }
    reason = casual_reason(game, accounts, await repository.has_undo(s, game_id))
    changes: dict[str, Any] = {}
    if reason is None:
        old = await repository.ratings_of(s, ids, game.ruleset)
        now = {i: (old[i].rating, old[i].rd, old[i].vol) if i in old else START for i in ids}
        side_of = {x.identity_id: x.side for x in game.seats}
        for i in ids:
            score = 0.5 if not game.winner else (1.0 if side_of[i] == game.winner else 0.0)
            opp = [now[j] for j in ids if side_of[j] != side_of[i]]
            after = updated(now[i], opp, score)
            changes[i] = {
                "before": round(now[i][0], 1),
                "after": round(after[0], 1),
                "rd": round(after[1], 1),
                "score": score,
            }
            row = old.get(i)
            if row is None:
                row = Rating(identity_id=i, ruleset=game.ruleset, games=0)
                s.add(row)
            row.rating, row.rd, row.vol = after
            row.games = (row.games or 0) + 1
            row.updated_at = utcnow()
    s.add(RatedGame(game_id=game_id, rated=reason is None, reason=reason, changes=changes))
    try:
        await s.commit()
    except IntegrityError:  # applied by another worker at the same moment
        await s.rollback()
        return None
    return changes


async def leaderboard(
    session: AsyncSession, ruleset: str, limit: int = 100
) -> list[dict[str, Any]]:
    rows = await repository.leaderboard(session, ruleset, limit)
    return [
        {
            "rank": n + 1,
            "name": name,
            "rating": round(r.rating),
            "rd": round(r.rd),
            "games": r.games,
        }
        for n, (r, name) in enumerate(rows)
    ]


async def ratings_of(session: AsyncSession, identity_id: str) -> list[dict[str, Any]]:
    return [
        {
            "ruleset": r.ruleset,
            "rating": round(r.rating),
            "rd": round(r.rd),
            "games": r.games,
        }
        for r in await repository.all_of(session, identity_id)
    ]
