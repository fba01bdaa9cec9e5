"""A place in the request budget's queue, granted once, spent by one request."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from cogs.uno.transport.priority import Priority


@dataclass(slots=True, eq=False)
class Ticket:
    """One bot-token request's slot: waiting, then granted, then spent.

    A table asks for its slot before it renders, so what it sends is the newest state;
    while it waits, a public moment may raise it (`raise_to`).
    """

    priority: Priority
    order: int  # arrival: among equals, the first to ask goes first
    granted: asyncio.Future[None]
    asked: float  # the loop's time it was asked for
    spent: bool = False
    counted_at: float | None = None  # where the budget's window counts it: grant, then send

    def raise_to(self, level: Priority) -> None:
        """Go ahead of the waiters below `level` (no effect once granted, or if lower)."""
        if level < self.priority and not self.granted.done():
            self.priority = level

    async def wait(self) -> None:
        await self.granted
