"""Games: creation (mode, layout, bots), player slots (claim / leave / bot), public
summaries, finished logs and the redacted event log of a running game."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import OrderedDict
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from ..engine_api import (
    EngineError,
    Ruleset,
    bot_levels,
    bots_stand_in,
    natural_ruleset,
    rng_seed,
    ruleset,
    rulesets_for,
    seed_commitment,
    verify_log,
)
from ..errors import BadRequest, Conflict, Forbidden, NotFound, Unprocessable
from ..models import ActionRow, Game, Identity, Seat, utcnow
from ..scenarios import repository as scenario_repo
from ..scenarios import service as scenarios
from ..clocks.schemas import ClockIn
from ..security import new_id
from . import catchup, repository
from .modes import build_slots, get_mode, seat_spec
from .privacy import require_watch
from .runtime import SeatInfo, dice_info, game_fields, game_scenario, replay_failure, settle_chance
from .schemas import (
    EventEntry,
    GameCreate,
    GameCreated,
    GameEvents,
    GameLog,
    GameSummary,
    LogEntry,
    SeatOut,
    SlotOut,
)

LIVE_STATUSES = ("open", "live")
LOG_FORMAT = "overlord-log/1"
EVENTS_PAGE = 500  # log entries per GET /api/games/{id}/events answer


def clock_settings(clock: ClockIn | None) -> dict[str, Any] | None:
    """The ``games.clock`` column: the settings of the chosen kind (None: untimed)."""
    if clock is None or clock.kind == "none":
        return None
    keep = {"bank": ("initial_seconds", "increment_seconds"), "move": ("move_seconds",)}
    return {
        "kind": clock.kind,
        "on_timeout": clock.on_timeout,
        **{k: getattr(clock, k) for k in keep[clock.kind]},
    }


class Notifier(Protocol):
    async def seats_changed(self, game_id: str) -> None: ...


def slots_public(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Group the public seat rows by player slot (order of first appearance)."""
    out: dict[str, dict[str, Any]] = {}
    for s in seats:
        sl = out.get(s["slot"])
        if sl is None:
            out[s["slot"]] = {
                "slot": s["slot"],
                "side": s["side"],
                "seats": [s["seat"]],
                "taken": s["taken"],
                "name": s["name"],
                "is_bot": s["is_bot"],
                "mine": s["mine"],
                "bot_reason": s.get("bot_reason"),
                "bot_level": s.get("bot_level"),
            }
        else:
            sl["seats"].append(s["seat"])
    return list(out.values())


def fair_dice(game: Game) -> dict[str, Any]:
    """The public dice commitment; ``seed`` and ``salt`` only once the game is finished."""
    return dice_info(
        game.id, game.commitment, game.status == "finished", game.seed_secret, game.seed_salt
    )


def summary(game: Game, me: Identity | None = None) -> GameSummary:
    seats = [SeatInfo.of(s).public(me.id if me else None) for s in game.seats]
    return GameSummary(
        fair_dice=fair_dice(game),
        unplayable=game.unplayable,
        id=game.id,
        ruleset=game.ruleset,
        ruleset_version=game.ruleset_version,
        renderer=renderer_of(game.ruleset),
        scenario_id=game.scenario_id,
        scenario_name=game.scenario_name,
        mode=game.mode,
        layout=dict(game.layout or {}),
        options=game.options or {},
        private=game.private,
        status=game.status,
        seq=game.seq,
        to_act=list(game.to_act or []),
        turn=game.turn,
        winner=game.winner,
        created_at=game.created_at,
        seats=[SeatOut(**s) for s in seats],
        slots=[SlotOut(**s) for s in slots_public(seats)],
        url=f"/games/{game.id}",
        clock=game.clock,
        rematch_of=game.rematch_of,
        rated=bool(game.rated),
        created_by_me=me is not None and game.created_by == me.id,
    )


def renderer_of(name: str) -> str:
    """The client module that draws games of ruleset ``name`` ("hex" if it is unknown)."""
    try:
        return ruleset(name).renderer
    except EngineError:
        return "hex"


def title_of(name: str) -> str:
    """The title of ruleset ``name``, the rule system a game is played under (the game
    page names it; its own name if it is unknown)."""
    try:
        return ruleset(name).title
    except EngineError:
        return name


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


def _slot_of(name: str, slot_seats: dict[str, tuple[str, ...]]) -> str:
    """A slot name, or a seat name -> its slot."""
    if name in slot_seats:
        return name
    for slot, seats in slot_seats.items():
        if name in seats:
            return slot
    raise NotFound(f"no seat or slot {name!r}; slots: {sorted(slot_seats)}", code="seat_not_found")


