"""What a repository needs of the database, so repositories need not import `Database`.

`Database` (db/database.py) builds the repositories and hands itself in; typing them
against this protocol keeps the imports one way: database -> repositories.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

from db.shards import Shards
from db.tx import Dialect, Tx

T = TypeVar("T")


class Access(Protocol):
    """Reads, write transactions and single atomic writes, as `Database` offers them."""

    @property
    def dialect(self) -> Dialect:
        """Which engine stores the data."""
        ...

    @property
    def shards(self) -> Shards | None:
        """The shards whose servers' rows a start-up restores; None: every server's."""
        ...

    def reading(self) -> AbstractAsyncContextManager[Tx]:
        """Read with every statement seeing one committed state."""
        ...

    async def execute_atomic(
        self, sql: str, parameters: Sequence[Any], *, asked: float | None = None
    ) -> None:
        """Run one write statement as its own transaction; return after its commit."""
        ...

    async def run_in_transaction(
        self, work: Callable[[Tx], Coroutine[Any, Any, T]], *, asked: float | None = None
    ) -> T:
        """Run `await work(tx)` as one write transaction; return its result after the commit."""
        ...
