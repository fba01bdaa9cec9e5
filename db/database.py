"""The SQLite database: connections, pragmas, migrations and the write lock."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self, TypeVar

import aiosqlite

from db.endings import TEMP_SCHEMA
from db.errors import (
    DatabaseClosed,
    SchemaTooNew,
    WalUnavailable,
    is_busy,
    storage_errors,
    wraps_storage_errors,
)
from db.history import HistoryRepo
from db.lobbies import LobbyRepo
from db.migrate import apply_migrations, load_migrations, schema_version
from db.prefs import PrefsRepo
from db.ratings import RatingRepo
from db.rematches import RematchRepo
from db.scores import ScoreRepo
from db.settings import SettingsRepo
from db.table_messages import TableMessageRepo
from db.tables import TableRepo

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


class Database:
    """One bot's database file: write, read and checkpoint connections; repositories.

    Use ``async with Database.open(path) as db:`` or ``db = await Database.open(path)``
    then ``await db.close()``. Repositories: ``db.tables`` (match lifecycle, action
    log, snapshots), ``db.scores`` (scoreboards, stats, forgetting members),
    ``db.ratings`` (skill ratings), ``db.settings`` (server settings), ``db.prefs``
    (members' preferences), ``db.lobbies`` (open lobbies' ids and messages),
    ``db.table_messages`` (table messages that still carry buttons) and
    ``db.rematches`` (finished matches' rematch offers).
    """

    def __init__(
        self,
        *,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        checkpointer: aiosqlite.Connection,
        snapshot_every: int,
        checkpoint_every_s: float,
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._checkpointer = checkpointer
        self._checkpoints: asyncio.Task[None] | None = None
        self._closed = False
        self._checkpoint_every_s = checkpoint_every_s
        # aiosqlite runs one connection's calls on one thread, but two coroutines
        # could still interleave statements of two transactions: these locks
        # make each transaction whole.
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self.tables = TableRepo(self, snapshot_every=snapshot_every)
        self.scores = ScoreRepo(self)
        self.ratings = RatingRepo(self)
        self.settings = SettingsRepo(self)
        self.prefs = PrefsRepo(self)
        self.lobbies = LobbyRepo(self)
        self.table_messages = TableMessageRepo(self)
        self.rematches = RematchRepo(self)
        self.history = HistoryRepo(self, self.tables)

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        snapshot_every: int = 25,
        synchronous: Synchronous = "NORMAL",
        checkpoint_every_s: float = 1.0,
    ) -> _Opener:
        """Open (creating it and its folder if needed) and migrate the database at `path`.

        `snapshot_every`: store an engine snapshot every N actions (and at each round
        start), so a restart replays at most N-1 actions per table.
        `synchronous`: NORMAL (default): in WAL mode a commit is in the OS's hands
        when it returns, so it survives any crash or kill of the bot (tested with
        SIGKILL); only an OS crash or power cut can lose the last few commits, and
        never corrupts the file. FULL also fsyncs the WAL at every commit (power-cut
        proof) at the price of the disk's fsync latency on every action: on this
        shared disk that measured several times NORMAL's p99 (see bench/db.py).
        `checkpoint_every_s`: how often the WAL is copied into the file, in the
        background.
        """
        return _Opener(cls._open(Path(path), snapshot_every, synchronous, checkpoint_every_s))

    @classmethod
    async def _open(
        cls, path: Path, snapshot_every: int, synchronous: Synchronous, checkpoint_every_s: float
    ) -> Database:
        # A file that is not a database, a folder, a locked or unwritable file: the bot
        # reports a DatabaseError at start-up in one sentence.
        with storage_errors("Database.open"):
            return await cls._connect_and_migrate(
                path, snapshot_every, synchronous, checkpoint_every_s
            )

    @classmethod
    async def _connect_and_migrate(
        cls, path: Path, snapshot_every: int, synchronous: Synchronous, checkpoint_every_s: float
    ) -> Database:
        if str(path) == ":memory:":
            raise ValueError("Database needs a file: its connections must share it")
        # Checked before any connection opens: a failed open must leave no thread behind.
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        if checkpoint_every_s <= 0:
            raise ValueError("checkpoint_every_s must be positive")
        path.parent.mkdir(parents=True, exist_ok=True)
        migrations = load_migrations()
        writer = await _connect(path, synchronous, busy_timeout_ms=OPEN_BUSY_TIMEOUT_MS)
        try:
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
        db = cls(
            path=path,
            writer=writer,
            reader=reader,
            checkpointer=checkpointer,
            snapshot_every=snapshot_every,
            checkpoint_every_s=checkpoint_every_s,
        )
        db.tables.start()
        db._checkpoints = asyncio.get_running_loop().create_task(
            db._checkpoint_forever(), name="db-checkpoint"
        )
        return db

    @wraps_storage_errors
    async def close(self) -> None:
        """Flush queued writes, checkpoint the WAL into the file, close the connections.

        Closing twice does nothing; any read or write afterwards raises DatabaseClosed.
        """
        if self._closed:
            return
        try:
            await self.tables.stop()
        finally:
            # Only now: stop() still writes the queued actions through this object.
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

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

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
        self, work: Callable[[sqlite3.Connection], T], *, asked: float | None = None
    ) -> T:
        """Run `work(connection)` as one write transaction, whole on the writer's thread.

        Return what `work` returned, after the commit; if it raises, everything it wrote
        is rolled back and its exception is raised here. `transaction()` pays a trip to
        SQLite's thread and back through the event loop for every statement, which
        under load is most of a short transaction's time; this pays one. `work` is plain
        synchronous code using only the sqlite3 connection it is given (the write
        connection, autocommit off inside this transaction), and quick: every other
        write waits behind it. A file locked by another program is waited for as in
        `transaction()`.

        Like `execute_atomic`, it does not hold the write lock while its work runs: the
        work is one call queued on the writer's thread, BEGIN to COMMIT, so anything
        queued after it runs after its COMMIT. The group committer's next batch then
        waits on that thread, not in the event loop, behind a match's start or end
        (which kept SQLite's thread idle meanwhile and every click queued behind it).
        """
        deadline = _lock_deadline(asked)
        self._check_open()
        while True:
            await self._after_open_transaction()
            try:
                # Queued synchronously after the check, as in execute_atomic.
                return await _on_thread(self._writer, functools.partial(_transact, work))
            except _BeginLocked as locked:
                if time.monotonic() >= deadline:
                    raise locked.error from None
            await asyncio.sleep(RETRY_PAUSE_S)

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """Read through the reader connection, all statements seeing one committed state."""
        self._check_open()
        async with self._read_lock:
            await self._reader.execute("BEGIN")
            try:
                yield self._reader
            finally:
                if self._reader.in_transaction:  # an I/O error may have ended it
                    await self._reader.execute("COMMIT")


class _BeginLocked(Exception):
    """BEGIN IMMEDIATE met another program's lock: nothing ran, it may be tried again."""

    def __init__(self, error: sqlite3.OperationalError) -> None:
        super().__init__(str(error))
        self.error = error


def _transact(work: Callable[[sqlite3.Connection], T], conn: sqlite3.Connection) -> T:
    """On the writer's thread: `work` between BEGIN IMMEDIATE and COMMIT, or rolled back."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        if is_busy(error):
            raise _BeginLocked(error) from error
        raise
    try:
        result = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        # As in transaction(): an I/O error may have rolled back already.
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


async def _on_thread(conn: aiosqlite.Connection, call: Callable[[sqlite3.Connection], T]) -> T:
    """Run `call(sqlite3 connection)` on `conn`'s own thread, in turn with its statements.

    aiosqlite (pinned in requirements.txt) offers no public call for this; every one of
    its methods queues its work through `_execute` and reaches the sqlite3 connection as
    `_conn`, so these two are what a newer version would have to keep (the tests of
    run_in_transaction would fail first).
    """
    execute: Callable[..., Awaitable[T]] = conn._execute
    return await execute(call, conn._conn)


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


class _Opener:
    """Make `Database.open(...)` both awaitable and an async context manager."""

    def __init__(self, opening: Coroutine[Any, Any, Database]) -> None:
        self._opening = opening
        self._db: Database | None = None

    def __await__(self) -> Generator[Any, None, Database]:
        return self._opening.__await__()

    async def __aenter__(self) -> Database:
        self._db = await self._opening
        return self._db

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._db is not None:
            await self._db.close()