async def _setup(session: AsyncSession, body: GameCreate) -> tuple[Any, Any, Ruleset, str]:
    """(scenario row or None, parsed scenario or None, ruleset, mode) of a new game."""
    row = scn = None
    if body.scenario_id is not None:
        row, scn = await scenarios.ensure_row(session, body.scenario_id)
    if body.ruleset is not None:
        rs = ruleset(body.ruleset)  # EngineError -> 422
    elif scn is None:
        raise Unprocessable("a game needs a ruleset or a scenario", code="invalid_options")
    else:
        try:
            rs = natural_ruleset(scn, body.mode)
        except EngineError:
            raise Unprocessable(
                f"mode {body.mode!r} is not offered for this scenario; "
                f"offered: {sum(rulesets_for(scn).values(), [])}",
                code="unknown_mode",
            ) from None
    if rs.setup == "scenario" and scn is None:
        raise Unprocessable(
            f"ruleset {rs.name} is set up from a scenario: give scenario_id",
            code="scenario_required",
        )
    if rs.setup != "scenario":
        row = scn = None
    return row, scn, rs, get_mode(rs, scn, body.mode)


def check_bot_level(level: str | None) -> str | None:
    """A bot level asked for: one of ``bot_levels()`` (None: the default, stored as null);
    422 ``unknown_bot_level`` otherwise."""
    if level is None or level in bot_levels():
        return level
    raise Unprocessable(
        f"unknown bot level {level[:16]!r}; levels: {bot_levels()}", code="unknown_bot_level"
    )


def new_seed(body: GameCreate, allow_test_seed: bool) -> dict[str, Any]:
    """The game's dice: a secret seed (32 bytes from ``secrets``) and salt, the public
    commitment SHA-256(seed || salt) and the engine RNG seed derived from the seed.  A
    client's ``seed`` only on a test server (``OVERLORD_TEST_SEEDS=1``): no commitment."""
    if body.seed is not None:
        if not allow_test_seed:
            raise Forbidden(
                "the server draws every game's dice seed; 'seed' is refused",
                code="seed_not_allowed",
            )
        return {"seed": body.seed, "seed_secret": None, "seed_salt": None, "commitment": None}
    secret, salt = secrets.token_hex(32), secrets.token_hex(16)
    return {
        "seed": rng_seed(secret),
        "seed_secret": secret,
        "seed_salt": salt,
        "commitment": seed_commitment(secret, salt),
    }


async def _plan(session: AsyncSession, body: GameCreate, seed: int) -> tuple[Any, ...]:
    """What a new game would be (refused with the error ``create_game`` would give):
    (scenario row, ruleset, mode, first state, seat specs, layout, slots, the creator's
    slot, the bots' slots)."""
    row, scn, rs, mode_name = await _setup(session, body)
    state = rs.new_game(seed, dict(body.options), scn, mode_name)  # EngineError -> 422
    specs = {s: seat_spec(s) for s in rs.seats(state)}
    layout, slots = build_slots(rs, mode_name, list(specs), body.layout)
    slot_seats = {sl.slot: sl.seats for sl in slots}
    mine = _slot_of(body.seat, slot_seats) if body.seat is not None else None
    bots = {_slot_of(b, slot_seats) for b in body.bots}
    if mine is not None and mine in bots:
        raise Unprocessable(f"slot {mine} cannot be both yours and a bot's", code="invalid_options")
    return row, rs, mode_name, state, specs, layout, slots, mine, bots


async def check_game(session: AsyncSession, body: GameCreate) -> tuple[list[str], str | None]:
    """The player slots of the game ``body`` describes and the creator's, without
    creating it (a challenge is checked when offered, the game created on acceptance)."""
    *_, slots, mine, _bots = await _plan(session, body, 0)
    return [sl.slot for sl in slots], mine


async def create_game(
    session: AsyncSession, creator: Identity, body: GameCreate, allow_test_seed: bool = False
) -> GameCreated:
    game_id = await add_game(session, creator, body, allow_test_seed)
    await session.commit()
    game = await _reload(session, game_id)
    out = summary(game, creator)
    return GameCreated(
        **out.model_dump(), invite=game.invite_code, invite_url=f"/join/{game.invite_code}"
    )


