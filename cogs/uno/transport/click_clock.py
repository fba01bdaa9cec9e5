"""How long ago Discord created an interaction: a click past its 3 s gets no work."""

from __future__ import annotations

import math
import time

import discord

ANSWER_WITHIN = 3.0  # Discord fails a click not answered within 3 s
TOO_LATE = 2.7  # past this, an answer would not arrive in time: drop the click
WINDOW = 60.0  # seconds over which the host clock's offset is re-estimated


class ClickClock:
    """The age of an interaction from its snowflake id, robust to a skewed host clock.

    `time.time() - created` is the click's age plus the host clock's offset from
    Discord's. The smallest value seen over the last minute or two is taken as
    that offset (some click always arrives without queueing), so a host clock a
    few seconds off never makes every click look late.
    """

    def __init__(self) -> None:
        self._current = math.inf
        self._previous = math.inf
        self._window_start = time.monotonic()

    def age(self, interaction_id: int) -> float:
        created = discord.utils.snowflake_time(interaction_id).timestamp()
        offset = time.time() - created
        now = time.monotonic()
        if now - self._window_start > WINDOW:
            self._previous, self._current = self._current, math.inf
            self._window_start = now
        self._current = min(self._current, offset)
        return max(0.0, offset - min(self._current, self._previous))

    @staticmethod
    def budget(age: float) -> float:
        """How long work may wait (for a table's lock) and still be answered in time."""
        return max(0.0, TOO_LATE - 0.5 - age)
