"""The garbage collector's policy: what outlived a slow full collection is frozen out of
the next ones."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

SLOW_MS = 4.0  # a full collection that used this much CPU ends with a freeze
FREEZE_EVERY = 2.0  # seconds: but never more often than this
# Collections of the middle generation before a full one (CPython's default: 10). At
# 200 paced tables the default gave about one full collection a minute, and the 30
# thousand objects that outlived a minute of play took 20-25 ms of CPU to scan; after
# 2, full collections came 2.5 times as often and the longest scanned 12.5 thousand
# objects in 6.8 ms.
FULL_AFTER = 2


class Collector:
    """Freezes after start-up, then at the end of the collector's own full collections
    that took `slow_ms` of CPU or more, at most every `every` seconds; full collections
    come after `FULL_AFTER` middle ones, so that less piles up for each.

    A full collection stops the bot while it scans every tracked object not frozen.
    Frozen at the end of one, whatever outlived it (tables, matches, caches, the
    state that changed since the last freeze) is left out of the next ones, which
    scan only what survived since. Every accepted action replaces part of its
    table's state, which piles up between freezes. Freezing at most every 15 s, as
    before, let 3 or 4 full collections in a row scan it: at 600 paced tables 16
    thousand objects after a freeze, up to 24 to 36 thousand before the next, and
    the longest took 32 ms. What one took is the measure of what it scanned (objects,
    the references they hold, and where they lie in memory: 34 thousand objects took
    17 ms once and 32 ms 5 s later), so a slow one freezes whatever the load, and a
    quick one (a few tables) freezes nothing. What it cannot leave out is work in
    flight: in a burst (hundreds of tables opening, or every table's edit going out
    at once) 31 to 36 thousand objects are alive within 5 s of a freeze, and a full
    collection then still takes 25 to 32 ms.

    Frozen objects are still freed when nothing refers to them; only reference
    cycles among them stay for good. Right after a full collection no cyclic garbage
    is left, so a freeze keeps only the cycles of work in flight that end later
    (a click's Interaction is unlinked once handled, `answers.release`; an HTTP
    connection closed later; an exception's traceback). Fewer freezes keep fewer:
    none on a quiet bot, and at most one per `every` on a busy one.
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
