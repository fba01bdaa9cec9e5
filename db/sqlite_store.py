"""The SQLite engine of `Database`: connections, pragmas, migrations and the write lock."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from db.aiosqlite_thread import check_internals, on_thread
from db.aiosqlite_tx import AiosqliteTx
from db.endings import TEMP_SCHEMA
from db.errors import (
    DatabaseClosed,
    SchemaTooNew,
    WalUnavailable,
    is_busy,
    storage_errors,
    wraps_storage_errors,
)
from db.migrate import apply_migrations, load_migrations, schema_version
from db.sqlite_tx import run_whole
from db.tx import Dialect, Tx

Synchronous = Literal["NORMAL", "FULL"]
T = TypeVar("T")

# Another program (an admin's sqlite3 shell, a backup) may hold the file's write lock.
# A write waits at most this long for it, counted from when the write was asked, then
# fails with StorageError. A click must be answered within Discord's 3 s, and this
# wait is only one part of it: the click's trip through the gateway, waiting for the
# table's lock, reloading the table after the failure and the HTTP reply take the rest
# (a few hundred ms each on a bad day). 1.5 s leaves them half the window.
LOCK_WAIT_MS = 1_500
# SQLite's busy timeout on the write connection: one attempt holds the connection's
# thread at most this long, then the write is tried again until LOCK_WAIT_MS. One long
# SQLite wait would make every write queued behind it on that thread inherit it (under
# a held lock clicks then waited 3-4.5 s with a 1.5 s busy timeout); short attempts
# give each write its own LOCK_WAIT_MS.
BUSY_STEP_MS = 100
# Opening and migrating has no player waiting: a backup may finish first.
OPEN_BUSY_TIMEOUT_MS = 5_000
# Between two attempts at a locked write: SQLite answers some conflicts at once,
# without waiting in its busy handler, and the loop must not spin on those.
RETRY_PAUSE_S = 0.01
# After a checkpoint, truncate the WAL back to this size instead of letting it stay huge.
JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024
# Page cache per connection. SQLite's default (2 MiB each) mostly holds pages of the
# append-only action log that are never read again; the B-tree interior pages that
# matter fit many times over in this.
CACHE_KIB = 512
# The WAL may hold this many frames (4 KB pages, ~40 MB, under JOURNAL_SIZE_LIMIT)
# before the writer itself helps the checkpoint finish, so that it starts over. That
# step fsyncs on the writer's thread: 4-9 ms measured (and 250 ms once, on this shared
# disk), and every write queued meanwhile waits for it. At SQLite's default of 1,000
# frames bench/db.py's 200 paced tables (~4,000 frames/s) paid it every second, the
# main part of a match result's p99 (the rarer a write, the likelier one such wait
# is in its 1%); now every 2.5 s there, every 25-50 s at a busy bot's real pace.
WAL_RESTART_FRAMES = 10_000

log = logging.getLogger(__name__)


class SqliteStore:
    """One bot's SQLite file: write, read and checkpoint connections (see `Database`)."""

    def __init__(
        self,
        *,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        checkpointer: aiosqlite.Connection,
        checkpoint_every_s: float,
        whole_on_thread: bool,
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._checkpointer = checkpointer
        self._checkpoints: asyncio.Task[None] | None = None
        self._closed = False
        self._checkpoint_every_s = checkpoint_every_s
        self._whole_on_thread = whole_on_thread
        # aiosqlite runs one connection's calls on one thread, but two coroutines
        # could still interleave statements of two transactions: these locks
        # make each transaction whole.
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @property
    def dialect(self) -> Dialect:
        return "sqlite"

    @property
    def name(self) -> str:
        return str(self.path)

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        synchronous: Synchronous,
        checkpoint_every_s: float,
        whole_on_thread: bool,
    ) -> SqliteStore:
        """Open (creating it and its folder if needed) and migrate the file at `path`.

        `synchronous`: FULL (Database.open's default) fsyncs the WAL at every commit,
        so an OS crash or power cut loses no commit; commits are grouped (one per
        batch of actions, db/writer.py), so that costs one fsync per batch, not per
        action. NORMAL leaves the last commits in the OS's hands: they survive any
        crash or kill of the bot (tested with SIGKILL), not a power cut.
        `checkpoint_every_s`: how often the WAL is copied into the file, in the
        background. `whole_on_thread`: run a transaction's work whole on SQLite's
        thread (db/aiosqlite_thread.py); off, statement by statement.
        """
        # A file that is not a database, a folder, a locked or unwritable file: the bot
        # reports a DatabaseError at start-up in one sentence.
        with storage_errors("Database.open"):
            return await cls._connect_and_migrate(
                path, synchronous, checkpoint_every_s, whole_on_thread
            )

    @classmethod
    async def _connect_and_migrate(
        cls, path: Path, synchronous: Synchronous, checkpoint_every_s: float, whole: bool
    ) -> SqliteStore:
        if str(path) == ":memory:":
            raise ValueError("Database needs a file: its connections must share it")
        # Checked before any connection opens: a failed open must leave no thread behind.
        if checkpoint_every_s <= 0:
            raise ValueError("checkpoint_every_s must be positive")
        path.parent.mkdir(parents=True, exist_ok=True)
        migrations = load_migrations()
        writer = await _connect(path, synchronous, busy_timeout_ms=OPEN_BUSY_TIMEOUT_MS)
        try:
            if whole:
                check_internals(writer)
            await _prepare_writer(writer, path, migrations)
            # In WAL mode no other connection's lock blocks a reader (only rarities such
            # as another process recovering the WAL after a crash): one wait suffices.
            reader = await _connect(path, synchronous, busy_timeout_ms=LOCK_WAIT_MS)
        except BaseException:
            await writer.close()
            raise
        try:
            await reader.execute("PRAGMA query_only = ON")
            checkpointer = await _connect(path, synchronous, busy_timeout_ms=LOCK_WAIT_MS)
        except BaseException:
            await reader.close()
            await writer.close()
            raise
        store = cls(
            path=path,
            writer=writer,
            reader=reader,
            checkpointer=checkpointer,
            checkpoint_every_s=checkpoint_every_s,
            whole_on_thread=whole,
        )
        store._checkpoints = asyncio.get_running_loop().create_task(
            store._checkpoint_forever(), name="db-checkpoint"
        )
        return store

    async def close(self) -> None:
        """Checkpoint the WAL into the file and close the connections (writes are flushed)."""
        if self._closed:
            return
        self._closed = True
        if self._checkpoints is not None:
            self._checkpoints.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpoints
        await self._checkpointer.close()
        # A read or a write transaction still in flight (a click answered while the
        # bot closes) ends first: it commits, and the checkpoint doesn't meet it.
        async with self._read_lock:
            await self._reader.close()
        async with self._write_lock:
            try:
                await self._tidy()
            finally:
                await self._writer.close()

    async def _tidy(self) -> None:
        """Leave a tidy file: the WAL folded in and truncated. A read cancelled half-way
        (a task stopped as the bot closes) can leave its statement open on the writer;
        the checkpoint then meets it as "locked". Nothing is lost: the WAL holds every
        committed write, and the next open reads it."""
        try:
            await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error):
                raise
            log.info("Closing %s: the WAL is left for the next open (%s)", self.path, error)

    @wraps_storage_errors
    async def checkpoint(self) -> tuple[int, int, int]:
        """Copy the WAL into the file; return SQLite's (busy, WAL frames, frames copied).

        SQLite's automatic checkpoint runs inside the commit that crosses 1,000
        WAL pages, so one player's action would pay 5-20 ms of copying and fsync;
        it is off on the write connection. Instead the checkpoint connection (its
        own thread) copies the bulk without blocking the writer (PASSIVE). That
        alone never lets the WAL start over while actions keep coming (the writer
        appends during every copy), so once the WAL holds more than
        WAL_RESTART_FRAMES the writer copies the few frames added meanwhile: a
        short step between two batches (it fsyncs, so it is kept rare: see
        WAL_RESTART_FRAMES), after which the next commit reuses the WAL from its
        beginning.
        """
        self._check_open()
        async with self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
            row = await cursor.fetchone()
        if row and int(row[1]) > WAL_RESTART_FRAMES:
            async with (
                self._write_lock,
                self._writer.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor,
            ):
                row = await cursor.fetchone()
        return (int(row[0]), int(row[1]), int(row[2])) if row else (0, 0, 0)

    async def _checkpoint_forever(self) -> None:
        while True:
            await asyncio.sleep(self._checkpoint_every_s)
            try:
                await self.checkpoint()
            except Exception:  # a failed checkpoint only delays the next; keep going
                log.exception("WAL checkpoint of %s failed", self.path)

    @wraps_storage_errors
    async def pragma(self, name: str) -> object:
        """Return a PRAGMA's value as the write connection sees it (diagnostics, tests)."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")
        self._check_open()
        async with self._write_lock, self._writer.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def execute_atomic(
        self, sql: str, parameters: Sequence[Any], *, asked: float | None = None
    ) -> None:
        """Run one write statement as its own transaction; return after its commit.

        Several may be queued on the connection at once (they run in order); none
        is queued while a `transaction()` is open, or it would join it. A file locked
        by another program is waited for until LOCK_WAIT_MS after `asked` (a
        `time.monotonic()`, default now), then sqlite3's "database is locked" is raised.
        """
        deadline = _lock_deadline(asked)
        self._check_open()
        while True:
            await self._after_open_transaction()
            try:
                # No await between the check above and aiosqlite queueing the statement
                # (it does so synchronously, then waits): nothing can slip in between.
                # isolation_level=None: the statement autocommits as it completes, and
                # one that met the lock changed nothing, so it can simply run again.
                await self._writer.execute(sql, parameters)
                return
            except sqlite3.OperationalError as error:
                if not is_busy(error) or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(RETRY_PAUSE_S)

    async def _after_open_transaction(self) -> None:
        """Return once nobody holds the write lock (a `transaction()` open, a statement
        whose rows are read across awaits, the database closing): work queued on the
        writer's thread then can't land inside another transaction, nor COMMIT while
        another statement is still in progress. The caller must queue its work with no
        await in between."""
        while self._write_lock.locked():
            async with self._write_lock:
                pass
        self._check_open()

    def _check_open(self) -> None:
        # A closed aiosqlite connection would raise ValueError("no active connection").
        if self._closed:
            raise DatabaseClosed(
                f"the database {str(self.path)!r} is closed: nothing was read or written"
            )

    @contextlib.asynccontextmanager
    async def transaction(
        self, *, asked: float | None = None
    ) -> AsyncIterator[aiosqlite.Connection]:
        """Run a write transaction: commit on success (returning only after it), else roll back.

        A file locked by another program is waited for until LOCK_WAIT_MS after
        `asked` (a `time.monotonic()`, default now), then "database is locked" is raised.
        """
        deadline = _lock_deadline(asked)
        self._check_open()
        async with self._write_lock:
            try:
                await self._begin_immediate(deadline)
                yield self._writer
                await self._to_the_end("COMMIT")
            except BaseException:
                # A full disk or an I/O error may have rolled the transaction back
                # already (a second ROLLBACK would fail and hide why); a COMMIT that
                # failed (a deferred constraint) leaves it open, and every later
                # BEGIN on this connection would fail: end it either way. Statements
                # the body queued before a cancel still run first: this undoes them.
                if self._writer.in_transaction:
                    await self._to_the_end("ROLLBACK")
                raise

    async def _begin_immediate(self, deadline: float) -> None:
        # IMMEDIATE takes the file's write lock now, so a locked file fails or waits
        # here rather than half-way through the transaction.
        while True:
            try:
                await self._to_the_end("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if not is_busy(error) or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(RETRY_PAUSE_S)

    async def _to_the_end(self, sql: str) -> None:
        """Run a transaction's BEGIN, COMMIT or ROLLBACK, waiting for it even if cancelled.

        A statement runs on SQLite's thread whether or not its caller still waits, so a
        cancel that left at once would leave a BEGIN or COMMIT still to come: the check
        for an open transaction would read the wrong answer, and a BEGIN nobody ends
        would fail every later transaction on this connection. The cancel is raised
        once the statement is done.
        """
        statement = asyncio.ensure_future(self._writer.execute(sql))
        try:
            await asyncio.shield(statement)
        except asyncio.CancelledError:
            await asyncio.wait([statement])
            if not statement.cancelled():
                statement.exception()  # seen: the cancel is what the caller hears
            raise

    async def run_in_transaction(
        self, work: Callable[[Tx], Coroutine[Any, Any, T]], *, asked: float | None = None
    ) -> T:
        """Run `await work(tx)` as one write transaction; return its result after the commit.

        If it raises, everything it wrote is rolled back and its exception is raised
        here. With `whole_on_thread` (the default) the work runs whole on the writer's
        thread, BEGIN to COMMIT, in one trip: `transaction()` pays a trip to SQLite's
        thread and back through the event loop for every statement, which under load
        is most of a short transaction's time. The work must then await nothing but
        its `tx` (its coroutine is driven there without an event loop) and be quick:
        every other write waits behind it. A file locked by another program is
        waited for as in `transaction()`.

        It does not hold the write lock while its work runs: the work is one call
        queued on the writer's thread, so anything queued after it runs after its
        COMMIT, and the group committer's next batch waits on that thread, not in the
        event loop. Without `whole_on_thread` it is a `transaction()` (plain aiosqlite).
        """
        if not self._whole_on_thread:
            async with self.transaction(asked=asked) as conn:
                return await work(AiosqliteTx(conn))
        deadline = _lock_deadline(asked)
        self._check_open()
        while True:
            await self._after_open_transaction()
            try:
                # Queued synchronously after the check, as in execute_atomic.
                return await on_thread(self._writer, functools.partial(_transact, work))
            except _BeginLocked as locked:
                if time.monotonic() >= deadline:
                    raise locked.error from None
            await asyncio.sleep(RETRY_PAUSE_S)

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        """Read through the reader connection, all statements seeing one committed state."""
        self._check_open()
        async with self._read_lock:
            await self._reader.execute("BEGIN")
            try:
                yield AiosqliteTx(self._reader)
            finally:
                if self._reader.in_transaction:  # an I/O error may have ended it
                    await self._reader.execute("COMMIT")


class _BeginLocked(Exception):
    """BEGIN IMMEDIATE met another program's lock: nothing ran, it may be tried again."""

    def __init__(self, error: sqlite3.OperationalError) -> None:
        super().__init__(str(error))
        self.error = error


