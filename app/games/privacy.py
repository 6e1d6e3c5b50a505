"""Private games: hidden from the lobby and watched only with the invite code.

A private game is visible (summary, events, chat, websocket) to the identities holding
one of its seats, its creator, and whoever presents its invite code.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..errors import Forbidden, NotFound


def may_watch(game: Any, identity_id: str | None, invite: str | None) -> bool:
    """``game``: a ``Game`` row or a ``GameRuntime`` (``private``, ``invite_code``,
    ``created_by`` and the seats)."""
    if not game.private:
        return True
    if identity_id is not None:
        if game.created_by == identity_id:
            return True
        seats = game.seats.values() if isinstance(game.seats, dict) else game.seats
        if any(s.identity_id == identity_id for s in seats):
            return True
    return bool(invite) and secrets.compare_digest(
        str(invite).encode("utf-8", "replace"), game.invite_code.encode()
    )


def require_watch(game: Any, identity_id: str | None, invite: str | None) -> None:
    if not may_watch(game, identity_id, invite):
        raise Forbidden(
            "this private game needs its invite code (?invite=)", code="invite_required"
        )


def require_visible(game: Any, identity_id: str | None, invite: str | None) -> None:
    """The pages and answers that name a game's players outside the game itself (its
    replay, dice verification, match): a private game is unknown (404 ``game_not_found``,
    as a game that does not exist) to whoever may not watch it, so that neither the
    game nor its players' names can be found by its id."""
    if not may_watch(game, identity_id, invite):
        raise NotFound(f"no game {game.id!r}", code="game_not_found")
