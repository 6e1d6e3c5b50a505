"""app.db.WriteGate: SQLite's writers queue on it.  Log appends hold it together, any other
write transaction alone, first come first served (an exclusive writer waiting stops later
appends), and a cancelled waiter gives back what it was granted."""
from __future__ import annotations

import asyncio

from app.db import WriteGate


def run(coro):
    return asyncio.run(coro)


def test_appends_share_and_exclusive_waits_for_them():
    async def main():
        gate, log = WriteGate(), []

        async def append(name, hold):
            async with gate.shared:
                log.append(f"+{name}")
                await asyncio.sleep(hold)
                log.append(f"-{name}")

        async def orm(name):
            async with gate:
                log.append(f"+{name}")
                await asyncio.sleep(0.01)
                log.append(f"-{name}")

        a = asyncio.create_task(append("a", 0.05))
        b = asyncio.create_task(append("b", 0.02))
        await asyncio.sleep(0)
        o = asyncio.create_task(orm("orm"))
        await asyncio.sleep(0)
        c = asyncio.create_task(append("c", 0.01))       # after the waiting writer
        await asyncio.gather(a, b, o, c)
        return log

    log = run(main())
    assert log[:2] == ["+a", "+b"]                      # together
    assert log.index("+orm") > log.index("-a")          # alone, after both
    assert log.index("+c") > log.index("-orm")          # no overtaking the writer


def test_cancelled_waiter_gives_back():
    async def main():
        gate = WriteGate()
        await gate.__aenter__()
        waiter = asyncio.create_task(gate.__aenter__())
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        await gate.__aexit__(None, None, None)
        async with gate.shared:                       # nothing left held
            pass
        async with gate:
            pass
        return gate._held, gate._exclusive, len(gate._waiters)

    assert run(main()) == (0, False, 0)
