"""Discord's per-route rate limits, as the raw path meets them (as discord.py keeps them).

A route's requests share a bucket keyed by the route and its major parameter (the
channel) until Discord names the bucket (X-RateLimit-Bucket): then by that name and the
major parameter. Each answer says how many requests the bucket has left and when it
fills again (X-RateLimit-Remaining, X-RateLimit-Reset-After); with none left, the next
request waits for the reset instead of meeting a 429.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping


class RouteBuckets:
    """Remaining requests, reset time (the loop's clock) and size per bucket."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}  # route key -> Discord's bucket name
        self._left: dict[str, tuple[int, float, int]] = {}  # key -> (remaining, reset, limit)

    def key(self, route: str, major: str) -> str:
        return f"{self._names.get(route, route)}:{major}"

    async def wait(self, route: str, major: str) -> None:
        """Wait until the bucket has a request left; count this one."""
        loop = asyncio.get_running_loop()
        while True:
            key = self.key(route, major)
            remaining, reset, limit = self._left.get(key, (1, 0.0, 1))
            now = loop.time()
            if now >= reset:
                remaining = max(remaining, limit)  # the bucket filled again
            if remaining > 0:
                self._left[key] = (remaining - 1, reset, limit)
                return
            await asyncio.sleep(reset - now)  # Discord's own reset time: nothing to wait on

    def update(self, route: str, major: str, headers: Mapping[str, str]) -> None:
        """What an answer's headers say of its bucket."""
        name = headers.get("x-ratelimit-bucket")
        if name is not None and self._names.get(route) != name:
            self._left.pop(self.key(route, major), None)
            self._names[route] = name
        with contextlib.suppress(KeyError, ValueError):
            remaining = int(headers["x-ratelimit-remaining"])
            reset_after = float(headers["x-ratelimit-reset-after"])
            limit = int(headers.get("x-ratelimit-limit", remaining + 1))
            now = asyncio.get_running_loop().time()
            self._left[self.key(route, major)] = (remaining, now + reset_after, limit)

    def hold(self, route: str, major: str, seconds: float) -> None:
        """A 429 on this bucket: nothing goes on it for `seconds`."""
        key = self.key(route, major)
        limit = self._left.get(key, (1, 0.0, 1))[2]
        self._left[key] = (0, asyncio.get_running_loop().time() + seconds, limit)
