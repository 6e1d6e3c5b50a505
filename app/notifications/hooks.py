"""What follows a committed action, outside the game: "your turn" for an absent player,
"game finished" and the ratings.  :meth:`Notifications.committed` is the entry point: a
listener of ``GameSessions.committed`` (app/games/sessions.py), registered in the
lifespan of ``app/main.py``, so it runs once the log grew (a batch of another worker
too: the ``notices`` key and the ``rated_games`` row make each notice and each rating
happen once); changed seats (:meth:`Notifications.notice`) and a game started by an
accepted offer look at the game the same way.

"Your turn": for each human seat the engine waits for, a check after
``NOTIFY_GRACE_SECONDS``; if the seat still waits in the same turn and its player is not
connected to the game (``Presence.absent_for``: no socket on any worker), he is notified
once for that game and turn (the ``notices`` key ``game:turn:seat``).
"""

from __future__ import annotations

import asyncio
import gettext
import logging
import time
from typing import Any

from ..games.presence import Presence
from ..games.runtime import GameRuntime
from ..games.sessions import GameSessions
from ..i18n import N_
from . import service

log = logging.getLogger("app.notify")


def _turn_key(fields: dict[str, Any], seq: int) -> Any:
    return fields.get("turn") if fields.get("turn") is not None else f"s{seq}"


def side_name(tr: gettext.NullTranslations, side: str) -> str:
    """A side as the pages name it ("Allies"), in one language."""
    known = {"AXIS": N_("Axis"), "ALLIES": N_("Allies")}
    return tr.gettext(known[side]) if side in known else side.replace("_", " ").title()


def your_turn_text(scenario: str, opponents: list[str], bots: bool, turn: Any) -> service.Compose:
    """The "your turn" notification: the scenario, the opponents, the turn number."""

    def compose(tr: gettext.NullTranslations) -> tuple[str, str]:
        _ = tr.gettext
        names = [*opponents, *([_("a bot")] if bots else [])]
        text = _("It is your turn in {scenario}").format(scenario=scenario)
        if names:
            text += " " + _("against {names}").format(names=", ".join(names))
        if isinstance(turn, int):
            text += " " + _("(turn {n})").format(n=turn)
        return _("Your turn: {scenario}").format(scenario=scenario), text + "."

    return compose


def finished_text(scenario: str, winner: str | None) -> service.Compose:
    """The "game finished" notification: the scenario and the winning side."""

    def compose(tr: gettext.NullTranslations) -> tuple[str, str]:
        _ = tr.gettext
        result = _("{side} won.").format(side=side_name(tr, winner)) if winner else _("It ended.")
        return (
            _("Game over: {scenario}").format(scenario=scenario),
            _("{scenario} is over. {result}").format(scenario=scenario, result=result),
        )

    return compose


class Notifications:
    """The notifications and ratings that follow the committed batches of this worker's
    games (``GameSessions.committed``), and the start of a game created by an accepted
    offer (:meth:`game_started`)."""

    def __init__(self, games: GameSessions, presence: Presence) -> None:
        self.games = games
        self.presence = presence
        self.db = games.db
        self.settings = games.settings
        self._waiting: set[tuple[str, str, Any]] = set()  # (game, seat, turn) checks

    def _away(self, rt: GameRuntime, identity_id: str) -> bool:
        """Not connected to the game now: no socket of his on this worker, no recent
        heartbeat of one on another (``Presence.absent_for``, which counts a game's
        absences from when it is first asked about: asked once, then a moment later)."""
        self.presence.absent_for(rt, identity_id)
        return self.presence.absent_for(rt, identity_id, now=time.time() + 0.001) > 0

    def committed(self, rt: GameRuntime) -> None:
        """A batch of ``rt`` was committed (called with the state after it, under the
        game's lock).  Never raises: the game goes on whatever happens to its
        notifications."""
        try:
            self._committed(rt)
        except Exception:
            log.exception("notifications after a batch of game %s failed", rt.game_id)

    def _committed(self, rt: GameRuntime) -> None:
        fields = rt.fields()
        if fields["status"] == "finished":
            service.spawn(self._finished(rt.game_id))
            return
        if fields["status"] != "live":
            return
        turn = _turn_key(fields, rt.seq)
        for seat in fields.get("to_act") or []:
            info = rt.seats.get(seat)
            if info is None or info.identity_id is None or info.is_bot:
                continue
            key = (rt.game_id, seat, turn)
            if key not in self._waiting:
                self._waiting.add(key)
                service.spawn(self._your_turn(rt.game_id, seat, turn))

    async def notice(self, rt: GameRuntime, msg: dict[str, Any]) -> None:
        """A bus notice: changed seats may start the game or seat a player the engine
        waits for (a finished game's news came with its last batch)."""
        if msg.get("kind") == "seats" and rt.fields()["status"] == "live":
            self.committed(rt)

    async def game_started(self, game_id: str) -> None:
        """A game went live outside the log (its last seat claimed, bots seated, an offer
        accepted): its first turn is noticed like a committed action's, with the seats
        read from the database (the bus notice of the change may not have arrived)."""
        try:
            rt = await self.games.registry.get(game_id)
            async with rt.lock:
                async with self.db.sessions() as session:
                    await rt.refresh_seats(session)
                self._committed(rt)
        except Exception:
            log.exception("start notification of game %s failed", game_id)

    async def _your_turn(self, game_id: str, seat: str, turn: Any) -> None:
        try:
            await asyncio.sleep(self.settings.notify_grace_seconds)
            # the game may have left memory meanwhile (nobody connected): it reloads
            rt = await self.games.registry.get(game_id)
            fields = rt.fields()
            info = rt.seats.get(seat)
            if (
                fields["status"] != "live"
                or seat not in (fields.get("to_act") or [])
                or _turn_key(fields, rt.seq) != turn
                or info is None
                or info.identity_id is None
                or info.is_bot
                or not self._away(rt, info.identity_id)
            ):
                return
            opponents = sorted(
                {
                    s.name or "?"
                    for s in rt.seats.values()
                    if s.identity_id not in (None, info.identity_id)
                }
            )
            bots = any(s.is_bot for s in rt.seats.values())
            await service.notify(
                self.db,
                self.settings,
                info.identity_id,
                "your_turn",
                f"{game_id}:{turn}:{seat}",
                your_turn_text(rt.scenario_name, opponents, bots, turn),
                f"/games/{game_id}",
            )
        except Exception:
            log.exception("your-turn notification of game %s failed", game_id)
        finally:
            self._waiting.discard((game_id, seat, turn))

    async def _finished(self, game_id: str) -> None:
        """Rate the game (app/ratings) and tell its players who are not watching it."""
        from ..ratings.service import rate_game

        try:
            await rate_game(self.db, game_id)
        except Exception:
            log.exception("rating game %s failed", game_id)
        rt = self.games.registry.runtimes.get(game_id)
        if rt is None:
            return
        winner = rt.fields().get("winner")
        compose = finished_text(rt.scenario_name, str(winner) if winner else None)
        for ident in {s.identity_id for s in rt.seats.values() if s.identity_id}:
            if not self._away(rt, ident):
                continue  # he saw it end
            try:
                await service.notify(
                    self.db,
                    self.settings,
                    ident,
                    "finished",
                    game_id,
                    compose,
                    f"/games/{game_id}/replay",
                )
            except Exception:
                log.exception("finished notification of game %s failed", game_id)
