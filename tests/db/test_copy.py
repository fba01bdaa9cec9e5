"""python -m db.copy: a SQLite bot's data into PostgreSQL, counts checked, safe to re-run."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from db.copy import TABLES, main
from db.database import Database
from db.models import RoundResult
from db.rematches import RematchRow
from tests.postgres import PostgresServer

from .conftest import GUILD, Clock, start, win

A, B, C = 1, 2, 3


async def fill(path: Path) -> int:
    """A bot's life in a file: finished matches, one still running, every kind of row."""
    async with Database.open(path, snapshot_every=2) as db:
        clock = Clock()
        await win(db, clock, A, B)
        await win(db, clock, B, A)
        running = await start(db, A, C)
        for seq in range(1, 4):
            await db.tables.record_action(
                running, seq=seq, player_id=A, action={"n": seq}, state={"seq": seq},
                deadline=datetime(2030, 1, 1, tzinfo=UTC), keeper_round=1 if seq == 1 else None,
                round_result=RoundResult(round_no=1, winner_id=A, points={C: 12})
                if seq == 3 else None,
            )  # fmt: skip
        await db.settings.update(GUILD, turn_seconds=30)
        await db.prefs.update(C, pings=False)
        lobby = await db.lobbies.open(guild_id=GUILD, channel_id=7)
        await db.lobbies.set_message(lobby, 70)
        await db.table_messages.posted(match_id=running, channel_id=7, message_id=71)
        await db.rematches.offer(
            RematchRow(
                table_id=1, guild_id=GUILD, channel_id=7, host_id=A, variant="duo",
                options={"target": 200}, seats=((A, "a"), (B, "b")), accepted=frozenset({A}),
            ),
            keep=10,
        )  # fmt: skip
    return running


async def test_copy_knows_every_table_the_migrations_make(tmp_path: Path) -> None:
    """A table added by a later migration must be copied too, not silently left behind."""
    async with Database.open(tmp_path / "bot.db") as db, db.reading() as conn:
        rows = await conn.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' AND name <> 'schema_version'"
        )
    assert sorted(name for name, _ in TABLES) == sorted(str(row[0]) for row in rows)


async def test_copy_moves_every_table_and_running_tables_resume(
    tmp_path: Path, postgres: PostgresServer
) -> None:
    source = tmp_path / "uno.db"
    running = await fill(source)
    target = await postgres.new_database()
    assert await asyncio.to_thread(main, [str(source), target]) == 0
    # Again: the same result, no error.
    assert await asyncio.to_thread(main, [f"sqlite:///{source}", target]) == 0
    async with Database.open(source) as old, Database.open(target) as new:
        for table, _ in TABLES:
            async with old.reading() as a, new.reading() as b:
                want = await a.fetchone(f"SELECT COUNT(*) FROM {table}")
                got = await b.fetchone(f"SELECT COUNT(*) FROM {table}")
            assert want is not None
            assert got is not None
            assert (table, got[0]) == (table, want[0])
        assert await new.tables.running_tables() == await old.tables.running_tables()
        assert await new.scores.leaderboard(guild_id=GUILD, variant="duo", min_played=1) == (
            await old.scores.leaderboard(guild_id=GUILD, variant="duo", min_played=1)
        )
        assert await new.ratings.leaderboard(guild_id=GUILD, variant="duo", min_played=1) == (
            await old.ratings.leaderboard(guild_id=GUILD, variant="duo", min_played=1)
        )
        assert (await new.settings.get(GUILD)).turn_seconds == 30
        assert await new.prefs.without_pings([A, C]) == {C}
        assert await new.rematches.open_offers() == await old.rematches.open_offers()
        # The copied table plays on, and new rows take new ids.
        await new.tables.record_action(
            running, seq=4, player_id=C, action={}, state="{}", deadline=None
        )
        assert await start(new, A, B) > running
        assert await new.lobbies.open(guild_id=GUILD, channel_id=7) > 1
