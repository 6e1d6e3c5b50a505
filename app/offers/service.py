"""Offers (docs/protocol.md "Offers").

* A **return match** of a finished 1v1 game (same scenario, mode, options, clock and
  rated choice, sides swapped, the same two players) is offered by one of its players to
  the other.  One offer per game (``offers.rematch_of`` is unique): the other player's
  own "return match" accepts it.  A declined return match is not offered again.
* A **challenge** offers any 1v1 game (ruleset, scenario, options, clock, rated) to an
  account by name; it is checked when offered (the same errors as creating the game).
* The addressee accepts or declines (the sender may cancel while it is pending); the
  game is created on acceptance with both players seated, so it starts at once.  Only
  one decision is taken (a conditional update of the pending row).
"""

from __future__ import annotations

import gettext
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts import repository as accounts_repo
from ..accounts.service import name_key
from ..campaigns import repository as campaigns_repo
from ..db import Database
from ..engine_api import EngineError, ruleset
from ..errors import Conflict, Forbidden, NotFound, Unprocessable
from ..games import service as games
from ..games.schemas import GameCreate
from ..models import Game, Identity, Offer
from ..notifications.service import notify, spawn
from ..security import new_id
from ..settings import Settings
from . import repository
from .schemas import ChallengeIn, OfferOut

SPEC_KEYS = (
    "ruleset",
    "scenario_id",
    "mode",
    "options",
    "private",
    "seat",
    "clock",
    "rated",
)


async def out(session: AsyncSession, offer: Offer, me_id: str) -> OfferOut:
    names = {i: (await session.get(Identity, i)) for i in (offer.from_id, offer.to_id)}
    spec = offer.spec or {}
    return OfferOut(
        id=offer.id,
        kind=offer.kind,
        status=offer.status,
        from_name=getattr(names[offer.from_id], "name", "?"),
        to_name=getattr(names[offer.to_id], "name", "?"),
        mine=offer.from_id == me_id,
        ruleset=spec.get("ruleset"),
        scenario_id=spec.get("scenario_id"),
        scenario_name=spec.get("scenario_name"),
        mode=spec.get("mode"),
        clock=spec.get("clock"),
        rated=bool(spec.get("rated")),
        seat=spec.get("seat"),
        rematch_of=offer.rematch_of,
        game_id=offer.game_id,
        game_url=f"/games/{offer.game_id}" if offer.game_id else None,
        created_at=offer.created_at,
        decided_at=offer.decided_at,
    )


def ruleset_title(name: Any) -> str:
    """A rule system's title (its name when unknown)."""
    try:
        return ruleset(str(name)).title
    except EngineError:
        return str(name)


def _tell(db: Database, settings: Settings, offer: Offer, sender: str) -> None:
    """The addressee hears of a new offer (a notification of kind ``offer``)."""
    spec = offer.spec or {}
    rematch = offer.kind == "rematch"

    def compose(tr: gettext.NullTranslations) -> tuple[str, str]:
        _ = tr.gettext
        words = {
            "name": sender,
            "game": spec.get("scenario_name") or _(ruleset_title(spec.get("ruleset"))),
            "rated": _("rated") if spec.get("rated") else _("casual"),
        }
        if rematch:
            return (
                _("{name} offers a return match of {game}").format(**words),
                _(
                    "{name} offers you a return match of {game} ({rated}). "
                    "Accept or decline it in your inbox."
                ).format(**words),
            )
        return (
            _("{name} offers a game of {game}").format(**words),
            _(
                "{name} offers you a game of {game} ({rated}). Accept or decline it in your inbox."
            ).format(**words),
        )

    spawn(notify(db, settings, offer.to_id, "offer", f"offer:{offer.id}", compose, "/inbox"))


async def _load(session: AsyncSession, me: Identity | str, offer_id: str) -> Offer:
    """An offer the caller (``me`` or his id) sent or received (else ``offer_not_found``)."""
    my_id = me if isinstance(me, str) else me.id
    offer = await repository.get(session, offer_id[:32])
    if offer is None or my_id not in (offer.from_id, offer.to_id):
        raise NotFound(f"no offer {offer_id[:32]!r}", code="offer_not_found")
    return offer


