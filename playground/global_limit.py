"""Discord's global rate limit: 50 bot-token requests a second for the whole application."""

from __future__ import annotations

import math
from collections import deque

from .clock import Clock
from .errors import ApiError


class GlobalRateLimit:
    """At most `limit` bot-token requests in any `per` seconds, on the emulator clock.

    `rest.py` counts every request made with the bot token; interaction callbacks and
    interaction-token webhooks are outside the limit, as on Discord. One window for the
    application, whatever connection or process the requests come from (the emulator
    sees them all). A refused request takes no place in it. `limit` None turns the limit
    off (a knob for measurements, not Discord's behaviour).
    """

    def __init__(self, clock: Clock, *, limit: int | None = 50, per: float = 1.0) -> None:
        self.clock = clock
        self.limit = limit
        self.per = per
        self._taken: deque[float] = deque()
        self.received = 0  # every bot-token request, refused or not (a client's own count)

    def take(self) -> None:
        """Count one bot-token request, or raise the global 429 as an ApiError."""
        self.received += 1
        if self.limit is None:
            return
        now = self.clock.now()
        self._expire(now)
        if len(self._taken) >= self.limit:
            raise self._refusal(round(self._taken[0] + self.per - now, 3))
        self._taken.append(now)

    def in_window(self) -> int:
        """The requests counted in the last `per` seconds (a test lowering the limit waits
        for none, so a bot that came before it is not held against the next)."""
        self._expire(self.clock.now())
        return len(self._taken)

    def _expire(self, now: float) -> None:
        while self._taken and self._taken[0] <= now - self.per:
            self._taken.popleft()

    def _refusal(self, retry_after: float) -> ApiError:
        headers = {
            "Retry-After": str(max(math.ceil(retry_after), 1)),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
        }
        return ApiError(
            429,
            None,
            "You are being rate limited.",
            kind="global_rate_limited",
            headers=headers,
            extra={"retry_after": retry_after, "global": True},
        )
