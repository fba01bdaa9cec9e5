"""Copy a bot's data from its SQLite file to PostgreSQL: `python -m db.copy SOURCE TARGET`.

SOURCE is the SQLite file (a path or sqlite:///path), TARGET a postgresql:// URL.
Everything moves: matches with their action logs and snapshots (so running tables
resume), scoreboards, ratings, settings, preferences, lobbies, table messages and
rematch offers. Stop the bot first (a write after the copy would stay behind);
then start it with DATABASE_URL=TARGET.

Both databases are first brought to the same schema (Database.open migrates them).
The target's rows are replaced by the source's, table by table, in one
transaction, and each table's row count is compared before it commits: a failed
or interrupted copy leaves the target as it was, and running it again is safe
(it gives the same result).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

import asyncpg

from db.database import Database, _sqlite_path

# Parents before children (foreign keys), each with the column its identity follows.
TABLES: tuple[tuple[str, str | None], ...] = (
    ("matches", "match_id"),
    ("match_players", None),
    ("rounds", None),
    ("round_scores", None),
    ("results", None),
    ("actions", "action_id"),
    ("snapshots", None),
    ("guild_settings", None),
    ("member_prefs", None),
    ("ratings", None),
    ("rating_changes", "change_id"),
    ("lobbies", "lobby_id"),
    ("table_messages", None),
    ("rematch_offers", None),
    ("draft_keepers", None),
    ("endings_owed", None),
)


class CopyMismatch(RuntimeError):
    """A table's row count differs after the copy: nothing was committed."""


async def copy(source: str | Path, target: str) -> dict[str, int]:
    """Copy every table of `source` (SQLite) into `target` (PostgreSQL); return the counts."""
    path = Path(_sqlite_path(source))
    if not await asyncio.to_thread(path.is_file):
        raise FileNotFoundError(f"no SQLite file at {path}")
    # Open (and so migrate) both, then close: the copy reads and writes below.
    async with Database.open(path), Database.open(target):
        pass
    counts: dict[str, int] = {}
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as reader:
        conn = await asyncpg.connect(target)
        try:
            async with conn.transaction():
                # The log's order trigger checks live actions; these are history.
                await conn.execute("ALTER TABLE actions DISABLE TRIGGER actions_in_order")
                for table, _ in reversed(TABLES):
                    await conn.execute(f"DELETE FROM {table}")
                for table, identity in TABLES:
                    counts[table] = await _copy_table(reader, conn, table, identity)
                await conn.execute("ALTER TABLE actions ENABLE TRIGGER actions_in_order")
        finally:
            await conn.close()
    return counts


async def _copy_table(
    reader: sqlite3.Connection, conn: asyncpg.Connection, table: str, identity: str | None
) -> int:
    cursor = reader.execute(f"SELECT * FROM {table}")
    columns = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    if rows:
        await conn.copy_records_to_table(table, records=rows, columns=columns)
    copied = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
    if copied != len(rows):
        raise CopyMismatch(f"{table}: {len(rows)} rows in the file, {copied} in PostgreSQL")
    if identity is not None:  # new rows continue after the copied ids
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{identity}'),"
            f" COALESCE((SELECT MAX({identity}) FROM {table}), 0) + 1, false)"
        )
    return len(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m db.copy", description=__doc__.split("\n")[0])
    parser.add_argument("source", help="the SQLite file (path or sqlite:///path)")
    parser.add_argument("target", help="the PostgreSQL database (postgresql://...)")
    args = parser.parse_args(argv)
    counts = asyncio.run(copy(args.source, args.target))
    for table, n in counts.items():
        print(f"{table:16s} {n:>9d} rows")
    print("Copied; every table's count matches.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