async def add_game(
    session: AsyncSession,
    creator: Identity,
    body: GameCreate,
    allow_test_seed: bool = False,
    rematch_of: str | None = None,
) -> str:
    """A new game's rows (game, seats, its first chance entries) flushed, not committed:
    the caller commits them with whatever links the game (a return match's
    ``rematch_of``, an accepted offer, a campaign battle), so that a refused link leaves
    no game behind.  Returns the game's id."""
    level = check_bot_level(body.bot_level)
    dice = new_seed(body, allow_test_seed)
    row, rs, mode_name, state, specs, layout, slots, mine, bots = await _plan(
        session, body, dice["seed"]
    )
    options = dict(body.options)
    state, entries, _ = settle_chance(rs, state)
    game_id = new_id("g")
    now = utcnow()
    seats = []
    for sl in slots:
        for seat in sl.seats:
            spec = specs[seat]
            seats.append(
                Seat(
                    game_id=game_id,
                    seat=seat,
                    side=spec.side,
                    role=spec.role,
                    slot=sl.slot,
                    identity_id=creator.id if sl.slot == mine else None,
                    is_bot=sl.slot in bots,
                    bot_reason="creator" if sl.slot in bots else None,
                    bot_level=level if sl.slot in bots else None,
                    last_seen=now if sl.slot == mine else None,
                )
            )
    order = {s: i for i, s in enumerate(specs)}  # rows in the engine's seat order
    seats.sort(key=lambda s: order[s.seat])
    infos = [SeatInfo(s.seat, s.side, s.role, s.identity_id, None, bool(s.is_bot)) for s in seats]
    game = Game(
        id=game_id,
        ruleset=rs.name,
        ruleset_version=rs.version,
        scenario_id=row.id if row is not None else None,
        scenario_name=row.name[:200] if row is not None else rs.title,
        mode=mode_name,
        engine_mode=mode_name,
        layout=layout,
        options=options,
        **dice,
        private=body.private,
        invite_code=secrets.token_urlsafe(16),
        seq=len(entries),
        created_by=creator.id,
        clock=clock_settings(body.clock),
        rated=body.rated,
        rematch_of=rematch_of,
        **game_fields(rs, state, infos),
    )
    if game.status == "live":
        game.started_at = now
    await repository.add(session, game, seats)
    session.add_all(
        [
            ActionRow(game_id=game_id, seq=i + 1, seat=seat, action=action)
            for i, (seat, action) in enumerate(entries)
        ]
    )
    await session.flush()
    return game_id


async def list_games(
    session: AsyncSession,
    statuses: list[str],
    me: Identity | None,
    offset: int = 0,
    limit: int = 100,
) -> tuple[list[GameSummary], int]:
    """One lobby page (open games first) and the number of games in all."""
    games, total = await repository.list_games(
        session, statuses, limit, viewer=me.id if me else None, offset=offset
    )
    return [summary(g, me) for g in games], total


def _slot_rows(game: Game, name: str) -> tuple[str, list[Seat]]:
    slot_seats: dict[str, tuple[str, ...]] = {}
    for s in game.seats:
        slot_seats.setdefault(s.slot or s.seat, ())
        slot_seats[s.slot or s.seat] += (s.seat,)
    slot = _slot_of(name, slot_seats)
    return slot, [s for s in game.seats if (s.slot or s.seat) == slot]


def _refuse_ended(game: Game) -> None:
    """Seats of a finished game (``game_finished``) or of one whose log no longer replays
    (``game_unplayable``) do not change."""
    if game.status == "finished":
        raise Conflict("the game is over", code="game_finished")
    if game.status == "unplayable":
        raise Conflict(
            "this game's log no longer replays", code="game_unplayable", **(game.unplayable or {})
        )


async def _after_seat_change(
    session: AsyncSession, notifier: Notifier, game_id: str, me: Identity
) -> GameSummary:
    game = await _reload(session, game_id)
    if game.status not in ("finished", "unplayable"):
        held = all(s.identity_id is not None or s.is_bot for s in game.seats)
        extra = {"started_at": utcnow()} if held and game.started_at is None else {}
        live = held or game.started_at is not None  # started: live for good
        await repository.set_fields(session, game_id, status="live" if live else "open", **extra)
    await session.commit()
    game = await _reload(session, game_id)
    await notifier.seats_changed(game_id)
    return summary(game, me)