def _transact(work: Callable[[Tx], Coroutine[Any, Any, T]], conn: sqlite3.Connection) -> T:
    """On the writer's thread: `work` between BEGIN IMMEDIATE and COMMIT, or rolled back."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        if is_busy(error):
            raise _BeginLocked(error) from error
        raise
    try:
        result = run_whole(work, conn)
        conn.execute("COMMIT")
    except BaseException:
        # As in transaction(): an I/O error may have rolled back already.
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


async def _prepare_writer(writer: aiosqlite.Connection, path: Path, migrations: list[Any]) -> None:
    # A newer file is refused before anything, even its journal mode, changes.
    found = await schema_version(writer)
    if found > len(migrations):
        raise SchemaTooNew(path=str(path), found=found, known=len(migrations))
    # WAL: readers never block the writer nor the other way round, and a
    # commit appends to one file instead of rewriting pages twice.
    async with writer.execute("PRAGMA journal_mode = WAL") as cursor:
        row = await cursor.fetchone()
    if row is None or str(row[0]).lower() != "wal":
        mode = "nothing" if row is None else repr(row[0])
        raise WalUnavailable(
            f"SQLite would not put {str(path)!r} in WAL journal mode (it answered"
            f" {mode}): the file system or VFS offers no shared memory; use a"
            " local disk, not a network share"
        )
    await writer.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
    await apply_migrations(writer, migrations, path=str(path))
    await writer.executescript(TEMP_SCHEMA)
    await writer.execute("PRAGMA wal_autocheckpoint = 0")
    await writer.execute(f"PRAGMA busy_timeout = {BUSY_STEP_MS}")


def _lock_deadline(asked: float | None) -> float:
    # Read at call time, so a test can shorten it.
    return (time.monotonic() if asked is None else asked) + LOCK_WAIT_MS / 1000


async def _connect(
    path: Path, synchronous: Synchronous, *, busy_timeout_ms: int
) -> aiosqlite.Connection:
    # isolation_level=None: sqlite3 opens no implicit transactions; ours are explicit.
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        await conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    except BaseException:
        await conn.close()
        raise
    return conn
