"""The garbage collector's policy: what outlived a full collection is frozen out of the next."""

from __future__ import annotations

import gc
import time
from typing import Any

FREEZE_EVERY = 15.0  # seconds: at most this often, what survived a full collection is frozen


class Collector:
    """Freezes after start-up, then at the end of the collector's own full collections,
    at most every `every` seconds.

    A full collection stops the bot while it scans every tracked object not frozen.
    Frozen at the end of one, whatever outlived it (tables, matches, caches, the
    state that changed since the last freeze) is left out of the next ones, which
    scan only what survived since. Every accepted action replaces part of its
    table's state, which piles up between freezes: at 400 paced tables on an
    overloaded machine (where the clicks waiting in line are live objects too), full
    collections scanned up to 84 thousand objects with a freeze at most once a minute
    after a table opened, up to 62 thousand with one at most every 15 s.

    Frozen objects are still freed when nothing refers to them; only reference
    cycles among them stay for good. Right after a full collection no cyclic garbage
    is left, so a freeze keeps only the cycles of work in flight that end later.
    Since a click's Interaction is unlinked once handled (`answers.release`) those
    are few, mostly HTTP connections closed later (an asyncio transport refers to
    itself). Counted over a whole bench run: 1,217 objects at 200 paced tables before
    the unlinking, 155 after it (both freezing once a minute); at 400 tables, frozen
    every 15 s, 789. `every` bounds how often a freeze can keep some.
    """

    def __init__(self, every: float = FREEZE_EVERY) -> None:
        self._every = every
        self._frozen_at = 0.0

    def freeze(self) -> None:
        """At start-up: one full collection, everything left frozen, and the later
        freezes armed (until `close`)."""
        gc.collect()
        self._freeze_now()
        if self._collected not in gc.callbacks:
            gc.callbacks.append(self._collected)

    def _freeze_now(self) -> None:
        self._frozen_at = time.monotonic()
        gc.freeze()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """The collector's callback: after a full collection, freeze if it is time."""
        if phase != "stop" or info.get("generation") != 2:
            return
        if time.monotonic() - self._frozen_at >= self._every:
            self._freeze_now()

    def close(self) -> None:
        """Stop freezing (the cog is unloaded)."""
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
