"""What follows a committed action, outside the game: "your turn" for an absent player,
"game finished" and the ratings.  :func:`committed` is the one entry point; the game
session (``app/realtime/hub.py`` ``Hub.submit``) calls it after each committed batch,
once the batch is durable.

"Your turn": for each human seat the engine waits for, a check after
``NOTIFY_GRACE_SECONDS``; if the seat still waits in the same turn and its player is not
connected to the game (``Presence.absent_for``: no socket on any worker), he is notified
once for that game and turn (the ``notices`` key ``game:turn:seat``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from . import service

if TYPE_CHECKING:
    from ..games.runtime import GameRuntime
    from ..realtime.hub import Hub

log = logging.getLogger("app.notify")
_waiting: set[tuple[str, str, Any]] = set()  # (game, seat, turn) checks scheduled here


def _away(hub: Hub, rt: GameRuntime, identity_id: str) -> bool:
    """Not connected to the game now: no socket of his on this worker, no recent
    heartbeat of one on another (``Presence.absent_for``, which counts a game's absences
    from when it is first asked about: asked once, then a moment later)."""
    hub.presence.absent_for(rt, identity_id)
    return hub.presence.absent_for(rt, identity_id, now=time.time() + 0.001) > 0


def _turn_key(fields: dict[str, Any], seq: int) -> Any:
    return fields.get("turn") if fields.get("turn") is not None else f"s{seq}"


def committed(hub: Hub, rt: GameRuntime) -> None:
    """A batch of ``rt`` was committed (called with the state after it).  Never raises:
    the game goes on whatever happens to its notifications."""
    try:
        _committed(hub, rt)
    except Exception:
        log.exception("notifications after a batch of game %s failed", rt.game_id)


def _committed(hub: Hub, rt: GameRuntime) -> None:
    fields = rt.fields()
    if fields["status"] == "finished":
        service.spawn(_finished(hub, rt.game_id))
        return
    if fields["status"] != "live":
        return
    turn = _turn_key(fields, rt.seq)
    for seat in fields.get("to_act") or []:
        info = rt.seats.get(seat)
        if info is None or info.identity_id is None or info.is_bot:
            continue
        key = (rt.game_id, seat, turn)
        if key not in _waiting:
            _waiting.add(key)
            service.spawn(_your_turn(hub, rt.game_id, seat, turn))


async def game_started(hub: Hub, game_id: str) -> None:
    """A game went live outside the log (an offer accepted): its first turn is noticed
    like a committed action's."""
    try:
        committed(hub, await hub.registry.get(game_id))
    except Exception:
        log.exception("start notification of game %s failed", game_id)


async def _your_turn(hub: Hub, game_id: str, seat: str, turn: Any) -> None:
    try:
        await asyncio.sleep(hub.settings.notify_grace_seconds)
        rt = hub.registry.runtimes.get(game_id)
        if rt is None:
            return  # dropped: nobody was here for a while; reloads
        fields = rt.fields()
        info = rt.seats.get(seat)
        if (
            fields["status"] != "live"
            or seat not in (fields.get("to_act") or [])
            or _turn_key(fields, rt.seq) != turn
            or info is None
            or info.identity_id is None
            or info.is_bot
            or not _away(hub, rt, info.identity_id)
        ):
            return
        opponents = sorted(
            {
                s.name or "?"
                for s in rt.seats.values()
                if s.identity_id not in (None, info.identity_id)
            }
            | {"a bot" for s in rt.seats.values() if s.is_bot}
        )
        against = f" against {', '.join(opponents)}" if opponents else ""
        turn_txt = f" (turn {turn})" if isinstance(turn, int) else ""
        await service.notify(
            hub.db,
            hub.settings,
            info.identity_id,
            "your_turn",
            f"{game_id}:{turn}:{seat}",
            f"Your turn: {rt.scenario_name}",
            f"It is your turn in {rt.scenario_name}{against}{turn_txt}.",
            f"/games/{game_id}",
        )
    except Exception:
        log.exception("your-turn notification of game %s failed", game_id)
    finally:
        _waiting.discard((game_id, seat, turn))


async def _finished(hub: Hub, game_id: str) -> None:
    """Rate the game (app/ratings) and tell its players who are not watching it."""
    from ..ratings.service import rate_game

    try:
        await rate_game(hub.db, game_id)
    except Exception:
        log.exception("rating game %s failed", game_id)
    rt = hub.registry.runtimes.get(game_id)
    if rt is None:
        return
    winner = rt.fields().get("winner")
    result = f"{str(winner).title()} won." if winner else "It ended."
    for ident in {s.identity_id for s in rt.seats.values() if s.identity_id}:
        if not _away(hub, rt, ident):
            continue  # he saw it end
        try:
            await service.notify(
                hub.db,
                hub.settings,
                ident,
                "finished",
                game_id,
                f"Game over: {rt.scenario_name}",
                f"{rt.scenario_name} is over. {result}",
                f"/games/{game_id}/replay",
            )
        except Exception:
            log.exception("finished notification of game %s failed", game_id)
