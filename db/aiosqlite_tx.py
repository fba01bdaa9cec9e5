"""A `Tx` over an aiosqlite connection: one trip to SQLite's thread per statement."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from db.tx import Dialect, Params, Row


class AiosqliteTx:
    """Reads, and write transactions when the whole-on-thread path is off."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    @property
    def dialect(self) -> Dialect:
        return "sqlite"

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self.conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        async with self.conn.execute(sql, params) as cursor:
            row: Row | None = await cursor.fetchone()
            return row

    async def run(self, sql: str, params: Params = ()) -> int:
        async with self.conn.execute(sql, params) as cursor:
            return cursor.rowcount

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(sql, rows)
