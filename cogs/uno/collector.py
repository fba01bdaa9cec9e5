"""The garbage collector's policy: long-lived objects frozen out of its scans."""

from __future__ import annotations

import gc
import time

FREEZE_EVERY = 60.0  # at most this often, after tables opened, long-lived objects are frozen


class Collector:
    """Freezes after start-up and, at most once a minute, after tables opened.

    A full collection scans every tracked object not frozen: with the tables,
    their matches and the caches frozen it scans only what was made since, so
    it stays short. The young generations are collected first, so that little
    garbage gets frozen with the live objects (frozen objects are never freed).
    """

    def __init__(self) -> None:
        self._frozen_at = 0.0
        self._opened = False  # a table opened since the last freeze

    def freeze(self) -> None:
        self._frozen_at = time.monotonic()
        self._opened = False
        gc.collect(1)
        gc.freeze()

    def table_opened(self) -> None:
        self._opened = True

    def tick(self) -> None:
        """Called on clicks: freeze if tables opened and the last freeze is old enough."""
        if self._opened and time.monotonic() - self._frozen_at > FREEZE_EVERY:
            self.freeze()
