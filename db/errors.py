"""Typed errors of the database layer; messages are for logs, not players."""

from __future__ import annotations

import contextlib
import functools
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, ParamSpec, TypeVar

import asyncpg

P = ParamSpec("P")
R = TypeVar("R")


class DatabaseError(Exception):
    """Base class of the errors `db` raises on purpose or wraps: no sqlite3 or asyncpg
    error leaves `db` unwrapped (bad arguments raise ValueError)."""


class StorageError(DatabaseError):
    """The engine could not carry out an operation. SQLite: the disk is full, an I/O
    error, the file is locked by another program for longer than a write may wait
    (LOCK_WAIT_MS in db/sqlite_store.py), corrupt or not a database at all.
    PostgreSQL: the server refused or could not be reached.

    `operation` names what was asked (`TableRepo.record_action`); the engine's
    error is the `__cause__`. Whatever was being written was not committed.
    """

    def __init__(self, operation: str, error: Exception) -> None:
        code = getattr(error, "sqlite_errorname", None)  # e.g. SQLITE_BUSY (Python 3.11+)
        super().__init__(f"{operation} failed: {error}" + (f" ({code})" if code else ""))
        self.operation = operation


class DatabaseClosed(DatabaseError):
    """A write was asked after Database.close() (or after the writer stopped): it was
    refused, nothing was written."""


class WriterStopped(DatabaseClosed):
    """The group-commit writer task ended (cancelled, as when the event loop shuts down)
    before it confirmed a write; the message says whether the write may still be on disk
    (it had reached SQLite) or was never started."""


class WalUnavailable(DatabaseError):
    """SQLite would not put the file in WAL mode, which the bot relies on (readers beside
    the writer): its VFS or file system offers no shared memory, as network shares may."""


class InconsistentData(DatabaseError):
    """The file holds rows the bot never writes (edited by hand, or restored from a
    partial copy): the message names the rows."""


class SchemaTooNew(DatabaseError):
    """The file was written by a newer bot; using it could corrupt it."""

    def __init__(self, *, path: str, found: int, known: int) -> None:
        super().__init__(
            f"database {path!r} has schema version {found}, but this code knows only up to "
            f"{known}; refusing to open it (upgrade the bot, or restore an older backup)"
        )
        self.path = path
        self.found = found
        self.known = known


class ShardsTaken(DatabaseError):
    """Another bot process on this PostgreSQL database runs shards this one was to run,
    or runs the bot with another SHARD_COUNT: both would play the same tables."""

    def __init__(self, *, count: int, taken: list[int], other_counts: list[int]) -> None:
        if other_counts:
            other = other_counts[0]
            said = f"SHARD_COUNT={other}" if other else "SHARD_COUNT unset"
            mine = f"SHARD_COUNT={count}" if count else "SHARD_COUNT unset"
            text = (
                f"another bot process runs on this database with {said}, and this one has "
                f"{mine}: stop every process before changing SHARD_COUNT, then start them "
                "all with the new one"
            )
        else:
            shards = ", ".join(str(shard) for shard in taken)
            word = "shard" if len(taken) == 1 else "shards"
            text = (
                f"another bot process on this database runs {word} {shards}: stop it, or "
                "give this one other SHARD_IDS"
            )
        super().__init__(text)
        self.count = count
        self.taken = taken
        self.other_counts = other_counts


class MigrationError(DatabaseError):
    """The migration files themselves are broken (numbering, names)."""


class UnknownMatch(DatabaseError):
    """No match has this id."""


class MatchNotRunning(DatabaseError):
    """The match has already finished or been abandoned."""


class ActionRejected(DatabaseError):
    """An action was not logged: wrong seq, or the match is not running."""


class InvalidResults(DatabaseError):
    """Finished-match results are inconsistent with the match or its rounds."""


class MemberPlaying(DatabaseError):
    """A member cannot be forgotten while seated at a running table."""


def is_busy(error: BaseException) -> bool:
    """Whether `error` is SQLite's "database is locked": another connection holds the lock.

    It says nothing about the statement itself, and may clear up if tried again.
    (SQLITE_LOCKED, "database table is locked", is not this: without a shared cache it
    comes from the same connection and waiting does not help.)
    """
    return (
        isinstance(error, sqlite3.OperationalError)
        and getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY
    )


def is_integrity_error(error: BaseException) -> bool:
    """Whether `error` is a broken constraint or the action log's order trigger."""
    return isinstance(
        error,
        sqlite3.IntegrityError
        | asyncpg.IntegrityConstraintViolationError
        | asyncpg.InvalidTextRepresentationError,  # PostgreSQL's check of a JSON column
    )


# asyncpg's errors from the server, and from its side of the connection (a closed
# pool, a server that went away); OSError when the server cannot be reached at all.
_ENGINE_ERRORS = (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


@contextlib.contextmanager
def storage_errors(operation: str) -> Iterator[None]:
    """Raise an engine's error out of the block as StorageError naming `operation`."""
    try:
        yield
    except _ENGINE_ERRORS as error:
        raise StorageError(operation, error) from error


def wraps_storage_errors(
    method: Callable[P, Awaitable[R]],
) -> Callable[P, Coroutine[Any, Any, R]]:
    """Make a repository method raise StorageError, named after it, for engine errors.

    Applied to every public method of the repositories (the boundary of `db`): the
    cogs then handle one error family, and the log says which operation failed.
    """
    operation = method.__qualname__

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with storage_errors(operation):
            return await method(*args, **kwargs)

    return wrapper
