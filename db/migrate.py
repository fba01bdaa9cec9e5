"""Numbered SQL migrations (`migrations/NNNN_name.sql`), tracked in PRAGMA user_version.

A migration may also have a Python step (`PYTHON_STEPS`, keyed by the name after
the number, so renumbering a migration needs no code change): it runs after the
file's SQL, in the same transaction, for what SQL alone cannot compute (replaying
results into skill ratings).

Both engines run the same numbered migrations. Where a file's SQL is SQLite's own
(its types, triggers, table rebuilds), `migrations/postgresql/` holds a file of the
same name that does the same on PostgreSQL; a number without one there is run as
it is by both (so a new migration written in portable SQL needs no variant: BIGINT
for ids, TEXT, DOUBLE PRECISION, no SQLite pragmas). PostgreSQL records the version
in a one-row `schema_version` table. Python steps are SQLite's only: a PostgreSQL
database starts empty (`python -m db.copy` brings the ratings as stored), so
there is nothing for them to recompute.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from db.errors import MigrationError, SchemaTooNew
from db.pg_tx import PgConnection
from db.skill import replay_ratings
from db.tx import Dialect

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

# A Python step gets the write connection inside the migration's transaction.
Step = Callable[[aiosqlite.Connection], Awaitable[None]]
PYTHON_STEPS: Mapping[str, Step] = {"settings_ratings": replay_ratings}


@dataclass(frozen=True)
class Migration:
    """One schema step: applying it moves user_version to `version`."""

    version: int
    name: str
    sql: str
    step: Step | None = None

    @property
    def key(self) -> str:
        """The name without number and suffix (`0004_settings_ratings.sql`: settings_ratings)."""
        return self.name[len("0000_") : -len(".sql")]

    def statements(self) -> list[str]:
        """Split the script into statements (trigger bodies stay whole)."""
        out: list[str] = []
        buf = ""
        for line in self.sql.splitlines(keepends=True):
            buf += line
            if sqlite3.complete_statement(buf):
                if _strip_comments(buf):
                    out.append(buf.strip())
                buf = ""
        if _strip_comments(buf):
            raise MigrationError(f"{self.name}: unterminated statement at the end")
        return out


def _strip_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines()).strip()


def load_migrations(
    directory: Path = MIGRATIONS_DIR,
    steps: Mapping[str, Step] | None = None,
    *,
    dialect: Dialect = "sqlite",
) -> list[Migration]:
    """Read every migration file, checking they are numbered 1, 2, 3, ... with no gap.

    `steps` attaches Python steps by the name after the number (default: the bot's
    PYTHON_STEPS for the bot's own folder, none for another); a step naming no file
    is refused (a renamed file would otherwise lose its step silently). For
    PostgreSQL, a file of the same name in `directory/postgresql` replaces the
    shared one, and there are no Python steps.
    """
    if steps is None:
        steps = PYTHON_STEPS if directory == MIGRATIONS_DIR else {}
    variants = directory / "postgresql"
    if dialect == "postgresql":
        steps = {}
        known = {path.name for path in directory.glob("*.sql")}
        strays = sorted(path.name for path in variants.glob("*.sql") if path.name not in known)
        if strays:
            raise MigrationError(f"PostgreSQL variants {strays} replace no migration")
    migrations: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise MigrationError(f"bad migration file name {path.name!r} (want NNNN_name.sql)")
        variant = variants / path.name
        if dialect == "postgresql" and variant.exists():
            path = variant
        text = path.read_text("utf-8")
        migrations.append(Migration(int(match[1]), path.name, text, steps.get(match[2])))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration {migration.name} should be numbered {expected:04d}")
    orphans = sorted(set(steps) - {m.key for m in migrations})
    if orphans:
        raise MigrationError(f"Python migration steps {orphans} name no migration file")
    return migrations


async def schema_version(conn: aiosqlite.Connection) -> int:
    """Return the schema version stored in the file header."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: list[Migration], *, path: str = "?"
) -> int:
    """Bring the schema up to the last of `migrations`, each in its own transaction.

    The connection must be in autocommit mode (isolation_level=None). Returns the
    final version. Raises SchemaTooNew, before changing anything, for a newer file.

    Foreign keys are off while migrations run and checked whole before each commit
    (MigrationError on a violation), as SQLite's procedure for rebuilding a table
    asks: dropping a referenced table with them on would cascade its deletes into
    every child row. Their previous setting is restored afterwards.
    """
    known = len(migrations)
    current = await schema_version(conn)
    if current > known:
        raise SchemaTooNew(path=path, found=current, known=known)
    if current < known:
        foreign_keys = await _pragma_int(conn, "foreign_keys")
        # A no-op inside a transaction: set before each BEGIN.
        await conn.execute("PRAGMA foreign_keys = OFF")
        try:
            for migration in migrations[current:]:
                await _apply_one(conn, migration)
        finally:
            await conn.execute(f"PRAGMA foreign_keys = {foreign_keys:d}")
    final = await schema_version(conn)
    if final > known:
        raise SchemaTooNew(path=path, found=final, known=known)
    return final


async def _apply_one(conn: aiosqlite.Connection, migration: Migration) -> None:
    # IMMEDIATE takes the write lock first, so a second process opening the
    # same file waits, then sees the new version and skips the step.
    await conn.execute("BEGIN IMMEDIATE")
    try:
        found = await schema_version(conn)
        if found >= migration.version:
            await conn.execute("ROLLBACK")
            return
        for statement in migration.statements():
            await conn.execute(statement)
        if migration.step is not None:
            await migration.step(conn)
        async with conn.execute("PRAGMA foreign_key_check") as cursor:
            broken = await cursor.fetchall()
        if broken:
            tables = sorted({str(row[0]) for row in broken})
            raise MigrationError(f"{migration.name} breaks foreign keys of {tables}")
        # user_version lives in the file header, which is part of the transaction.
        await conn.execute(f"PRAGMA user_version = {migration.version:d}")
        await conn.execute("COMMIT")
    except BaseException:
        await conn.execute("ROLLBACK")
        raise


async def _pragma_int(conn: aiosqlite.Connection, name: str) -> int:
    async with conn.execute(f"PRAGMA {name}") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


# Any fixed number: the lock a PostgreSQL migration holds, so that two bot processes
# starting at once migrate one after the other.
_PG_LOCK = 0x554E4F


async def apply_pg_migrations(
    conn: PgConnection, migrations: list[Migration], name: str = "?"
) -> int:
    """PostgreSQL's `apply_migrations`: each file whole, in its own transaction."""
    await conn.execute("SELECT pg_advisory_lock($1)", _PG_LOCK)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await conn.fetchval("SELECT MAX(version) FROM schema_version") or 0
        if current > len(migrations):
            raise SchemaTooNew(path=name, found=current, known=len(migrations))
        for migration in migrations[current:]:
            async with conn.transaction():
                if _strip_comments(migration.sql):
                    await conn.execute(migration.sql)
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version VALUES ($1)", migration.version)
        return len(migrations)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _PG_LOCK)
