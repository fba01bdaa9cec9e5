"""The per-channel message edit limit (about 5 edits per 5 s), a fixed window per channel."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .clock import Clock
from .errors import ApiError

EDIT_BUCKET = "3b0fbf1e8a6e4c2bd2f1a7c6e9d8b5a4"


@dataclass
class _Window:
    start: float
    used: int = 0


class EditRateLimit:
    """Count edits per channel in windows of `per` seconds on the emulator clock.

    Answers carry Discord's `X-RateLimit-*` headers so discord.py schedules its own
    requests; a 429 carries `retry_after` and `Via`, which discord.py needs to retry.
    """

    def __init__(self, clock: Clock, *, limit: int = 5, per: float = 5.0) -> None:
        self.clock = clock
        self.limit = limit
        self.per = per
        self._windows: dict[int, _Window] = {}

    def _window(self, channel_id: int) -> _Window:
        now = self.clock.now()
        window = self._windows.get(channel_id)
        if window is None or now >= window.start + self.per:
            window = self._windows[channel_id] = _Window(start=now)
        return window

    def take(self, channel_id: int) -> None:
        """Count one edit in the channel, or raise a 429 ApiError."""
        window = self._window(channel_id)
        if window.used >= self.limit:
            retry_after = round(window.start + self.per - self.clock.now(), 3)
            headers = self.headers(channel_id)
            headers["Retry-After"] = str(math.ceil(retry_after))
            # The bot's own limit on this route ("user"), not a resource's shared one: so
            # this 429 counts towards the invalid requests, as Discord counts it.
            headers["X-RateLimit-Scope"] = "user"
            raise ApiError(
                429,
                None,
                "You are being rate limited.",
                kind="rate_limited",
                headers=headers,
                extra={"retry_after": retry_after, "global": False},
            )
        window.used += 1

    def headers(self, channel_id: int) -> dict[str, str]:
        window = self._window(channel_id)
        reset_after = max(window.start + self.per - self.clock.now(), 0.0)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(self.limit - window.used, 0)),
            "X-RateLimit-Reset": f"{self.clock.now() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            # Discord names the route's limit, not the channel: clients key a bucket by
            # this hash plus the route's major parameters (the channel id).
            "X-RateLimit-Bucket": EDIT_BUCKET,
        }
