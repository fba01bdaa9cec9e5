"""How long finished matches' moves are kept for replays (REPLAY_DAYS; 0: forever)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from db.database import Database
from db.errors import StorageError

log = logging.getLogger(__name__)

EVERY = 6 * 3600.0  # seconds between two clean-ups: a day's matches are never many


class LogRetention:
    """Drops the action logs of matches that ended more than `days` ago, now and then."""

    def __init__(self, db: Database, *, days: int) -> None:
        self.db = db
        self.days = days
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.days > 0 and self._task is None:
            self._task = asyncio.create_task(self._run(), name="uno-replay-retention")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def drop_old(self) -> int:
        """Drop what is past its time now; the number of actions dropped."""
        before = datetime.now(UTC) - timedelta(days=self.days)
        return await self.db.history.drop_logs(ended_before=before)

    async def _run(self) -> None:
        while True:
            try:
                dropped = await self.drop_old()
                if dropped:
                    log.info("Dropped %d moves of matches older than %d days", dropped, self.days)
            except StorageError as error:
                log.warning("Could not drop old matches' moves: %s", error)
            await asyncio.sleep(EVERY)
