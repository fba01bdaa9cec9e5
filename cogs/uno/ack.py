"""A watchdog per click: if its answer is not out by 2 s, acknowledge it first.

Applying a move waits for the table's lock and a database commit; on a starved
machine either can take seconds. Rather than answer after Discord's 3 s (the
player sees "This interaction failed"), the click is acknowledged with a
deferred response as soon as its time runs short, and the answer is edited in
when it is ready.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from cogs.uno import answers
from cogs.uno.timers import call_at

ACK_AT = 2.0  # seconds after the click was made (a locked database fails at 1.5 s)


class Ack:
    """Arm with the click's age; `settle()` says whether the answer must be edited in."""

    def __init__(self, interaction: discord.Interaction[Any], *, new_message: bool) -> None:
        self._interaction = interaction
        self._new_message = new_message
        self._timer: asyncio.TimerHandle | None = None
        self._sent: asyncio.Task[None] | None = None

    def arm(self, age: float) -> None:
        loop = asyncio.get_running_loop()
        self._timer = call_at(loop.time() + max(0.0, ACK_AT - age), self._fire)

    def _fire(self) -> None:
        self._timer = None
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
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
