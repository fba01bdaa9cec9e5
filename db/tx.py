"""The statements a repository runs, whichever engine and connection carry them out.

A repository writes a transaction's work once, as `async def work(tx: Tx)`, and
reads through the same calls; `Database` hands it a `Tx` of the engine in use:
on SQLite the work runs whole on the write connection's thread (or statement by
statement through plain aiosqlite), on PostgreSQL through asyncpg.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

Dialect = Literal["sqlite", "postgresql"]
Params = Sequence[Any] | Mapping[str, Any]
Row = Sequence[Any]


class Tx(Protocol):
    """Statements inside one transaction (or one consistent read).

    SQL uses SQLite's placeholders (`?`, or `:name` with a mapping); the PostgreSQL
    side numbers them. `dialect` lets the rare statement that differs pick its form.
    """

    @property
    def dialect(self) -> Dialect:
        """Which engine runs the statements."""
        ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query; return every row."""
        ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query; return its first row, if any."""
        ...

    async def run(self, sql: str, params: Params = ()) -> int:
        """Run a statement that changes rows; return how many it changed."""
        ...

    async def run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        ...


def latest(dialect: Dialect, column: str, by: str) -> str:
    """In a GROUP BY, `column` of the group's row with the highest `by`.

    SQLite's documented rule gives a bare column beside a lone MAX() from that row
    (one pass, no sort); PostgreSQL has no such rule and sorts the group.
    """
    if dialect == "sqlite":
        return f"MAX({by}), {column}"
    return f"(ARRAY_AGG({column} ORDER BY {by} DESC))[1]"
