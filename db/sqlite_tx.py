"""A `Tx` over a plain sqlite3 connection, for work run whole on SQLite's thread."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Sequence
from typing import Any, TypeVar

from db.tx import Dialect, Params, Row, Tx

T = TypeVar("T")


class SqliteTx:
    """Each call runs at once on the calling thread: its coroutine never suspends.

    So a work coroutine that awaits only these calls can be driven to its end
    with no event loop (`run_whole`), on the thread that owns the connection.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        # Public for tests that look at the connection itself (its thread, pragmas).
        self.conn = conn

    @property
    def dialect(self) -> Dialect:
        return "sqlite"

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return self.conn.execute(sql, params).fetchall()

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = self.conn.execute(sql, params).fetchone()
        return row

    async def run(self, sql: str, params: Params = ()) -> int:
        return self.conn.execute(sql, params).rowcount

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(sql, rows)


def run_whole(work: Callable[[Tx], Coroutine[Any, Any, T]], conn: sqlite3.Connection) -> T:
    """Drive `work(SqliteTx(conn))` to its end on this thread, without an event loop."""
    coroutine = work(SqliteTx(conn))
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    coroutine.close()
    raise RuntimeError("a transaction's work awaited something other than its statements")
