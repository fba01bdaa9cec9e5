"""Turn timers: one timer handle per table, fired at the deadline of its armed version."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

from cogs.uno.table import Table

Expired = Callable[[Table, int], Coroutine[Any, Any, None]]


class TurnTimers:
    """Arms and cancels each table's deadline; what a timeout does is `on_expire`'s.

    A deadline is a plain `call_at` handle, not a sleeping task: every accepted
    action re-arms it, and a cancelled task would still have to wake and unwind
    (a CancelledError per action), and keep its frame alive meanwhile.
    """

    def __init__(self, on_expire: Expired) -> None:
        self._on_expire = on_expire
        self._running: set[asyncio.Task[None]] = set()

    def arm(self, table: Table) -> None:
        self.cancel(table)
        if table.deadline is None or table.match.is_over or table.closed:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, (table.deadline - datetime.now(UTC)).total_seconds())
        table.timer = loop.call_at(loop.time() + delay, self._fire, table, table.match.version)

    @staticmethod
    def cancel(table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None

    def _fire(self, table: Table, version: int) -> None:
        table.timer = None  # re-arming from the timeout must not cancel it
        task = asyncio.create_task(
            self._on_expire(table, version), name=f"uno-timer-{table.match_id}"
        )
        self._running.add(task)
        task.add_done_callback(self._running.discard)
