"""A watchdog per click: if its answer is not out by 2 s, acknowledge it first.

Applying a move waits for the table's lock and a database commit; on a starved
machine either can take seconds. Rather than answer after Discord's 3 s (the
player sees "This interaction failed"), the click is acknowledged with a
deferred response as soon as its time runs short, and the answer is edited in
when it is ready.

One timer watches every click in flight (`_Watch`), not a timer handle per click: a
cancelled handle stays in the event loop's queue for its 2 s, for every full collection
of the garbage collector to scan.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from cogs.uno.clock import call_at
from cogs.uno.transport import answers

ACK_AT = 2.0  # seconds after the click was made (a locked database fails at 1.5 s)


class Ack:
    """Arm with the click's age; `settle()` says whether the answer must be edited in."""

    def __init__(self, interaction: discord.Interaction[Any], *, new_message: bool) -> None:
        self._interaction = interaction
        self._new_message = new_message
        self._sent: asyncio.Task[None] | None = None

    def arm(self, age: float) -> None:
        loop = asyncio.get_running_loop()
        _WATCH.add(self, loop.time() + max(0.0, ACK_AT - age))

    def fire(self) -> None:
        if not self._interaction.response.is_done():
            self._sent = asyncio.create_task(
                answers.defer(self._interaction, new_message=self._new_message)
            )

    async def settle(self) -> bool:
        """Stop the watchdog; True if the click was acknowledged (answer by editing it)."""
        self.cancel()
        if self._sent is None:
            return False
        await self._sent
        return True

    def cancel(self) -> None:
        _WATCH.pending.pop(self, None)


class _Watch:
    """The clicks in flight with when each is due, and one timer at the earliest.

    A click is due ACK_AT after it was made, not after it arrived: one that waited in
    a backlog arrives old and is due sooner than younger clicks armed before it, so
    the timer is moved up for it and each tick looks at every click in flight (a few
    hundred at most, and a tick only comes when one is due).
    """

    def __init__(self) -> None:
        self.pending: dict[Ack, float] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def add(self, ack: Ack, due: float) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (tests run several): start afresh
            self.pending, self._timer, self._loop = {}, None, loop
        self.pending[ack] = due
        if self._timer is None or due < self._timer.when():
            self._set_timer(due)

    def _set_timer(self, due: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = call_at(due, self._tick)

    def _tick(self) -> None:
        self._timer = None
        now = asyncio.get_running_loop().time()
        due_now = [ack for ack, due in self.pending.items() if due <= now]
        for ack in due_now:
            del self.pending[ack]
            ack.fire()
        if self.pending:
            self._set_timer(min(self.pending.values()))


_WATCH = _Watch()
