"""Campaigns: each battle is an ordinary game created through the games service; the
campaign links them.  Any ruleset that declares campaign support (``supports_campaign``)
plays them; what a side takes into the next battle is the ruleset's
``campaign_carry(score, wins)`` of its ``campaign_score`` of the previous battle and its
campaign victories, passed to the game as option ``campaign`` (Memoir '44, 004
"Simplified Campaign Rules": the pre-battle dice, Victory Points plus victories; the
engine plays the roll and its effects in the battle itself).  The campaign's ruleset is
its first battle's.

Sides: the creator names his side; the other side's player is whoever holds its seat in
the first battle (or the bot); later battles seat both of them at once.  The campaign
is stored (``campaigns`` / ``campaign_battles``) like a game, so it survives restarts.
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..engine_api import campaign_rulesets, ruleset
from ..errors import Conflict, Forbidden, NotFound, Unprocessable
from ..games import repository as games_repo
from ..games import service as games
from ..games.runtime import load_runtime
from ..games.schemas import GameCreate
from ..models import Campaign, CampaignBattle, Identity
from ..scenarios import repository as scenario_repo
from ..scenarios import service as scenarios
from ..security import new_id
from . import repository
from .schemas import BattleOut, CampaignCreate, CampaignOut

SIDES = ("AXIS", "ALLIES")
BOT = "bot"


def _check_sides(body: CampaignCreate) -> None:
    if body.seat is not None and body.seat not in SIDES:
        raise Unprocessable(f"seat must be one of {list(SIDES)}", code="invalid_options")
    if not set(body.bots) <= set(SIDES) or body.seat in body.bots:
        raise Unprocessable("bots: sides other than yours", code="invalid_options")


def _check_ruleset(name: str) -> None:
    if name not in campaign_rulesets():
        raise Unprocessable(
            f"ruleset {name!r} plays no campaign (one of {campaign_rulesets()})",
            code="invalid_options",
        )


async def _ruleset_of(session: AsyncSession, c: Campaign) -> str:
    """The campaign's ruleset: its first battle's."""
    return (await games.get_game(session, c.battles[0].game_id)).ruleset


async def _battle_game(
    session: AsyncSession,
    creator: Identity,
    campaign: Campaign,
    index: int,
    dice: dict[str, int],
    rs_name: str,
) -> str:
    """Battle ``index``'s game (flushed, committed by the caller with its
    ``campaign_battles`` row: UNIQUE(campaign, index) then leaves no second game); returns
    its id."""
    options = dict(campaign.options or {})
    if any(dice.values()):
        options["campaign"] = dict(dice)
    players = campaign.players or {}
    mine = next((s for s, who in players.items() if who == creator.id), None)
    bots = [s for s, who in players.items() if who == BOT]
    game_id = await games.add_game(
        session,
        creator,
        GameCreate(
            ruleset=rs_name,
            scenario_id=campaign.scenarios[index],
            options=options,
            seat=mine,
            bots=bots,
        ),
    )
    for side, who in players.items():
        if who not in (None, BOT, creator.id):
            await games_repo.set_seat(
                session, game_id, side, identity_id=who, is_bot=False, only_if_free=True
            )
    return game_id


async def create_campaign(session: AsyncSession, me: Identity, body: CampaignCreate) -> CampaignOut:
    _check_sides(body)
    _check_ruleset(body.ruleset)
    for sid in body.scenario_ids:
        await scenarios.ensure_row(session, sid)
    players: dict[str, str | None] = {s: None for s in SIDES}
    if body.seat:
        players[body.seat] = me.id
    for s in body.bots:
        players[s] = BOT
    campaign = Campaign(
        id=new_id("c"),
        name=body.name,
        created_by=me.id,
        scenarios=list(body.scenario_ids),
        options=dict(body.options),
        players=players,
        status="active",
    )
    game_id = await _battle_game(session, me, campaign, 0, {}, body.ruleset)
    await repository.add(session, campaign)
    await repository.add_battle(
        session, CampaignBattle(campaign_id=campaign.id, index=0, game_id=game_id, dice={})
    )
    await session.commit()
    return await get_campaign(session, campaign.id)


async def _load(session: AsyncSession, campaign_id: str) -> Campaign:
    c = await repository.get(session, campaign_id)
    if c is None:
        raise NotFound(f"no campaign {campaign_id!r}", code="campaign_not_found")
    await session.refresh(c, ["battles"])
    return c


async def _refresh(session: AsyncSession, c: Campaign) -> dict[str, str]:
    """Record the results of finished battles and the sides' players; returns the
    status of every battle's game (game id -> status)."""
    statuses: dict[str, str] = {}
    changed = False
    players = dict(c.players or {})
    for b in c.battles:
        game = await games.get_game(session, b.game_id)
        statuses[b.game_id] = game.status
        for seat in game.seats:
            if seat.side in players and players[seat.side] is None and seat.identity_id:
                players[seat.side] = seat.identity_id
                changed = True
        if game.status == "finished" and b.medals is None:
            rt = await load_runtime(session, game.id)
            score = ruleset(game.ruleset).campaign_score(rt.state)
            b.medals = {s: int(score.get(s, 0)) for s in SIDES}
            b.winner = game.winner if game.winner in SIDES else None
            changed = True
    if changed:
        c.players = players
        done = len(c.battles) == len(c.scenarios) and all(b.medals is not None for b in c.battles)
        c.status = "finished" if done else "active"
        await session.commit()
    return statuses