async def claim_seat(
    session: AsyncSession,
    notifier: Notifier,
    me: Identity,
    game_id: str,
    seat: str,
    invite: str | None,
) -> GameSummary:
    """Claim a player slot (by its name or one of its seats): a free slot, one's own slot
    back from a bot, or a slot a bot plays for nobody: before the game starts in any mode,
    after it only in the modes with stand-in bots (``Ruleset.bots_stand_in``: the absence policy,
    a person takes the bot's place); a live 1v1 bot keeps its side."""
    game = await get_game(session, game_id)
    slot, rows = _slot_rows(game, seat)
    if all(r.identity_id == me.id and not r.is_bot for r in rows):
        return summary(game, me)
    _refuse_ended(game)
    if (
        game.status == "live"
        and not bots_stand_in(game.ruleset, game.mode)
        and any(r.is_bot and r.identity_id is None for r in rows)
    ):
        raise Conflict(f"a bot plays seat {slot} in this live {game.mode} game", code="seat_taken")
    if (
        game.private
        and not any(r.identity_id == me.id for r in rows)
        and not (
            invite
            and secrets.compare_digest(invite.encode("utf-8", "replace"), game.invite_code.encode())
        )
    ):
        raise Forbidden("this game needs its invite code", code="invite_required")
    n = await repository.claim_slot(session, game_id, slot, me.id)
    if n != len(rows):
        await session.rollback()
        raise Conflict(f"seat {slot} is already taken", code="seat_taken")
    return await _after_seat_change(session, notifier, game_id, me)


async def leave_seat(
    session: AsyncSession, notifier: Notifier, me: Identity, game_id: str, seat: str
) -> GameSummary:
    """Leave a slot: freed (1v1, or before the game is live); in a live team/Overlord
    game a bot takes it over (anyone may claim it from the bot)."""
    game = await get_game(session, game_id)
    slot, rows = _slot_rows(game, seat)
    if any(r.identity_id != me.id for r in rows):
        raise Forbidden(f"you do not hold seat {seat}", code="not_seated")
    _refuse_ended(game)
    if game.status == "live" and bots_stand_in(game.ruleset, game.mode):
        await repository.set_slot(
            session, game_id, slot, identity_id=None, is_bot=True, bot_reason="left"
        )
    else:
        await repository.set_slot(
            session, game_id, slot, identity_id=None, is_bot=False, bot_reason=None
        )
    return await _after_seat_change(session, notifier, game_id, me)


async def seat_bot(
    session: AsyncSession,
    notifier: Notifier,
    me: Identity,
    game_id: str,
    seat: str,
    level: str | None = None,
) -> GameSummary:
    """Give a slot to the server's engine bot at ``level`` (``bot_levels()``): a free slot
    or one a bot plays for nobody (the game's creator: "give to a bot", or a new level), or
    one the caller holds (autopilot: he keeps it and takes it back with a claim).  A person
    who claims a bot's free slot takes it back (:func:`claim_seat`)."""
    level = check_bot_level(level)
    game = await get_game(session, game_id)
    slot, rows = _slot_rows(game, seat)
    holders = {r.identity_id for r in rows}
    if holders - {None, me.id}:
        _refuse_ended(game)
        raise Conflict(f"seat {slot} is already taken", code="seat_taken")
    if me.id not in holders and game.created_by != me.id:
        raise Forbidden("only the game's creator gives a free seat to a bot", code="not_creator")
    _refuse_ended(game)
    if all(r.is_bot and r.bot_level == level for r in rows):
        return summary(game, me)
    await repository.set_slot(
        session,
        game_id,
        slot,
        identity_id=me.id if me.id in holders else None,
        is_bot=True,
        bot_reason="assigned",
        bot_level=level,
    )
    return await _after_seat_change(session, notifier, game_id, me)


async def start_game(
    session: AsyncSession, notifier: Notifier, me: Identity, game_id: str, level: str | None = None
) -> GameSummary:
    """The creator starts an open game: every slot nobody holds goes to a bot at ``level``
    (the seats friends took stay theirs), and the game goes live.  Bots fill seats only
    here, never at the creation of a game whose other seats friends may still take."""
    level = check_bot_level(level)
    game = await get_game(session, game_id)
    if game.created_by != me.id:
        raise Forbidden("only the game's creator starts it", code="not_creator")
    _refuse_ended(game)
    if game.status != "open":
        return summary(game, me)
    free = {r.slot or r.seat for r in game.seats if r.identity_id is None and not r.is_bot}
    for slot in sorted(free):
        await repository.set_slot(
            session,
            game_id,
            slot,
            identity_id=None,
            is_bot=True,
            bot_reason="assigned",
            bot_level=level,
        )
    return await _after_seat_change(session, notifier, game_id, me)


async def game_by_invite(session: AsyncSession, code: str) -> Game:
    game = await repository.by_invite(session, code)
    if game is None:
        raise NotFound("unknown invite code", code="invite_not_found")
    return game


