"""Each shard run by one bot process at a time, on PostgreSQL: advisory locks held by a
connection of the process's own for as long as it runs.

Two processes running one shard would both restore and play its servers' tables, and
processes with different SHARD_COUNTs split the servers differently, so some tables
would run twice. A process takes a shared lock on its shard count (and sees whether
another count is held) and an exclusive lock on each of its shards. A process that
dies loses its connection, and the server frees its locks; the server notices at once
when the process dies alone, and through the TCP keepalives set here (about 25 s)
when its machine stops, which is why a claim waits a while before giving up. The
connection is one of the pool's, held until `release()` unlocks it and gives it back
(the pool's own reset sends nothing: db/postgres_store.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from db.errors import ShardsTaken
from db.shards import Shards

# Two-key advisory locks: the first key names the kind, the second the value. Any fixed
# numbers, distinct from the migrations' lock (db/migrate.py).
_COUNT = 0x554E4F01  # shared, second key: SHARD_COUNT (0: unset, discord.py decides)
_SHARD = 0x554E4F02  # exclusive, second key: a shard id
_KEEPALIVE = (
    "SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3"
)
_OTHER_COUNTS = (
    "SELECT DISTINCT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND objsubid = 2 AND classid::bigint = $1 AND objid::bigint <> $2"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
RETRY_EVERY_S = 0.5

log = logging.getLogger(__name__)


class ShardClaim:
    """The locks of one process's shards, on a connection taken from the pool."""

    def __init__(self, pool: asyncpg.Pool, conn: PoolConnectionProxy[Any]) -> None:
        self._pool = pool
        self._conn = conn

    @classmethod
    async def take(cls, pool: asyncpg.Pool, shards: Shards | None, *, wait_s: float) -> ShardClaim:
        """Claim `shards` (None: the whole bot, at the count Discord recommends), waiting
        up to `wait_s` for another process to let go; else ShardsTaken."""
        conn = await pool.acquire()
        try:
            await conn.execute(_KEEPALIVE)
            await _claim(conn, shards, time.monotonic() + wait_s)
        except BaseException:
            await _give_back(pool, conn)
            raise
        return cls(pool, conn)

    async def release(self) -> None:
        """Free the locks: the connection goes back to the pool, unlocked."""
        await _give_back(self._pool, self._conn)


async def _give_back(pool: asyncpg.Pool, conn: PoolConnectionProxy[Any]) -> None:
    """Return a claim's connection to the pool without its locks and keepalive settings;
    one that cannot unlock is closed, which frees them too."""
    try:
        await conn.execute("SELECT pg_advisory_unlock_all(); RESET ALL")
    except BaseException:
        conn.terminate()
        raise
    finally:
        await pool.release(conn)


async def _claim(conn: PoolConnectionProxy[Any], shards: Shards | None, deadline: float) -> None:
    count = shards.count if shards is not None else 0
    wanted = sorted(shards.ids) if shards is not None else [0]
    await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", _COUNT, count)
    held: list[int] = []
    warned = False
    while True:
        others = [int(row[0]) for row in await conn.fetch(_OTHER_COUNTS, _COUNT, count)]
        for shard in wanted:
            if shard not in held and await conn.fetchval(
                "SELECT pg_try_advisory_lock($1, $2)", _SHARD, shard
            ):
                held.append(shard)
        taken = [shard for shard in wanted if shard not in held]
        if not others and not taken:
            return
        refused = ShardsTaken(count=count, taken=taken, other_counts=others)
        if time.monotonic() >= deadline:
            raise refused
        if not warned:
            log.warning("Waiting for the shards to be free: %s", refused)
            warned = True
        await asyncio.sleep(RETRY_EVERY_S)
