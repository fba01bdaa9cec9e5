"""The bot's database: one interface, on SQLite (the default) or PostgreSQL."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine, Generator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import aiosqlite

from db.claims import ShardClaim
from db.errors import wraps_storage_errors
from db.history import HistoryRepo
from db.lobbies import LobbyRepo
from db.postgres_store import PostgresStore, is_postgres_url
from db.prefs import PrefsRepo
from db.ratings import RatingRepo
from db.rematches import RematchRepo
from db.scores import ScoreRepo
from db.settings import SettingsRepo
from db.shards import Shards
from db.sqlite_store import SqliteStore, Synchronous
from db.table_messages import TableMessageRepo
from db.tables import TableRepo
from db.tx import Dialect, Tx

T = TypeVar("T")


class Database:
    """Repositories over one store: a SQLite file, or a PostgreSQL database.

    Use ``async with Database.open(target) as database:``, or await
    ``Database.open(target)`` and later its ``close()``. `target` is a file path
    (SQLite) or a ``postgresql://`` URL. Repositories: ``db.tables`` (match lifecycle,
    action log, snapshots),
    ``db.scores`` (scoreboards, stats, forgetting members), ``db.ratings`` (skill
    ratings), ``db.settings`` (server settings), ``db.prefs`` (members' preferences),
    ``db.lobbies`` (open lobbies' ids and messages), ``db.table_messages`` (table
    messages that still carry buttons) and ``db.rematches`` (finished matches'
    rematch offers). Both engines run the same repositories, models and migrations.
    """

    def __init__(
        self,
        store: SqliteStore | PostgresStore,
        *,
        snapshot_every: int,
        shards: Shards | None = None,
    ) -> None:
        self.store = store
        self.shards = shards
        self._claim: ShardClaim | None = None
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
        target: str | Path,
        *,
        snapshot_every: int = 25,
        synchronous: Synchronous = "FULL",
        checkpoint_every_s: float = 1.0,
        whole_on_thread: bool = True,
        shards: Shards | None = None,
    ) -> _Opener:
        """Open (creating it if needed) and migrate the database at `target`.

        `snapshot_every`: store an engine snapshot every N actions (and at each round
        start), so a restart replays at most N-1 actions per table. The other options
        are SQLite's (see SqliteStore.open): `synchronous` FULL (default) survives a
        power cut with every answered action; PostgreSQL always commits with
        synchronous_commit=on.

        `shards`: the Discord shards this process runs, when it runs only some of them.
        What a start-up restores (`running_tables`, `owed_endings`, `lobbies.left_open`,
        `rematches.open_offers`, `table_messages.of_ended_matches` and `of_replaced`) is
        then only the rows of those shards' servers, and rematch offers are kept per
        process; everything else reads and writes every server's rows.
        """
        return _Opener(
            cls._open(
                target, snapshot_every, synchronous, checkpoint_every_s, whole_on_thread, shards
            )
        )

    @classmethod
    async def _open(
        cls,
        target: str | Path,
        snapshot_every: int,
        synchronous: Synchronous,
        checkpoint_every_s: float,
        whole_on_thread: bool,
        shards: Shards | None,
    ) -> Database:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        store: SqliteStore | PostgresStore
        if isinstance(target, str) and is_postgres_url(target):
            store = await PostgresStore.open(target)
        else:
            store = await SqliteStore.open(
                Path(_sqlite_path(target)),
                synchronous=synchronous,
                checkpoint_every_s=checkpoint_every_s,
                whole_on_thread=whole_on_thread,
            )
        db = cls(store, snapshot_every=snapshot_every, shards=shards)
        db.tables.start()
        return db

    @property
    def dialect(self) -> Dialect:
        """Which engine stores the data."""
        return self.store.dialect

    @property
    def path(self) -> Path:
        """The SQLite file (only on SQLite)."""
        return self._sqlite().path

    @wraps_storage_errors
    async def claim_shards(self, *, wait_s: float = 30.0) -> None:
        """Hold this process's shards (`shards`; None: the whole bot) until `close()`, so
        that no other bot process runs them or another SHARD_COUNT (db/claims.py); raise
        ShardsTaken when another keeps them past `wait_s`. PostgreSQL only: a SQLite file
        serves a single process."""
        if isinstance(self.store, PostgresStore) and self._claim is None:
            self._claim = await self.store.claim(self.shards, wait_s=wait_s)

    @wraps_storage_errors
    async def close(self) -> None:
        """Flush queued writes, then close the store (on SQLite: the WAL checkpointed).

        Closing twice does nothing; any read or write afterwards raises DatabaseClosed.
        """
        try:
            await self.tables.stop()
        finally:
            # Only now: stop() still writes the queued actions through the store.
            try:
                if self._claim is not None:
                    claim, self._claim = self._claim, None
                    await claim.release()
            finally:
                await self.store.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- what the repositories use (db.access.Access) -----------------------------

    def reading(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """Read with every statement seeing one committed state."""
        return self.store.reading()

    async def execute_atomic(
        self, sql: str, parameters: Sequence[Any], *, asked: float | None = None
    ) -> None:
        """Run one write statement as its own transaction; return after its commit."""
        await self.store.execute_atomic(sql, parameters, asked=asked)

    async def run_in_transaction(
        self, work: Callable[[Tx], Coroutine[Any, Any, T]], *, asked: float | None = None
    ) -> T:
        """Run `await work(tx)` as one write transaction; return its result after the commit."""
        return await self.store.run_in_transaction(work, asked=asked)

    # -- SQLite only: diagnostics and tests --------------------------------------

    @wraps_storage_errors
    async def pragma(self, name: str) -> object:
        """Return a PRAGMA's value as SQLite's write connection sees it."""
        return await self._sqlite().pragma(name)

    @wraps_storage_errors
    async def checkpoint(self) -> tuple[int, int, int]:
        """Copy SQLite's WAL into the file; return (busy, WAL frames, frames copied)."""
        return await self._sqlite().checkpoint()

    @contextlib.asynccontextmanager
    async def transaction(
        self, *, asked: float | None = None
    ) -> AsyncIterator[aiosqlite.Connection]:
        """A SQLite write transaction held across awaits (tests, tools)."""
        async with self._sqlite().transaction(asked=asked) as conn:
            yield conn

    def _sqlite(self) -> SqliteStore:
        if not isinstance(self.store, SqliteStore):
            raise TypeError("only a SQLite database has a file, pragmas and checkpoints")
        return self.store


def _sqlite_path(target: str | Path) -> str | Path:
    if isinstance(target, str) and target.startswith("sqlite:///"):
        return target[len("sqlite:///") :]
    return target


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