async def get(session: AsyncSession, me: Identity, offer_id: str) -> OfferOut:
    return await out(session, await _load(session, me, offer_id), me.id)


async def pending(session: AsyncSession, me: Identity) -> list[OfferOut]:
    return [await out(session, o, me.id) for o in await repository.pending_of(session, me.id)]


# ------------------------------------------------------------------ challenges
async def challenge(
    session: AsyncSession,
    db: Database,
    settings: Settings,
    me: Identity,
    body: ChallengeIn,
) -> OfferOut:
    if me.password_hash is None:
        raise Conflict("register to challenge a player", code="not_registered")
    to = await accounts_repo.by_name_key(session, name_key(body.to))
    if to is None:
        raise NotFound(f"no player {body.to!r}", code="player_not_found")
    if to.id == me.id:
        raise Unprocessable("you cannot challenge yourself", code="challenge_self")
    create = GameCreate(
        ruleset=body.ruleset,
        scenario_id=body.scenario_id,
        mode=body.mode,
        options=body.options,
        private=body.private,
        seat=body.seat,
        clock=body.clock,
        rated=body.rated,
    )
    slots, mine = await games.check_game(session, create)  # the errors of creation
    if len(slots) != 2:
        raise Unprocessable(
            f"a challenge is a game of two players; this one has {len(slots)} player slots",
            code="not_1v1",
        )
    spec = {
        **create.model_dump(mode="json", include=set(SPEC_KEYS)),
        "seat": mine or slots[0],
        "scenario_name": await _scenario_name(session, create),
    }
    offer = Offer(
        id=new_id("o"),
        kind="challenge",
        from_id=me.id,
        to_id=to.id,
        status="pending",
        spec=spec,
    )
    session.add(offer)
    await session.commit()
    _tell(db, settings, offer, me.name)
    return await out(session, offer, me.id)


async def _scenario_name(session: AsyncSession, body: GameCreate) -> str | None:
    if body.scenario_id is None:
        return body.ruleset
    from ..scenarios import repository as scenario_repo

    row = await scenario_repo.get(session, body.scenario_id)
    return row.name if row is not None else body.scenario_id


# ------------------------------------------------------------------ return matches
def _rematch_spec(game: Game, side: str) -> dict[str, Any]:
    return {
        "ruleset": game.ruleset,
        "scenario_id": game.scenario_id,
        "mode": game.mode,
        "options": dict(game.options or {}),
        "private": game.private,
        "seat": side,
        "clock": game.clock or None,
        "rated": bool(game.rated),
        "scenario_name": game.scenario_name,
    }


async def rematch(
    session: AsyncSession,
    db: Database,
    settings: Settings,
    notifier: Any,
    me: Identity,
    game_id: str,
) -> tuple[OfferOut, bool]:
    """Offer the return match of a finished 1v1 game, or accept the one the opponent
    offered; (the offer, True when it was created now)."""
    my_id = me.id
    game = await games.get_game(session, game_id)
    holders = {s.side: s.identity_id for s in game.seats}
    if me.id not in holders.values():
        raise Forbidden(
            "only a player of this game may ask for the return match", code="not_seated"
        )
    if game.status != "finished":
        raise Conflict("the game is not over", code="game_not_finished")
    if game.mode != "1v1" or game.rematch_of is not None:
        raise Unprocessable(
            "a return match is played once, after a 1v1 game",
            code="rematch_unavailable",
        )
    if await campaigns_repo.battle_of_game(session, game_id) is not None:
        raise Unprocessable(
            "a campaign battle is followed by the campaign's next battle",
            code="rematch_unavailable",
        )
    if None in holders.values() or len(set(holders.values())) != 2:
        raise Unprocessable(
            "both sides must have been held by two players", code="rematch_unavailable"
        )
    offer = await repository.for_rematch(session, game_id)
    if offer is None:
        mine = next(side for side, who in holders.items() if who == me.id)
        other_side = next(side for side in holders if side != mine)
        offer = Offer(
            id=new_id("o"),
            kind="rematch",
            from_id=me.id,
            to_id=holders[other_side],
            status="pending",
            spec=_rematch_spec(game, other_side),
            rematch_of=game_id,
        )
        session.add(offer)
        try:
            await session.commit()
        except IntegrityError:  # the opponent offered it at the same moment
            await session.rollback()  # (expires every row of the session: reloaded)
            me = await session.get(Identity, my_id) or me
            offer = await repository.for_rematch(session, game_id)
            assert offer is not None
        else:
            _tell(db, settings, offer, me.name)
            return await out(session, offer, me.id), True
    if offer.status == "pending" and offer.to_id == my_id:
        oid = offer.id
        try:
            return await accept(session, notifier, me, oid), False
        except Conflict as exc:  # accepted by my other request at the same moment
            if exc.code != "offer_not_pending":
                raise
            session.expunge_all()
            offer = await _load(session, my_id, oid)
    return await out(session, offer, my_id), False