async def finished_log(session: AsyncSession, game_id: str) -> GameLog:
    game = await get_game(session, game_id)
    if game.status != "finished":
        raise Conflict(
            "the log of a running game is secret (it would reveal the dice seed)",
            code="game_not_finished",
        )
    scenario: dict[str, Any] | None = None
    sha256: str | None = None
    if game.scenario_id is not None:
        row = await scenario_repo.get(session, game.scenario_id)
        assert row is not None
        scenario, sha256 = json.loads(row.content), row.sha256
    rows = await repository.actions_after(session, game_id, 0)
    return GameLog(
        format=LOG_FORMAT,
        game_id=game.id,
        ruleset=game.ruleset,
        ruleset_version=game.ruleset_version,
        scenario_id=game.scenario_id,
        scenario_sha256=sha256,
        scenario=scenario,
        mode=game.mode,
        engine_mode=game.engine_mode,
        options=game.options or {},
        commitment=game.commitment,
        seed=game.seed_secret,
        salt=game.seed_salt,
        rng_seed=game.seed,
        winner=game.winner,
        actions=[LogEntry(seq=r.seq, seat=r.seat, action=r.action) for r in rows],
    )


_VERIFIED: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
VERIFIED_KEEP = 256  # finished games whose verdict is kept (a few hundred bytes each)


async def verify_game(session: AsyncSession, game_id: str) -> dict[str, Any]:
    """The engine's verification (``engine.fairdice.verify``) of a finished game's log:
    what ``python -m engine verify`` prints for the exported log (``verdict``) and the
    log's length (``entries``).  A finished game's log no longer changes: its verdict is
    computed once (per worker) and kept for the last ``VERIFIED_KEEP`` games."""
    game = await get_game(session, game_id)
    key = (game_id, game.seq)
    hit = _VERIFIED.get(key)
    if hit is None or game.status != "finished":
        log = (await finished_log(session, game_id)).model_dump(mode="json")
        verdict = await asyncio.to_thread(verify_log, log)
        hit = {"verdict": verdict.to_dict(), "entries": len(log["actions"])}
        _VERIFIED[key] = hit
        while len(_VERIFIED) > VERIFIED_KEEP:
            _VERIFIED.popitem(last=False)
    _VERIFIED.move_to_end(key)
    return hit


async def event_log(
    session: AsyncSession,
    game_id: str,
    me: Identity | None,
    since: int = 0,
    invite: str | None = None,
    watch: str | None = None,
) -> GameEvents:
    """The events of log entries ``since+1..`` of a (running) game, redacted for the
    caller's seats (a spectator's redaction without a seat, or with ``watch`` what that
    side sees): a late joiner's battle log, one page (``EVENTS_PAGE`` entries;
    ``next_since`` when more follow).  Actions and the seed are never sent.  A private
    game needs a seat, its creator or the invite."""
    game = await get_game(session, game_id)
    require_watch(game, me.id if me else None, invite)
    seats = [s.seat for s in game.seats if me is not None and s.identity_id == me.id]
    spectator = None
    if watch is not None:  # a spectator watching one side's board
        spectator = ruleset(game.ruleset).spectator_seat(watch)
        if seats or spectator is None or watch not in {s.side for s in game.seats}:
            raise BadRequest(
                "watch: a side of this game, for spectators of a ruleset with spectator seats",
                code="invalid_watch",
            )
    upto = min(game.seq, since + EVENTS_PAGE)
    entries = await _events(session, game, seats, since, upto, spectator)
    rs = ruleset(game.ruleset)
    first = rs.new_game(
        game.seed, dict(game.options or {}), await game_scenario(session, game), game.mode
    )
    units = list(rs.view_for(first, spectator).get("units") or [])
    return GameEvents(
        game_id=game.id,
        seq=game.seq,
        seats=seats,
        entries=entries,
        next_since=upto if upto < game.seq else None,
        units=units,
    )


async def logged_events(
    session: AsyncSession, game: Game, seats: list[str], since: int, watch: str | None = None
) -> tuple[int, list[EventEntry]]:
    """Rebuild the events of log entries ``since+1..`` from the durable log (from the
    nearest snapshot, ``catchup``), redacted for ``seats`` exactly as the live updates
    are (``events_for_seats``: ``[]`` a spectator, public events only; ``watch`` the
    spectator seat of the side he watches); returns the log's last seq and one entry per
    log row.  Used by the websocket catch-up of a worker that does not hold the batches
    after ``since``."""
    return game.seq, await _events(session, game, seats, since, game.seq, watch)


async def _events(
    session: AsyncSession,
    game: Game,
    seats: list[str],
    since: int,
    upto: int,
    watch: str | None = None,
) -> list[EventEntry]:
    try:
        return await catchup.events(session, game, seats, since, upto, watch)
    except Exception as exc:  # a log that no longer replays: reported, not a 500
        raise await replay_failure(session, game.id, exc) from None
