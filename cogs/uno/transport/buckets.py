"""Discord's per-route rate limits, as the raw path meets them (as discord.py keeps them).

A route's requests share a bucket keyed by the route and its major parameter (the
channel) until Discord names the bucket (X-RateLimit-Bucket): then by that name and the
major parameter. Each answer says how many requests the bucket has left and when it
fills again (X-RateLimit-Remaining, X-RateLimit-Reset-After); with none left, the next
request waits for the reset instead of meeting a 429. A bucket not known yet lets one
request go and the others wait for its answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Mapping

_UNKNOWN = (0, math.inf, 1)  # a first request is out: the others wait for its answer


class RouteBuckets:
    """Remaining requests, reset time (the loop's clock) and size per bucket."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}  # route key -> Discord's bucket name
        self._left: dict[str, tuple[int, float, int]] = {}  # key -> (remaining, reset, limit)
        self._changed = asyncio.Event()

    def key(self, route: str, major: str) -> str:
        return f"{self._names.get(route, route)}:{major}"

    async def wait(self, route: str, major: str) -> None:
        """Wait until the bucket has a request left; count this one."""
        loop = asyncio.get_running_loop()
        while True:
            key = self.key(route, major)
            if key not in self._left:
                self._left[key] = _UNKNOWN
                return
            remaining, reset, limit = self._left[key]
            now = loop.time()
            if now >= reset:  # the bucket filled again; its answers will say till when
                remaining, reset = limit, math.inf
            if remaining > 0:
                self._left[key] = (remaining - 1, reset, limit)
                return
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(None if math.isinf(reset) else reset - now):
                    await changed.wait()  # an answer, or the reset

    def update(self, route: str, major: str, headers: Mapping[str, str]) -> None:
        """What an answer's headers (names lower-cased) say of its bucket."""
        key = self.key(route, major)
        old = self._left.pop(key, None)
        name = headers.get("x-ratelimit-bucket")
        if name is not None:
            self._names[route] = name
            key = self.key(route, major)
            old = self._left.pop(key, old)
        try:
            remaining = int(headers["x-ratelimit-remaining"])
            reset_after = float(headers["x-ratelimit-reset-after"])
            limit = int(headers.get("x-ratelimit-limit", remaining + 1))
        except (KeyError, ValueError):
            # Nothing said: a bucket whose window has no known end is unknown again.
            if old is not None and not math.isinf(old[1]):
                self._left[key] = old
            self._wake()
            return
        now = asyncio.get_running_loop().time()
        if old is not None and old != _UNKNOWN and now < old[1]:
            # The same window: requests sent since this one left count too.
            remaining = min(remaining, old[0])
        self._left[key] = (remaining, now + reset_after, limit)
        self._wake()

    def hold(self, route: str, major: str, seconds: float) -> None:
        """A 429 on this bucket: nothing goes on it for `seconds`."""
        key = self.key(route, major)
        limit = self._left.get(key, _UNKNOWN)[2]
        self._left[key] = (0, asyncio.get_running_loop().time() + seconds, limit)
        self._wake()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()
