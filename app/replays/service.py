"""Replays of finished games and return matches.

* A **replay** is the finished game's log folded step by step (``engine.meta.fold``, the
  fold of every live runtime: ``undo`` and the endings included, so replay == live):
  one step per player entry (with the dice rolled for it), its events unredacted (the
  game is over: everything may be shown) and the public view after it.  The answer names
  the game's ``ruleset``, its ``renderer`` and the ``panels`` of its mode, so that the
  replay page draws each step's view with the same renderer module as the game page.
* A **return match** is the same scenario, mode, options and clock with the sides
  swapped for the same two players (1v1), offered and accepted (app/offers).  The match sums each player's medals over the
  two games (a game won by resignation, time-out or forfeit counts the scenario's
  victory medals for its winner); ties are broken by the games won, then it is a draw.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..campaigns import repository as campaigns_repo
from ..engine_api import CHANCE, Fold, is_meta, normalise_logged, rolls_following, ruleset
from ..games.runtime import game_scenario
from ..errors import Conflict
from ..games import repository as games_repo
from ..games import service as games
from ..games.privacy import require_visible
from ..models import Game, Identity

_CACHE: OrderedDict[str, dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 16


def _steps(
    rs: Any,
    scn: Any,
    seed: int,
    options: dict[str, Any],
    mode: str,
    log: list[tuple[int, str, dict[str, Any]]],
) -> list[dict[str, Any]]:
    """Step 0: the state before any player entry (after the rolls made at creation);
    then one step per player entry, with the rolls that followed it."""
    f = Fold(rs.new_game(seed, options, scn, mode), 0, rs)
    raw: list[dict[str, Any]] = [{"seq": 0, "seat": None, "events": [], "state": f.state}]
    for (seq, seat, action), rolls in zip(log, rolls_following(log)):
        if not is_meta(action):  # a row an older release stored raw
            action = normalise_logged(rs, f.state, action)
        events = f.apply(seq, seat, action, rs.apply, rolls)
        if seat == CHANCE:
            raw[-1]["events"].extend(events)
            raw[-1]["seq"], raw[-1]["state"] = seq, f.state
        else:
            raw.append({"seq": seq, "seat": seat, "events": list(events), "state": f.state})
    steps = []
    for r in raw:
        view = rs.view_for(r.pop("state"), None)
        steps.append({**r, "turn": view.get("turn"), "view": view})
    return steps


REPLAY_PAGE = 200  # steps per answer of GET /replay (a long game: several pages)
_BUILDING: dict[str, asyncio.Future[dict[str, Any]]] = {}


async def replay(
    session: AsyncSession,
    game_id: str,
    me: Identity | None = None,
    invite: str | None = None,
    start: int = 0,
    limit: int = REPLAY_PAGE,
) -> dict[str, Any]:
    """``GET /api/games/{id}/replay``: a finished game step by step, steps
    ``start..start+limit-1`` (``next_from``: the first step of the next page, None at
    the end; ``steps_total``).  A private game answers 404 ``game_not_found`` without
    a seat, its creator or the invite.  The folded replay is built once per game (the
    concurrent requests of one game wait for the same build) and kept for the last
    ``_CACHE_SIZE`` games."""
    game = await games.get_game(session, game_id)
    require_visible(game, me.id if me else None, invite)
    if game.status != "finished":
        raise Conflict(
            "a running game has no replay yet (it would reveal hidden information)",
            code="game_not_finished",
        )
    whole = _CACHE.get(game_id)
    if whole is None or whole["seq"] != game.seq:
        pending = _BUILDING.get(game_id)
        if pending is None:  # the log read here, the fold in a shared task
            scn = await game_scenario(session, game)
            log = [
                (r.seq, r.seat, r.action)
                for r in await games_repo.actions_after(session, game_id, 0)
            ]
            pending = _BUILDING.get(game_id)
            if pending is None:
                pending = asyncio.ensure_future(
                    _build(
                        game,
                        scn,
                        log,
                        {
                            "game_id": game.id,
                            "scenario_name": game.scenario_name,
                            "mode": game.mode,
                            "ruleset": game.ruleset,
                            "renderer": ruleset(game.ruleset).renderer,
                            "panels": list(ruleset(game.ruleset).panels_for(game.mode)),
                            "seq": game.seq,
                            "winner": game.winner,
                            "seats": [x.model_dump() for x in games.summary(game).seats],
                            "rematch_of": game.rematch_of,
                            # the dice verification page of a game with a commitment (null: a test seed)
                            "verify_url": games.fair_dice(game)["verify_url"]
                            if game.commitment
                            else None,
                        },
                    )
                )
                _BUILDING[game_id] = pending
                pending.add_done_callback(lambda _: _BUILDING.pop(game_id, None))
        whole = await asyncio.shield(pending)
    steps = whole["steps"]
    end = min(len(steps), start + limit)
    return {
        **{k: v for k, v in whole.items() if k != "steps"},
        "steps": steps[start:end],
        "first_step": start,
        "steps_total": len(steps),
        "next_from": end if end < len(steps) else None,
    }


async def _build(
    game: Game, scn: Any, log: list[tuple[int, str, dict[str, Any]]], head: dict[str, Any]
) -> dict[str, Any]:
    """Fold ``log`` (in a thread) into the replay's steps and cache it with ``head``."""
    rs, seed, options, mode = ruleset(game.ruleset), game.seed, dict(game.options or {}), game.mode
    steps = await asyncio.to_thread(_steps, rs, scn, seed, options, mode, log)
    out = {**head, "board": rs.board(rs.new_game(seed, options, scn, mode)), "steps": steps}
    _CACHE[head["game_id"]] = out
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out


