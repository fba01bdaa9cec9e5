"""Answers to one player's clicks at a table leave in the order they were applied.

The table's lock is released as soon as a click is applied and saved; its
answer goes out afterwards. Two quick clicks could then be answered out of
order (the stale second one first, then the accepted first one, leaving the
"out of date" note hidden). Each click takes a ticket under the lock and waits
for the previous ticket's answer, never holding the lock meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

WAIT_AT_MOST = 0.5  # a slow or lost answer must not hold the next one for long


class AnswerOrder:
    """Tickets handed out in apply order; `turn(ticket)` waits for the ones before.

    The condition is made only when a click really has to wait: a player's
    clicks almost never overlap, and every seated player keeps one of these.
    """

    __slots__ = ("_answered", "_issued", "_moved")

    def __init__(self) -> None:
        self._issued = 0
        self._answered = 0
        self._moved: asyncio.Condition | None = None

    def ticket(self) -> int:
        self._issued += 1
        return self._issued

    @contextlib.asynccontextmanager
    async def turn(self, ticket: int) -> AsyncIterator[None]:
        if ticket and self._answered < ticket - 1:
            if self._moved is None:
                self._moved = asyncio.Condition()
            moved = self._moved
            with contextlib.suppress(TimeoutError):
                async with moved, asyncio.timeout(WAIT_AT_MOST):
                    await moved.wait_for(lambda: self._answered >= ticket - 1)
        try:
            yield
        finally:
            if ticket:
                self._answered = max(self._answered, ticket)
                if self._moved is not None:
                    async with self._moved:
                        self._moved.notify_all()
