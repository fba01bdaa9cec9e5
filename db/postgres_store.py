"""The PostgreSQL engine of `Database`, through asyncpg."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from typing import Any, TypeVar

import asyncpg

from db.claims import ShardClaim
from db.errors import DatabaseClosed, storage_errors
from db.migrate import apply_pg_migrations, load_migrations
from db.pg_tx import PgTx, numbered
from db.shards import Shards
from db.tx import Dialect, Tx

T = TypeVar("T")

# Writes of different tables run side by side; a click waits for at most a few.
POOL_SIZE = 8


def is_postgres_url(target: str) -> bool:
    """Whether `target` names a PostgreSQL database rather than a SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


class PostgresStore:
    """A pool of asyncpg connections to one database, migrated at open.

    Every commit waits for the server's WAL flush (synchronous_commit=on, set on
    each connection whatever the server's default): an answered action survives
    a crash or power cut of the database's machine. Reads run in a read-only
    REPEATABLE READ transaction, so all their statements see one committed state.
    """

    def __init__(self, pool: asyncpg.Pool, *, name: str) -> None:
        self._pool = pool
        self.name = name
        self._closed = False

    @property
    def dialect(self) -> Dialect:
        return "postgresql"

    @classmethod
    async def open(cls, url: str) -> PostgresStore:
        """Connect to `url` and bring its schema up to date."""
        name = _without_password(url)
        with storage_errors("Database.open"):
            pool = await asyncpg.create_pool(
                url,
                # All made at open, each learning the array types: a click never
                # waits for a connection to be made (tens of ms under load).
                min_size=POOL_SIZE,
                max_size=POOL_SIZE,
                server_settings={"synchronous_commit": "on", "application_name": "uno-bot"},
                reset=_nothing_to_reset,
                init=_learn_array_types,
            )
        try:
            with storage_errors("Database.open"):
                async with pool.acquire() as conn:
                    await apply_pg_migrations(conn, load_migrations(dialect="postgresql"), name)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, name=name)

    async def claim(self, shards: Shards | None, *, wait_s: float) -> ShardClaim:
        """Hold `shards` against every other process on this database (db/claims.py)."""
        self._check_open()
        with storage_errors("Database.claim_shards"):
            return await ShardClaim.take(self._pool, shards, wait_s=wait_s)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._pool.close()

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[Tx]:
        self._check_open()
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PgTx(conn)

    async def execute_atomic(
        self, sql: str, parameters: Sequence[Any], *, asked: float | None = None
    ) -> None:
        self._check_open()
        query, args = numbered(sql, parameters)
        async with self._pool.acquire() as conn:
            await conn.execute(query, *args)

    async def run_in_transaction(
        self, work: Callable[[Tx], Coroutine[Any, Any, T]], *, asked: float | None = None
    ) -> T:
        self._check_open()
        async with self._pool.acquire() as conn, conn.transaction():
            return await work(PgTx(conn))

    def _check_open(self) -> None:
        if self._closed:
            raise DatabaseClosed(
                f"the database {self.name!r} is closed: nothing was read or written"
            )


async def _learn_array_types(conn: asyncpg.Connection) -> None:
    """Have a new connection learn the array types the writes send (db/tables.py and
    db/endings.py pass columns as arrays). asyncpg looks each up in the catalogue once
    per connection, ~10 ms, and far longer under load: without this, the first
    result written on each pooled connection paid it while a player waited."""
    await conn.prepare("SELECT $1::bigint[], $2::int[], $3::text[], $4::float8[]")


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """The pool's reset of a connection given back: nothing to send. asyncpg's default
    sends a query (advisory locks, cursors, LISTEN, settings) at every release, one more
    round trip that every read and write waited for; no pooled connection keeps any of
    those (a shard claim undoes its own: db/claims.py), and asyncpg still rolls back a
    transaction left open before this runs."""


def _without_password(url: str) -> str:
    """The URL as logs may show it."""
    head, at, tail = url.rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, user = head.partition("//")
    return f"{scheme}//{user.split(':', 1)[0]}:***@{tail}"