def _wins(c: Campaign) -> dict[str, int]:
    return {s: sum(1 for b in c.battles if b.winner == s) for s in SIDES}


async def _names(session: AsyncSession, ids: list[str]) -> list[str]:
    """The scenarios' names (an id whose row is gone: the id)."""
    out = []
    for sid in ids:
        row = await scenario_repo.get(session, sid)
        out.append(row.name if row is not None else sid)
    return out


def _next(c: Campaign, rs_name: str) -> BattleOut | None:
    if not c.battles or len(c.battles) >= len(c.scenarios):
        return None
    last = c.battles[-1]
    if last.medals is None:
        return None
    wins = _wins(c)
    carry = ruleset(rs_name).campaign_carry({s: last.medals.get(s, 0) for s in SIDES}, wins)
    dice = {s: int(carry.get(s, 0)) for s in SIDES}
    index = last.index + 1
    return BattleOut(
        index=index,
        scenario_id=c.scenarios[index],
        game_id=None,
        status="pending",
        dice=dice,
        winner=None,
        medals=None,
    )


async def get_campaign(session: AsyncSession, campaign_id: str) -> CampaignOut:
    c = await _load(session, campaign_id)
    statuses = await _refresh(session, c)
    rs_name = await _ruleset_of(session, c)
    wins = _wins(c)
    names = await _names(session, list(c.scenarios))
    battles = [
        BattleOut(
            index=b.index,
            scenario_id=c.scenarios[b.index],
            scenario_name=names[b.index],
            game_id=b.game_id,
            status=statuses.get(b.game_id, "open"),
            dice=dict(b.dice or {}),
            winner=b.winner,
            medals=b.medals,
        )
        for b in c.battles
    ]
    winner = None
    if c.status == "finished" and wins["AXIS"] != wins["ALLIES"]:
        winner = max(SIDES, key=lambda s: wins[s])
    nxt = _next(c, rs_name)
    if nxt is not None:
        nxt.scenario_name = names[nxt.index]
    return CampaignOut(
        id=c.id,
        name=c.name,
        ruleset=rs_name,
        status=c.status,
        scenarios=list(c.scenarios),
        scenario_names=names,
        options=dict(c.options or {}),
        players=dict(c.players or {}),
        wins=wins,
        battles=battles,
        next=nxt,
        winner=winner,
    )


async def list_campaigns(session: AsyncSession) -> list[CampaignOut]:
    return [await get_campaign(session, c.id) for c in await repository.list_all(session)]


async def next_battle(session: AsyncSession, me: Identity, campaign_id: str) -> CampaignOut:
    """Create the next battle's game (the previous one must be finished)."""
    c = await _load(session, campaign_id)
    await _refresh(session, c)
    if me.id not in (c.players or {}).values() and me.id != c.created_by:
        raise Forbidden(
            "only the campaign's players start its battles", code="not_a_campaign_player"
        )
    rs_name = await _ruleset_of(session, c)
    nxt = _next(c, rs_name)
    if nxt is None:
        code = "campaign_finished" if c.status == "finished" else "battle_not_finished"
        raise Conflict("no battle to start now", code=code)
    campaign_id, index, dice = c.id, nxt.index, nxt.dice
    try:  # one game per battle: UNIQUE(campaign_id, index) (uq_campaign_battle)
        game_id = await _battle_game(session, me, c, index, dice, rs_name)
        await repository.add_battle(
            session,
            CampaignBattle(campaign_id=campaign_id, index=index, game_id=game_id, dice=dice),
        )
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise Conflict(
            "this battle was just started by another request",
            code="battle_already_started",
            index=index,
        ) from None
    return await get_campaign(session, campaign_id)
