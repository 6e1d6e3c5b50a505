"""Profiles and the inbox (docs/protocol.md "Players").

A profile lists an account's games in progress and finished (finished ones with their
replay), its results and ratings per rule system.  A private game is listed only to
those who may watch it (its players, its creator: ``app/games/privacy.py``).  The inbox
lists what waits for the caller: the games whose engine waits for one of his seats, the
offers made to him (and his own still pending), the campaign battles he may start.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts import repository as accounts_repo
from ..accounts.service import name_key
from ..campaigns import service as campaigns
from ..errors import NotFound
from ..games.privacy import may_watch
from ..models import Game, Identity
from ..offers import service as offers
from ..ratings import service as ratings
from . import repository


def game_row(game: Game, identity_id: str) -> dict[str, Any]:
    """A game as a list shows it: public facts only (no seed, no invite, no state)."""
    mine = [s for s in game.seats if s.identity_id == identity_id]
    side = mine[0].side if mine else None
    opponents = sorted(
        {
            (s.identity.name if s.identity else "?") if not s.is_bot else "bot"
            for s in game.seats
            if s.side != side and (s.identity_id or s.is_bot)
        }
    )
    result = None
    if game.status == "finished":
        result = "drawn" if not game.winner else ("won" if game.winner == side else "lost")
    return {
        "id": game.id,
        "url": f"/games/{game.id}",
        "ruleset": game.ruleset,
        "scenario_name": game.scenario_name,
        "mode": game.mode,
        "status": game.status,
        "turn": game.turn,
        "side": side,
        "opponents": opponents,
        "rated": bool(game.rated),
        "result": result,
        "winner": game.winner,
        "private": game.private,
        "your_turn": game.status == "live" and any(s.seat in (game.to_act or []) for s in mine),
        "replay_url": f"/games/{game.id}/replay" if game.status == "finished" else None,
        "updated_at": game.updated_at.isoformat() if game.updated_at else None,
    }


async def profile(session: AsyncSession, name: str, viewer: Identity | None) -> dict[str, Any]:
    try:
        key = name_key(name)
    except ValueError:
        key = ""
    ident = await accounts_repo.by_name_key(session, key[:40]) if key else None
    if ident is None or ident.password_hash is None:
        raise NotFound(f"no player {name[:40]!r}", code="player_not_found")
    vid = viewer.id if viewer else None
    games = [
        g
        for g in await repository.games_of(session, ident.id, ("open", "live", "finished"))
        if may_watch(g, vid, None)
    ]
    results: dict[str, dict[str, int]] = {}
    for g in games:
        row = game_row(g, ident.id)
        if row["result"]:
            r = results.setdefault(g.ruleset, {"won": 0, "lost": 0, "drawn": 0})
            r[row["result"]] += 1
    rows = [game_row(g, ident.id) for g in games]
    return {
        "name": ident.name,
        "registered_at": ident.registered_at,
        "ratings": await ratings.ratings_of(session, ident.id),
        "results": results,
        "in_progress": [r for r in rows if r["status"] != "finished"],
        "finished": [r for r in rows if r["status"] == "finished"],
    }


async def inbox(session: AsyncSession, me: Identity) -> dict[str, Any]:
    live = await repository.games_of(session, me.id, ("live",))
    turns = [r for r in (game_row(g, me.id) for g in live) if r["your_turn"]]
    pending = await offers.pending(session, me)
    battles = []
    for c in await repository.active_campaigns(session):
        if me.id not in (c.players or {}).values() and me.id != c.created_by:
            continue
        full = await campaigns.get_campaign(session, c.id)
        if full.next is not None:
            battles.append(
                {
                    "campaign_id": c.id,
                    "name": c.name,
                    "index": full.next.index,
                    "scenario_id": full.next.scenario_id,
                    "url": f"/campaigns/{c.id}",
                }
            )
    incoming = [o for o in pending if not o.mine]
    return {
        "turns": turns,
        "offers": [o.model_dump(mode="json") for o in incoming],
        "sent": [o.model_dump(mode="json") for o in pending if o.mine],
        "campaigns": battles,
        "count": len(turns) + len(incoming) + len(battles),
    }
