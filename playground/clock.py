"""A wall clock that tests can move forward."""

from __future__ import annotations

import time
from collections.abc import Callable


class Clock:
    """Real time plus an offset that `advance()` grows; listeners hear every jump."""

    def __init__(self) -> None:
        self._offset = 0.0
        self._held_at: float | None = None
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        """Return seconds since the Unix epoch on the emulator's clock."""
        if self._held_at is not None:
            return self._held_at + self._offset
        return time.time() + self._offset

    def hold(self) -> None:
        """Stop the clock where it is (only `advance()` moves it then): a test that
        counts requests within one second must not depend on the machine's pace."""
        if self._held_at is None:
            self._held_at = time.time()

    def advance(self, seconds: float) -> None:
        """Jump forward (token expiry, rate-limit refill and deadlines all see it)."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
        for listener in list(self._listeners):
            listener()

    def on_advance(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)
