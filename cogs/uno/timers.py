"""Turn timers: one task per table, fired at the deadline of the version it was armed for."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from cogs.uno.table import Table

Expired = Callable[[Table, int], Awaitable[None]]


class TurnTimers:
    """Arms and cancels each table's deadline; what a timeout does is `on_expire`'s."""

    def __init__(self, on_expire: Expired) -> None:
        self._on_expire = on_expire

    def arm(self, table: Table) -> None:
        self.cancel(table)
        if table.deadline is None or table.match.is_over or table.closed:
            return
        table.timer = asyncio.create_task(
            self._wait(table, table.match.version, table.deadline),
            name=f"uno-timer-{table.match_id}",
        )

    @staticmethod
    def cancel(table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None

    async def _wait(self, table: Table, version: int, deadline: datetime) -> None:
        await asyncio.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()))
        if table.timer is asyncio.current_task():
            table.timer = None  # finishing: re-arming from the timeout must not cancel it
        await self._on_expire(table, version)
