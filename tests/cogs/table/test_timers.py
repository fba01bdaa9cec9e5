"""Turn timers (cogs/uno/table/timers.py) on the real event loop: a deadline put later keeps its
handle, which fires early and waits on; a deadline put sooner replaces it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from cogs.uno.clock import call_at
from cogs.uno.i18n.l10n import CROATIAN, ENGLISH, language, speaking
from cogs.uno.table.running import LiveTable
from cogs.uno.table.timers import TurnTimers
from tests.cogs.table.test_tables import pizza_table


class Expiries:
    """The `on_expire` of the timers: records each (table, version) it is called with."""

    def __init__(self) -> None:
        self.seen: list[int] = []
        self.fired = asyncio.Event()

    async def __call__(self, table: LiveTable, version: int) -> None:
        self.seen.append(version)
        self.fired.set()


def _in(seconds: float) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds)


async def test_a_deadline_put_later_keeps_its_handle_and_expires_at_the_new_one() -> None:
    expiries, table = Expiries(), pizza_table()
    timers = TurnTimers(expiries)
    try:
        table.deadline = _in(0.2)
        timers.arm(table)
        first = table.timer
        assert first is not None
        table.deadline = _in(3.0)  # a move: the turn's deadline is later
        timers.arm(table)
        assert table.timer is first  # not a new handle per move
        loop = asyncio.get_running_loop()
        await asyncio.sleep(first.when() - loop.time() + 0.2)  # past the old deadline
        assert table.timer is not first  # it fired there and waits on
        assert expiries.seen == []
        assert table.timer is not None
        assert table.timer.when() > first.when() + 2.0
        await asyncio.wait_for(expiries.fired.wait(), 10)
        assert expiries.seen == [table.match.version]
        assert table.timer is None
    finally:
        timers.cancel(table)


async def test_a_deadline_put_sooner_replaces_the_handle() -> None:
    expiries, table = Expiries(), pizza_table()
    timers = TurnTimers(expiries)
    try:
        table.deadline = _in(60.0)
        timers.arm(table)
        late = table.timer
        assert late is not None
        table.deadline = _in(0.1)
        timers.arm(table)
        assert late.cancelled()
        await asyncio.wait_for(expiries.fired.wait(), 10)
        assert expiries.seen == [table.match.version]
    finally:
        timers.cancel(table)


async def test_a_closed_table_is_not_timed_out() -> None:
    expiries, table = Expiries(), pizza_table()
    timers = TurnTimers(expiries)
    table.deadline = _in(0.1)
    timers.arm(table)
    handle = table.timer
    table.closed = True
    timers.arm(table)
    assert table.timer is None
    assert handle is not None
    assert handle.cancelled()


async def test_a_timer_does_not_keep_the_language_it_was_armed_in() -> None:
    heard: list[str] = []
    done = asyncio.Event()

    def callback() -> None:
        heard.append(language())
        if len(heard) == 2:
            done.set()

    loop = asyncio.get_running_loop()
    with speaking(CROATIAN):
        call_at(loop.time(), callback)
        loop.call_at(loop.time(), callback)  # asyncio's own: the arming code's context
    await asyncio.wait_for(done.wait(), 10)
    assert heard == [ENGLISH, CROATIAN]
