"""What a repository needs of the database, so repositories need not import `Database`.

`Database` (db/database.py) builds the repositories and hands itself in; typing them
against this protocol keeps the imports one way: database -> repositories.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

import aiosqlite

T = TypeVar("T")


class Access(Protocol):
    """Reads, write transactions and single atomic writes, as `Database` offers them."""

    def reading(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """Read through the reader connection, all statements seeing one committed state."""
        ...

    def transaction(
        self, *, asked: float | None = None
    ) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """Run a write transaction: commit on success, else roll back."""
        ...

    async def execute_atomic(
        self, sql: str, parameters: Sequence[Any], *, asked: float | None = None
    ) -> None:
        """Run one write statement as its own transaction; return after its commit."""
        ...

    async def run_in_transaction(
        self, work: Callable[[sqlite3.Connection], T], *, asked: float | None = None
    ) -> T:
        """Run `work(connection)` as one write transaction, whole on the writer's thread."""
        ...
