"""The one use of aiosqlite's private names: running a call on a connection's thread.

aiosqlite (pinned in requirements.txt) has no public call to run a function on the
thread that owns its sqlite3 connection. Every one of its methods queues its work
through `Connection._execute(fn, *args)` and reaches the sqlite3 connection as
`Connection._conn`: those two are all this module uses, and `check_internals()`
(run by tests/db/test_aiosqlite_thread.py) says clearly which one a newer version
lost. With `whole_on_thread=False` (`DB_WHOLE_ON_THREAD=false`) nothing here is
used: a transaction then runs statement by statement through aiosqlite's public API.
"""

from __future__ import annotations

import inspect
import sqlite3
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiosqlite

T = TypeVar("T")


def check_internals(conn: aiosqlite.Connection) -> None:
    """Raise RuntimeError naming what changed if aiosqlite's private names are not as used."""
    execute = getattr(conn, "_execute", None)
    if execute is None or not inspect.iscoroutinefunction(execute):
        raise RuntimeError(
            f"aiosqlite {aiosqlite.__version__}: Connection._execute(fn, *args) is gone or is"
            " no longer a coroutine function; set DB_WHOLE_ON_THREAD=false (plain aiosqlite)"
            " or adapt db/aiosqlite_thread.py"
        )
    params = list(inspect.signature(execute).parameters)
    if params[:1] != ["fn"]:
        raise RuntimeError(
            f"aiosqlite {aiosqlite.__version__}: Connection._execute takes {params}, not"
            " (fn, *args); set DB_WHOLE_ON_THREAD=false or adapt db/aiosqlite_thread.py"
        )
    if not isinstance(getattr(conn, "_conn", None), sqlite3.Connection):
        raise RuntimeError(
            f"aiosqlite {aiosqlite.__version__}: Connection._conn is no longer the sqlite3"
            " connection; set DB_WHOLE_ON_THREAD=false or adapt db/aiosqlite_thread.py"
        )


async def on_thread(conn: aiosqlite.Connection, call: Callable[[sqlite3.Connection], T]) -> T:
    """Run `call(sqlite3 connection)` on `conn`'s own thread, in turn with its statements."""
    execute: Callable[..., Awaitable[T]] = conn._execute
    return await execute(call, conn._conn)
