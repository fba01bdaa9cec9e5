"""A `Tx` over an asyncpg connection: SQLite's placeholders numbered for PostgreSQL."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import asyncpg

from db.tx import Dialect, Params, Row

# A connection of its own or one lent by a pool.
PgConnection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

# `?` and `:name` outside quotes; `::type` casts are left alone.
_PLACEHOLDER = re.compile(r"'[^']*'|\"[^\"]*\"|\?|(?<!:):([A-Za-z_]\w*)")


class PgTx:
    """Statements on one asyncpg connection (the caller holds its transaction)."""

    def __init__(self, conn: PgConnection) -> None:
        self._conn = conn

    @property
    def dialect(self) -> Dialect:
        return "postgresql"

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        query, args = numbered(sql, params)
        return cast(list[Row], await self._conn.fetch(query, *args))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        query, args = numbered(sql, params)
        return cast(Row | None, await self._conn.fetchrow(query, *args))

    async def run(self, sql: str, params: Params = ()) -> int:
        query, args = numbered(sql, params)
        status = await self._conn.execute(query, *args)
        last = status.rsplit(" ", 1)[-1]  # "UPDATE 3", "INSERT 0 1"
        return int(last) if last.isdigit() else 0

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        query, _ = numbered(sql, ())
        await self._conn.executemany(query, list(rows))


def numbered(sql: str, params: Params) -> tuple[str, list[Any]]:
    """`sql` with `$1, $2, ...` for its placeholders, and the arguments in that order."""
    query, names = _translate(sql)
    if isinstance(params, Mapping):
        return query, [params[name] for name in names]
    return query, list(params)


@functools.lru_cache(maxsize=512)
def _translate(sql: str) -> tuple[str, tuple[str, ...]]:
    names: list[str] = []
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        text = match.group(0)
        if text == "?":
            count += 1
            return f"${count}"
        name = match.group(1)
        if name is None:  # a quoted literal or name
            return text
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _PLACEHOLDER.sub(number, sql), tuple(names)
