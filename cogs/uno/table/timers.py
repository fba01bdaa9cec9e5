"""Turn timers: one timer handle per table, fired at the deadline of its armed version."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

from cogs.uno.clock import call_at
from cogs.uno.table.running import LiveTable

Expired = Callable[[LiveTable, int], Coroutine[Any, Any, None]]

SLACK = 0.05  # seconds: a timer this close to its deadline has reached it


class TurnTimers:
    """Arms and cancels each table's deadline; what a timeout does is `on_expire`'s.

    A deadline is a plain `call_at` handle, not a sleeping task: every accepted
    action re-arms it, and a cancelled task would still have to wake and unwind
    (a CancelledError per action), and keep its frame alive meanwhile. A handle is
    not replaced when the deadline moves later (every move puts it later): it fires
    at the old one, finds the deadline ahead and waits on. A handle per action, each
    left in the loop's queue once cancelled, kept about 3 objects per action alive
    for seconds, which every full collection of the collector scanned.
    """

    def __init__(self, on_expire: Expired) -> None:
        self._on_expire = on_expire
        self._running: set[asyncio.Task[None]] = set()

    def arm(self, table: LiveTable) -> None:
        if table.deadline is None or table.match.is_over or table.closed:
            self.cancel(table)
            return
        when = self._when(table.deadline)
        timer = table.timer
        if timer is not None and timer.when() <= when + SLACK:
            return  # it fires first and waits on (`_fire`)
        self.cancel(table)
        table.timer = call_at(when, self._fire, table)

    @staticmethod
    def _when(deadline: datetime) -> float:
        loop = asyncio.get_running_loop()
        return loop.time() + max(0.0, (deadline - datetime.now(UTC)).total_seconds())

    @staticmethod
    def cancel(table: LiveTable) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None

    def _fire(self, table: LiveTable) -> None:
        fired, table.timer = table.timer, None  # re-arming from the timeout must not cancel it
        if table.deadline is None or table.match.is_over or table.closed:
            return
        when = self._when(table.deadline)
        if fired is not None and when > fired.when() + SLACK:
            table.timer = call_at(when, self._fire, table)  # moved later since: wait on
            return
        task = asyncio.create_task(
            self._on_expire(table, table.match.version), name=f"uno-timer-{table.match_id}"
        )
        self._running.add(task)
        task.add_done_callback(self._running.discard)
