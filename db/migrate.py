"""Numbered SQL migrations (`migrations/NNNN_name.sql`), tracked in PRAGMA user_version."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from db.errors import MigrationError, SchemaTooNew

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    """One schema step: applying it moves user_version to `version`."""

    version: int
    name: str
    sql: str

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


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Read every migration file, checking they are numbered 1, 2, 3, ... with no gap."""
    migrations: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise MigrationError(f"bad migration file name {path.name!r} (want NNNN_name.sql)")
        migrations.append(Migration(int(match[1]), path.name, path.read_text("utf-8")))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration {migration.name} should be numbered {expected:04d}")
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
    """
    known = len(migrations)
    current = await schema_version(conn)
    if current > known:
        raise SchemaTooNew(path=path, found=current, known=known)
    for migration in migrations[current:]:
        # IMMEDIATE takes the write lock first, so a second process opening the
        # same file waits, then sees the new version and skips the step.
        await conn.execute("BEGIN IMMEDIATE")
        try:
            found = await schema_version(conn)
            if found >= migration.version:
                await conn.execute("ROLLBACK")
                continue
            for statement in migration.statements():
                await conn.execute(statement)
            # user_version lives in the file header, which is part of the transaction.
            await conn.execute(f"PRAGMA user_version = {migration.version:d}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
    final = await schema_version(conn)
    if final > known:
        raise SchemaTooNew(path=path, found=final, known=known)
    return final