async def rematch_offer(session: AsyncSession, me: Identity | None, game_id: str) -> OfferOut:
    """The return-match offer of a game, for its two players."""
    offer = await repository.for_rematch(session, game_id[:32])
    if offer is None or me is None or me.id not in (offer.from_id, offer.to_id):
        raise NotFound("no return match offered for this game", code="offer_not_found")
    return await out(session, offer, me.id)


# ------------------------------------------------------------------ decisions
async def accept(session: AsyncSession, notifier: Any, me: Identity, offer_id: str) -> OfferOut:
    """Accept an offer addressed to me: the game is created, both players seated."""
    offer = await _load(session, me, offer_id)
    if offer.to_id != me.id:
        raise Forbidden("only the player it is offered to accepts an offer", code="not_addressee")
    oid, sender_id, rematch_of, was = (
        offer.id,
        offer.from_id,
        offer.rematch_of,
        offer.status,
    )
    body = GameCreate(**{k: v for k, v in (offer.spec or {}).items() if k in SPEC_KEYS})
    try:  # the decision, the game and the offer's link: one transaction
        if not await repository.decide(session, oid, "accepted", to_id=me.id):
            await session.rollback()
            raise Conflict(f"this offer is {was} already", code="offer_not_pending")
        sender = await session.get(Identity, sender_id)
        if sender is None:
            await session.rollback()
            raise NotFound("the player who offered it is gone", code="offer_not_found")
        # one return match per game: the unique index on games.rematch_of too
        game_id = await games.add_game(session, sender, body, rematch_of=rematch_of)
        await repository.set_game(session, oid, game_id)
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise Conflict(
            "the return match of this game was just created by another request",
            code="rematch_exists",
        ) from None
    game = await games.get_game(session, game_id)
    free = next(s.slot for s in games.summary(game).slots if not s.taken)
    await games.claim_seat(session, notifier, me, game_id, free, game.invite_code)
    offer = await _load(session, me, oid)
    return await out(session, offer, me.id)


async def decline(session: AsyncSession, me: Identity, offer_id: str) -> OfferOut:
    offer = await _load(session, me, offer_id)
    if offer.to_id != me.id:
        raise Forbidden("only the player it is offered to declines an offer", code="not_addressee")
    return await _decide(session, me, offer, "declined", to_id=me.id)


async def cancel(session: AsyncSession, me: Identity, offer_id: str) -> OfferOut:
    offer = await _load(session, me, offer_id)
    if offer.from_id != me.id:
        raise Forbidden("only the player who made an offer cancels it", code="not_sender")
    return await _decide(session, me, offer, "cancelled", from_id=me.id)


async def _decide(
    session: AsyncSession, me: Identity, offer: Offer, status: str, **who: str
) -> OfferOut:
    oid, was = offer.id, offer.status
    if not await repository.decide(session, oid, status, **who):
        raise Conflict(f"this offer is {was} already", code="offer_not_pending")
    await session.commit()
    session.expunge_all()
    return await out(session, await _load(session, me, oid), me.id)
