"""The garbage collector's policy: what outlived a slow full collection is frozen out of
the next ones."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

SLOW_MS = 4.0  # a full collection that used this much CPU ends with a freeze
FREEZE_EVERY = 2.0  # seconds: but never more often than this
# Middle collections before a full one (CPython's default: 10): fewer leave less for each
# full one to scan (docs/benchmarks.md, "The garbage collector").
FULL_AFTER = 2


class Collector:
    """Freezes after start-up, then at the end of the collector's own full collections
    that took `slow_ms` of CPU or more, at most every `every` seconds; full collections
    come after `FULL_AFTER` middle ones, so that less piles up for each.

    A full collection stops the bot while it scans every tracked object not frozen.
    Frozen at the end of one, whatever outlived it is left out of the next ones; a slow
    one is the sign that much piled up, whatever the load, and a quick bot freezes
    nothing. Frozen objects are still freed when nothing refers to them; only cycles
    among them stay for good, and right after a full collection the only cycles left
    are those of work in flight. The measurements: docs/benchmarks.md.
    """

    def __init__(self, every: float = FREEZE_EVERY, slow_ms: float = SLOW_MS) -> None:
        self._every = every
        self._slow = slow_ms / 1000
        self._frozen_at = 0.0
        self._started = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._recounting = False
        self._thresholds: tuple[int, int, int] | None = None

    def freeze(self) -> None:
        """At start-up: one full collection, everything left frozen, and the later
        freezes armed (until `close`)."""
        gc.collect()
        self._thresholds = gc.get_threshold()
        gc.set_threshold(*self._thresholds[:2], FULL_AFTER)
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script): nothing to recount with
            self._loop = None
        self._freeze_now()
        if self._collected not in gc.callbacks:
            gc.callbacks.append(self._collected)

    def _freeze_now(self) -> None:
        self._frozen_at = time.monotonic()
        gc.freeze()
        if self._loop is not None and not self._loop.is_closed():
            # CPython starts the next full collection only once the objects that outlived
            # the last one have grown by a quarter of what that one kept, frozen or not:
            # after a freeze of 100 thousand objects, a pile of 25 thousand new ones.
            # A full collection of nothing (all is frozen) recounts what it kept as ~0,
            # so the next ones come sooner and each scans less. Not from inside this
            # callback, where the collector is running and would not start again.
            self._loop.call_soon_threadsafe(self._recount)

    def _recount(self) -> None:
        self._recounting = True  # this collection is no reason to freeze again
        try:
            gc.collect()
        finally:
            self._recounting = False

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """The collector's callback: after a slow full collection, freeze if it is time."""
        if info.get("generation") != 2 or self._recounting:
            return
        if phase == "start":
            self._started = time.thread_time()
            return
        slow = time.thread_time() - self._started >= self._slow
        if slow and time.monotonic() - self._frozen_at >= self._every:
            self._freeze_now()

    def close(self) -> None:
        """Stop freezing (the cog is unloaded)."""
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