# ---------------------------------------------------------------------------- matches
async def _rematch_of(session: AsyncSession, game_id: str) -> Game | None:
    res = await session.execute(select(Game).where(Game.rematch_of == game_id).limit(1))
    return res.scalars().first()


def _medals(view: dict[str, Any], side: str, winner: str | None, reason: str | None) -> int:
    s = (view.get("sides") or {}).get(side) or {}
    if winner == side and reason in ("resign", "timeout", "forfeit"):
        return max(int(s.get("medals") or 0), int(s.get("victory") or 0))
    return int(s.get("medals") or 0)


async def match(
    session: AsyncSession,
    registry: Any,
    game_id: str,
    me: Identity | None = None,
    invite: str | None = None,
) -> dict[str, Any]:
    """``GET /api/games/{id}/match``: the two games of a return match and the result (a
    private game: 404 ``game_not_found`` without a seat, its creator or the invite);
    ``campaign``: the campaign a campaign battle belongs to (``{id, url}``; it has no
    return match: the campaign goes on)."""
    game = await games.get_game(session, game_id)
    require_visible(game, me.id if me else None, invite)
    battle = await campaigns_repo.battle_of_game(session, game_id)
    campaign = (
        None
        if battle is None
        else {"id": battle.campaign_id, "url": f"/campaigns/{battle.campaign_id}"}
    )
    first = await games.get_game(session, game.rematch_of) if game.rematch_of else game
    second = await _rematch_of(session, first.id)
    rows = [g for g in (first, second) if g is not None]
    players: dict[str, dict[str, Any]] = {}
    out_games = []
    for g in rows:
        await session.commit()  # its connection back to the pool while the game loads
        rt = await registry.get(g.id)
        view = rt.rs.view_for(rt.state, None)
        last = await games_repo.actions_after(session, g.id, max(0, g.seq - 1))
        reason = last[-1].action.get("type") if last else None
        entry: dict[str, Any] = {
            "id": g.id,
            "url": f"/games/{g.id}",
            "status": g.status,
            "winner": g.winner,
            "sides": {},
        }
        for s in g.seats:
            if s.identity_id is None:
                continue
            medals = (
                _medals(view, s.side, g.winner, reason)
                if g.status == "finished"
                else int(((view.get("sides") or {}).get(s.side) or {}).get("medals") or 0)
            )
            p = players.setdefault(
                s.identity_id,
                {"name": s.identity.name if s.identity else "?", "medals": 0, "wins": 0},
            )
            p["medals"] += medals
            if g.status == "finished" and g.winner == s.side:
                p["wins"] += 1
            entry["sides"][s.side] = {"player": p["name"], "medals": medals}
        out_games.append(entry)
    done = len(rows) == 2 and all(g.status == "finished" for g in rows)
    ranked = sorted(players.values(), key=lambda p: (p["medals"], p["wins"]), reverse=True)
    winner = None
    decided_by = None
    if done and len(ranked) == 2:
        a, b = ranked
        if a["medals"] != b["medals"]:
            winner, decided_by = a["name"], "medals"
        elif a["wins"] != b["wins"]:
            winner, decided_by = a["name"], "games won"
        else:
            decided_by = "draw"
    return {
        "first": first.id,
        "second": second.id if second else None,
        "games": out_games,
        "players": ranked,
        "finished": done,
        "winner": winner,
        "decided_by": decided_by,
        "url": f"/matches/{first.id}",
        "campaign": campaign,
    }
