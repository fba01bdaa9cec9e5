"""Group commit: one writer task commits every waiting item in a single transaction."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from db.errors import DatabaseClosed, WriterStopped

T = TypeVar("T")
log = logging.getLogger(__name__)

_Entry = tuple[T, asyncio.Future[None]]


class GroupCommitter(Generic[T]):
    """Write items through `write(items)`, many per commit.

    A single aiosqlite connection runs one statement at a time on one thread, so
    200 tables each committing their own action would queue behind 200 commits.
    Instead, callers enqueue and await a future; the writer takes every item
    waiting, writes them with `write` (which must commit them all or none), then
    resolves their futures. An idle writer commits a lone item at once, so
    batching costs nothing at low load.

    Up to `depth` batches are in flight: while one runs on SQLite's thread the
    next is already queued behind it, so that thread never idles waiting for the
    event loop to hand it work (measured: without this, a naive commit per action
    on a shared connection was faster). Batches commit in order (one connection,
    FIFO), except that one trying again for a lock another program holds can be
    overtaken by the next once the lock is free: harmless, as a table's next
    action is only asked once its last was confirmed (and the log's trigger
    would refuse it out of order). If a batch fails, its items are retried one
    by one so that one bad item fails alone, unless `whole_batch(error)` says
    the failure is not about any item (the file is locked): then they all fail
    at once, as each alone would only have failed the same way after its own
    wait.
    """

    def __init__(
        self,
        *,
        write: Callable[[list[T]], Awaitable[None]],
        whole_batch: Callable[[Exception], bool] = lambda error: False,
        max_batch: int = 500,
        depth: int = 2,
    ) -> None:
        self._write = write
        self._whole_batch = whole_batch
        self._max_batch = max_batch
        self._slots = asyncio.Semaphore(depth)
        self._queue: asyncio.Queue[_Entry[T] | None] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._in_flight: set[asyncio.Task[None]] = set()
        self._closed = False
        self._stopped = False  # stop() was called: the database is being closed
        # Counters for benchmarks and tests: items committed, and commits it took.
        self.items = 0
        self.commits = 0

    def start(self) -> None:
        """Start the writer task on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="db-group-commit")

    async def submit(self, item: T) -> None:
        """Queue `item`; return once its transaction is committed (or raise why not)."""
        if self._closed or self._task is None:
            if self._task is not None and not self._stopped:
                raise DatabaseClosed(
                    "the database writer has stopped (its task was cancelled): write"
                    " refused, nothing was written; the database must be reopened"
                )
            raise DatabaseClosed("the database is closed: write refused, nothing was written")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        # Read a late exception so asyncio does not log it as never retrieved.
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._queue.put_nowait((item, future))
        # A cancelled caller cancels only its future: the write still happens.
        await future

    async def stop(self) -> None:
        """Commit everything already queued, then end the writer task."""
        if self._task is None or self._closed:
            return
        self._closed = True
        self._stopped = True
        self._queue.put_nowait(None)
        await self._task

    async def _run(self) -> None:
        try:
            await self._loop()
            if self._in_flight:
                await asyncio.gather(*self._in_flight, return_exceptions=True)
        finally:
            # Never leave a caller waiting forever, whatever ended the loop.
            self._closed = True
            while not self._queue.empty():
                pending = self._queue.get_nowait()
                if pending is not None:
                    _settle(pending[1], _not_started())

    async def _loop(self) -> None:
        stopping = False
        while not stopping:
            first = await self._queue.get()
            if first is None:
                break
            # Items keep arriving while we wait for a free slot: they join this batch.
            try:
                await self._slots.acquire()
            except BaseException:
                # Taken off the queue already, so _run's drain would not see it.
                _settle(first[1], _not_started())
                raise
            batch = [first]
            while len(batch) < self._max_batch and not self._queue.empty():
                nxt = self._queue.get_nowait()
                if nxt is None:
                    stopping = True
                    break
                batch.append(nxt)
            task = asyncio.get_running_loop().create_task(
                self._commit_in_slot(batch), name="db-group-commit-batch"
            )
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)

    async def _commit_in_slot(self, batch: list[_Entry[T]]) -> None:
        try:
            await self._commit(batch)
        except BaseException:
            for _, future in batch:
                _settle(
                    future,
                    WriterStopped(
                        "the database writer was stopped (its task was cancelled) while"
                        " committing this write: SQLite may still have committed it"
                    ),
                )
            raise
        finally:
            self._slots.release()

    async def _commit(self, batch: list[_Entry[T]]) -> None:
        try:
            await self._write([item for item, _ in batch])
        except Exception as exc:
            if len(batch) == 1 or self._whole_batch(exc):
                for _, future in batch:
                    _settle(future, exc)
                return
            log.warning("batch of %d failed (%r); retrying one by one", len(batch), exc)
            for one in batch:
                await self._commit([one])
            return
        self.items += len(batch)
        self.commits += 1
        for _, future in batch:
            _settle(future, None)


def _not_started() -> WriterStopped:
    return WriterStopped(
        "the database writer stopped (its task was cancelled) before this write was"
        " started: it was not written"
    )


def _settle(future: asyncio.Future[None], exc: BaseException | None) -> None:
    if future.done():
        return
    if exc is None:
        future.set_result(None)
    else:
        future.set_exception(exc)
