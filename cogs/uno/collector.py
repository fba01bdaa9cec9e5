"""The garbage collector's policy: long-lived objects frozen out of its scans."""

from __future__ import annotations

import gc
import time
from typing import Any

FREEZE_EVERY = 60.0  # at most this often, after tables opened, long-lived objects are frozen


class Collector:
    """Freezes after start-up and, at most once a minute after tables opened, at the
    end of one of the collector's own full collections.

    A full collection scans every tracked object not frozen: with the tables,
    their matches and the caches frozen it scans only what was made since, so
    it stays short. Frozen objects are never collected, so what is frozen must
    be live: right after a full collection nothing unreachable is left, whereas
    a freeze between full collections froze the cyclic garbage of past clicks
    waiting in the oldest generation, which then stayed in memory for good. (The
    objects of clicks in flight at that moment are frozen too; those in reference
    cycles stay when they end.)
    """

    def __init__(self) -> None:
        self._frozen_at = 0.0
        self._opened = False  # a table opened since the last freeze

    def freeze(self) -> None:
        """At start-up: one full collection, everything left frozen, and the later
        freezes armed (until `close`)."""
        gc.collect()
        self._freeze_now()
        if self._collected not in gc.callbacks:
            gc.callbacks.append(self._collected)

    def _freeze_now(self) -> None:
        self._frozen_at = time.monotonic()
        self._opened = False
        gc.freeze()

    def table_opened(self) -> None:
        self._opened = True

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """The collector's callback: after a full collection, freeze if it is time."""
        if phase != "stop" or info.get("generation") != 2:
            return
        if self._opened and time.monotonic() - self._frozen_at > FREEZE_EVERY:
            self._freeze_now()

    def close(self) -> None:
        """Stop freezing (the cog is unloaded)."""
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
