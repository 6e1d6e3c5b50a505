"""The ``committed`` event of the game session service (app/games/sessions.py): its
listeners hear of each batch this worker commits, once and in seq order, of the batches
another writer committed when this worker reads them, and of nothing else (a rejected
action, a catch-up that finds nothing new).  A real SQLite database and the real engine."""

from __future__ import annotations

from pathlib import Path

from app.db import Database
from app.games import service
from app.games.runtime import GameRuntime
from app.games.schemas import GameCreate
from app.games.sessions import GameSessions
from app.models import Base, Identity
from app.pubsub import InProcessPubSub
from app.security import hash_token, new_id
from app.settings import Settings

from .helpers import SCENARIO


async def _game(db: Database) -> str:
    """A Pegasus Bridge game whose two seats are the server's bots (its submits: by=None)."""
    async with db.sessions() as s:
        me = Identity(id=new_id("i"), name="Creator", token_hash=hash_token(new_id("t")))
        s.add(me)
        await s.flush()
        body = GameCreate(scenario_id=SCENARIO, mode="1v1", bots=["AXIS", "ALLIES"], seed=7)
        game_id = await service.add_game(s, me, body, allow_test_seed=True)
        await s.commit()
    return game_id


def _move(rt: GameRuntime) -> tuple[str, dict[str, object]]:
    seat = rt.rs.to_act(rt.state)[0]
    return seat, rt.rs.legal_actions(rt.state, seat)[0]


async def test_committed_is_heard_once_per_committed_batch(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'committed.db'}"
    settings = Settings(database_url=url, idle_evict_seconds=0)
    db = Database(url)
    async with db.engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    game_id = await _game(db)
    here, other = (GameSessions(settings, db, InProcessPubSub()) for _ in range(2))
    heard: list[int] = []
    here.committed.append(lambda rt: heard.append(rt.seq))
    await here.start()
    try:
        rt = await here.registry.get(game_id)
        first = rt.seq
        seat, action = _move(rt)

        # refused actions commit nothing and tell nobody
        assert (await here.submit(rt, seat, rt.seq + 3, action)).code == "stale_seq"
        assert (await here.submit(rt, seat, rt.seq, {"type": "no_such_step"})).ok is False
        stranger = await here.submit(rt, seat, rt.seq, action, by="i_stranger")
        assert stranger.code == "not_seated"
        assert (await here.submit_meta(rt, "NOBODY", {"type": "undo"})).ok is False
        await here.catch_up(rt)  # nothing new in the log
        assert heard == [] and rt.seq == first

        # each accepted action: one event, after its batch, in seq order
        acked = []
        for _ in range(6):
            seat, action = _move(rt)
            out = await here.submit(rt, seat, rt.seq, action)
            assert out.ok, out
            acked.append(out.seq)
        assert heard == acked and acked == sorted(acked)

        # another writer's batch (another worker): heard once, when this one reads the log
        theirs = await other.registry.get(game_id)
        seat, action = _move(theirs)
        out = await other.submit(theirs, seat, theirs.seq, action)
        assert out.ok
        await here.catch_up(rt)
        await here.catch_up(rt)
        assert heard == [*acked, out.seq] and rt.seq == out.seq

        # an action on the stale state loses the compare-and-set: refused, and the batch
        # it found in the log is heard once
        seat, action = _move(theirs)
        later = await other.submit(theirs, seat, theirs.seq, action)
        seat, action = _move(rt)
        assert (await here.submit(rt, seat, rt.seq, action)).code == "stale_seq"
        assert heard == [*acked, out.seq, later.seq]
    finally:
        await here.stop()
        await other.stop()
        await db.dispose()
