"""Typed errors of the database layer; messages are for logs, not players."""

from __future__ import annotations


class DatabaseError(Exception):
    """Base class of every error raised on purpose by `db`."""


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
