"""A wall clock that tests can move forward."""

from __future__ import annotations

import time
from collections.abc import Callable


class Clock:
    """Real time plus an offset that `advance()` grows; listeners hear every jump."""

    def __init__(self) -> None:
        self._offset = 0.0
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        """Return seconds since the Unix epoch on the emulator's clock."""
        return time.time() + self._offset

    def advance(self, seconds: float) -> None:
        """Jump forward (token expiry, rate-limit refill and deadlines all see it)."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
        for listener in list(self._listeners):
            listener()

    def on_advance(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)
