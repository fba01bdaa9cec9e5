"""Schema migrations: from an empty file, from every earlier version, refusing newer files."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

import db.sqlite_store as database_module
from db.database import Database
from db.errors import ActionRejected, MigrationError, SchemaTooNew
from db.migrate import apply_migrations, load_migrations, schema_version
from db.models import PlayerResult, RoundResult
from db.skill import DEFAULT_MU

from .conftest import GUILD, Clock, play, seats, start, win

ALL = load_migrations()


def tables_of(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_schema").fetchall()
    return {name for (name,) in rows}


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


async def build_at(path: Path, version: int) -> None:
    """Create a database as a bot that only knew the first `version` migrations would."""
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA foreign_keys = ON")
        assert await apply_migrations(conn, ALL[:version]) == version


def test_migrations_are_numbered_from_one_without_gaps() -> None:
    assert [m.version for m in ALL] == list(range(1, len(ALL) + 1))
    assert len(ALL) >= 2


async def test_empty_file_gets_the_whole_schema(db_path: Path) -> None:
    async with Database.open(db_path) as db:
        assert await db.pragma("user_version") == len(ALL)
    assert {"matches", "match_players", "rounds", "round_scores", "results", "actions"} <= (
        tables_of(db_path)
    )
    assert "results_user" in tables_of(db_path)


async def test_pragmas_for_a_concurrent_bot(db_path: Path) -> None:
    async with Database.open(db_path) as db:
        assert await db.pragma("journal_mode") == "wal"
        assert await db.pragma("foreign_keys") == 1
        # A write tries the lock in short steps, up to 1.5 s in all (test_errors.py);
        # a read waits once (in WAL mode only rarities such as a WAL recovery block it).
        assert await db.pragma("busy_timeout") == 100
        async with db.reading() as reader:
            assert await reader.fetchone("PRAGMA busy_timeout") == (1500,)
        assert await db.pragma("synchronous") == 2  # FULL: a power cut loses no commit
        # Checkpoints run in the background, never inside a player's commit.
        assert await db.pragma("wal_autocheckpoint") == 0
    async with Database.open(db_path, synchronous="NORMAL") as db:
        assert await db.pragma("synchronous") == 1


@pytest.mark.parametrize("version", range(len(ALL) + 1))
async def test_every_earlier_version_is_upgraded(db_path: Path, version: int) -> None:
    await build_at(db_path, version)
    assert user_version(db_path) == version
    async with Database.open(db_path) as db:
        assert await db.pragma("user_version") == len(ALL)
        # The upgraded file works end to end.
        mid = await db.tables.start_match(
            guild_id=GUILD, channel_id=1, variant="duo", options={}, seed=1,
            players=seats(1, 2), state="{}",
        )  # fmt: skip
        await db.tables.record_action(mid, seq=1, player_id=1, action={}, state="{}", deadline=None)
        await db.tables.start_match(
            guild_id=GUILD, channel_id=1, variant="classic", options={}, seed=1,
            players=seats(1, 2, 3), state="{}", practice=True,
        )  # fmt: skip
        assert (await db.settings.update(GUILD, stacking=True)).house_rules == ["stacking"]
        assert (await db.prefs.update(1, pings=False)).pings is False
        assert await db.ratings.rating(guild_id=GUILD, user_id=1, variant="duo") is None
    assert "results_user" in tables_of(db_path)


async def test_data_written_at_version_1_survives_the_upgrade(db_path: Path) -> None:
    await build_at(db_path, 1)
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(
            "INSERT INTO matches (match_id, guild_id, channel_id, variant, seed, status,"
            " started_at, ended_at) VALUES (7, ?, 1, 'duo', 1, 'finished', 0, 1000)",
            (GUILD,),
        )
        conn.executemany(
            "INSERT INTO match_players VALUES (7, ?, ?, ?)", [(0, 1, "Ann"), (1, 2, "Bob")]
        )
        conn.execute("INSERT INTO rounds VALUES (7, 1, 1, 1000)")
        conn.executemany("INSERT INTO round_scores VALUES (7, 1, ?, ?)", [(1, 0), (2, 230)])
        conn.executemany(
            "INSERT INTO results VALUES (7, ?, ?, ?, ?)", [(1, 0, 1, "won"), (2, 230, 2, "lost")]
        )
    async with Database.open(db_path) as db:
        stats = await db.scores.member_stats(guild_id=GUILD, user_id=2, variant="duo")
        assert stats is not None
        assert (stats.stats.display_name, stats.stats.played, stats.stats.points) == ("Bob", 1, 230)
        assert [r.match_id for r in stats.recent] == [7]
        # Replayed into ratings by 0004.
        rating = await db.ratings.rating(guild_id=GUILD, user_id=1, variant="duo")
        assert rating is not None
        assert rating.matches == 1
        assert rating.mu > DEFAULT_MU


async def test_newer_database_is_refused_untouched(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute(f"PRAGMA user_version = {len(ALL) + 1}")
    with pytest.raises(SchemaTooNew, match=rf"version {len(ALL) + 1}.*only up to {len(ALL)}"):
        await Database.open(db_path)
    assert user_version(db_path) == len(ALL) + 1
    assert tables_of(db_path) == {"future"}
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)


async def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_one.sql").write_text("CREATE TABLE one (x INTEGER);\n")
    (folder / "0002_two.sql").write_text(
        "CREATE TABLE two (x INTEGER);\n"
        "INSERT INTO one VALUES (1);\n"
        "INSERT INTO nowhere VALUES (1);\n"
    )
    path = tmp_path / "t.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        with pytest.raises(sqlite3.OperationalError, match="nowhere"):
            await apply_migrations(conn, load_migrations(folder))
        assert await schema_version(conn) == 1
    assert tables_of(path) == {"one"}  # nothing of 0002 stayed
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM one").fetchone() == (0,)


def test_a_gap_in_numbering_is_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_one.sql").write_text("SELECT 1;")
    (tmp_path / "0003_three.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="0002"):
        load_migrations(tmp_path)


def test_trigger_bodies_stay_one_statement() -> None:
    statements = ALL[0].statements()
    triggers = [s for s in statements if "CREATE TRIGGER" in s]
    assert len(triggers) == 1
    assert triggers[0].rstrip().endswith("END;")
    assert "RAISE(ABORT, 'action seq out of order')" in triggers[0]


def test_models_reject_results_with_bad_values() -> None:
    with pytest.raises(ValueError, match="greater than or equal"):
        PlayerResult(user_id=1, score=-1, place=1, outcome="won")
    with pytest.raises(ValueError, match="greater than or equal"):
        RoundResult(round_no=0, winner_id=1, points={})


def size(path: Path | str) -> int:
    """The file's size, 0 if it does not exist."""
    path = Path(path)
    return path.stat().st_size if path.exists() else 0


async def test_wal_is_checkpointed_in_the_background_and_at_close(db_path: Path) -> None:
    async with Database.open(db_path, checkpoint_every_s=0.05) as db:
        before = size(db_path)
        for _ in range(50):
            await db.tables.start_match(
                guild_id=GUILD, channel_id=1, variant="duo", options={}, seed=1,
                players=seats(1, 2), state='{"pad":"' + "x" * 4000 + '"}',
            )  # fmt: skip
        # Commits went to the WAL only; the background checkpoint copies them over.
        for _ in range(500):  # up to 10 s on a busy machine; done in ~0.1 s when idle
            await asyncio.sleep(0.02)
            if size(db_path) > before + 200_000:
                break
        assert size(db_path) > before + 200_000
    # The last connection to close folds the WAL in and removes it.
    assert size(f"{db_path}-wal") == 0


async def test_bad_settings_are_refused_before_opening(db_path: Path) -> None:
    with pytest.raises(ValueError, match="snapshot_every"):
        await Database.open(db_path, snapshot_every=0)
    with pytest.raises(ValueError, match="needs a file"):
        await Database.open(":memory:")
    assert size(db_path) == 0  # nothing was created


def wal_restarts(path: Path) -> int:
    """How many times the WAL has started over: its header's checkpoint sequence number."""
    with open(f"{path}-wal", "rb") as wal:
        header = wal.read(16)
    return int.from_bytes(header[12:16], "big") if len(header) == 16 else 0


async def test_wal_starts_over_while_actions_keep_coming(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy bot never pauses: the WAL must still be reused, not grow forever.

    Counted in restarts, not bytes at the end: how far the WAL runs ahead of a
    checkpoint depends on the disk's fsync time, which a loaded machine stretches.
    """
    # At its real size (~40 MB) this test would take minutes to see restarts.
    monkeypatch.setattr(database_module, "WAL_RESTART_FRAMES", 1000)
    state = '{"pad":"' + "x" * 4000 + '"}'
    async with Database.open(db_path, snapshot_every=1, checkpoint_every_s=0.05) as db:
        mids = [await start(db, 2 * i + 1, 2 * i + 2) for i in range(20)]
        first = wal_restarts(db_path)
        written = 0
        # Growing, the WAL would hold ~1.8x the states written (measured); starting
        # over, it stays near 1,000 pages (4 MB) a restart, so 3 must come long before.
        give_up = 200_000_000

        def keep_writing() -> bool:
            return written < give_up and wal_restarts(db_path) < first + 3

        async def table(i: int, mid: int) -> None:
            nonlocal written
            seq = 0
            while keep_writing():
                seq += 1
                await db.tables.record_action(
                    mid, seq=seq, player_id=2 * i + 1, action={}, state=state, deadline=None
                )
                written += len(state)

        await asyncio.gather(*(table(i, mid) for i, mid in enumerate(mids)))
        assert wal_restarts(db_path) >= first + 3, (written, size(f"{db_path}-wal"))


# -- 0004: settings, ratings, classic and practice matches -----------------------

RATINGS_VERSION = next(m.version for m in ALL if m.key == "settings_ratings")
# The tables as a bot before ratings wrote them (columns it knew).
_OLD_ROWS = {
    "matches": "match_id, guild_id, channel_id, variant, options, seed, status, started_at,"
    " ended_at, message_id, turn_deadline",
    "match_players": "*",
    "rounds": "*",
    "round_scores": "*",
    "results": "*",
    "actions": "*",
    "snapshots": "*",
}


def copy_history(source: Path, target: Path) -> None:
    """Copy every match of `source` into `target`, a file at an earlier schema version."""
    with sqlite3.connect(target) as conn:
        conn.execute("ATTACH DATABASE ? AS src", (str(source),))
        for table, columns in _OLD_ROWS.items():
            conn.execute(f"INSERT INTO main.{table} SELECT {columns} FROM src.{table}")


def dump(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(sql).fetchall()


async def test_replay_gives_the_ratings_recorded_live(tmp_path: Path) -> None:
    """Old results replayed by the migration give the ratings live recording gives, to the bit."""
    live = tmp_path / "live.db"
    clock = Clock()
    async with Database.open(live) as db:
        for n in range(12):
            await win(db, clock, 1 + n % 3, 1 + (n + 1) % 3, forfeit=n % 5 == 4)
        await play(
            db, clock, variant="pizza", players=[1, 2, 3, 4],
            rounds=[(2, {2: 120}), (3, {3: 140})],
            outcomes={1: "forfeit", 2: "lost", 3: "won", 4: "lost"},
        )  # fmt: skip
        await play(
            db, clock, players=[1, 2], rounds=[(1, {2: 200})], outcomes={1: "won", 2: "lost"},
            guild_id=GUILD + 1,
        )  # fmt: skip
        await start(db, 1, 5)  # still running: not rated, and it survives the rebuild
    old = tmp_path / "old.db"
    await build_at(old, RATINGS_VERSION - 1)
    copy_history(live, old)
    async with Database.open(old) as db:
        assert await db.pragma("user_version") == len(ALL)
        [running] = await db.tables.running_tables()
        assert [s.user_id for s in running.match.players] == [1, 5]
    for sql in (
        "SELECT * FROM ratings ORDER BY guild_id, variant, user_id",
        "SELECT * FROM rating_changes ORDER BY change_id",
    ):
        recorded = dump(live, sql)
        assert recorded
        assert dump(old, sql) == recorded


async def test_replay_rates_matches_in_the_order_they_ended(db_path: Path) -> None:
    await build_at(db_path, RATINGS_VERSION - 1)
    with sqlite3.connect(db_path) as conn:
        for mid, ended in ((1, 3000), (2, 1000), (3, 2000)):
            insert_finished_duo(conn, mid, ended, winner=1, loser=2)
    async with Database.open(db_path):
        pass
    order = dump(db_path, "SELECT DISTINCT match_id FROM rating_changes ORDER BY change_id")
    assert order == [(2,), (3,), (1,)]


async def test_replay_leaves_forgotten_members_unrated(db_path: Path) -> None:
    """Their placeholder ids (-1, -2: reused in every match) must not pool into a rating."""
    await build_at(db_path, RATINGS_VERSION - 1)
    with sqlite3.connect(db_path) as conn:
        insert_finished_duo(conn, 1, 1000, winner=-1, loser=2)
        insert_finished_duo(conn, 2, 2000, winner=3, loser=-2)
    async with Database.open(db_path) as db:
        assert dump(db_path, "SELECT COUNT(*) FROM ratings WHERE user_id < 0") == [(0,)]
        two = await db.ratings.rating(guild_id=GUILD, user_id=2, variant="duo")
        three = await db.ratings.rating(guild_id=GUILD, user_id=3, variant="duo")
        assert two is not None
        assert three is not None
        # Each played a fresh opponent at the default rating: mirror images.
        assert two.mu == pytest.approx(2 * DEFAULT_MU - three.mu)


def insert_finished_duo(
    conn: sqlite3.Connection, mid: int, ended: int, *, winner: int, loser: int
) -> None:
    """A finished Duo match as an older bot wrote it: `loser` conceded 200 in one round."""
    conn.execute(
        "INSERT INTO matches (match_id, guild_id, channel_id, variant, seed, status,"
        " started_at, ended_at) VALUES (?, ?, 1, 'duo', 1, 'finished', 0, ?)",
        (mid, GUILD, ended),
    )
    conn.executemany(
        "INSERT INTO match_players VALUES (?, ?, ?, ?)",
        [(mid, 0, winner, "W"), (mid, 1, loser, "L")],
    )
    conn.execute("INSERT INTO rounds VALUES (?, 1, ?, ?)", (mid, winner, ended))
    conn.executemany(
        "INSERT INTO round_scores VALUES (?, 1, ?, ?)", [(mid, winner, 0), (mid, loser, 200)]
    )
    conn.executemany(
        "INSERT INTO results VALUES (?, ?, ?, ?, ?)",
        [(mid, winner, 0, 1, "won"), (mid, loser, 200, 2, "lost")],
    )


async def test_the_rebuilt_matches_table_keeps_its_log_checks_and_keys(db_path: Path) -> None:
    """After 0004 rebuilt matches, the triggers and foreign keys naming it still hold."""
    await build_at(db_path, RATINGS_VERSION - 1)
    with sqlite3.connect(db_path) as conn:
        insert_finished_duo(conn, 1, 1000, winner=1, loser=2)
    async with Database.open(db_path) as db:
        mid = await start(db, 1, 2)
        await db.tables.record_action(mid, seq=1, player_id=1, action={}, state="{}", deadline=None)
        with pytest.raises(ActionRejected, match="out of order"):
            await db.tables.record_action(
                mid, seq=3, player_id=1, action={}, state="{}", deadline=None
            )
        with pytest.raises(ActionRejected, match="not running"):
            await db.tables.record_action(
                1, seq=1, player_id=1, action={}, state="{}", deadline=None
            )
        assert await db.pragma("foreign_keys") == 1
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            conn.execute("INSERT INTO match_players VALUES (999, 0, 1, 'nobody')")
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        # Deleting a match still cascades to its rows (the keys point at the new table).
        conn.execute("DELETE FROM matches WHERE match_id = 1")
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM rating_changes").fetchone() == (0,)


async def test_a_migration_breaking_a_foreign_key_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_one.sql").write_text(
        "CREATE TABLE parent (id INTEGER PRIMARY KEY);\n"
        "CREATE TABLE child (id INTEGER REFERENCES parent (id));\n"
    )
    (folder / "0002_two.sql").write_text("INSERT INTO child VALUES (7);\n")
    path = tmp_path / "t.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(MigrationError, match=r"0002_two\.sql breaks foreign keys of .*child"):
            await apply_migrations(conn, load_migrations(folder))
        assert await schema_version(conn) == 1
        async with conn.execute("PRAGMA foreign_keys") as cursor:
            assert await cursor.fetchone() == (1,)  # restored


async def test_python_steps_run_in_the_migration_and_attach_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_one.sql").write_text("CREATE TABLE one (x INTEGER);\n")
    (folder / "0002_fill.sql").write_text("CREATE TABLE two (x INTEGER);\n")

    async def fill(conn: aiosqlite.Connection) -> None:
        await conn.executemany("INSERT INTO two VALUES (?)", [(n,) for n in range(3)])

    async def broken(conn: aiosqlite.Connection) -> None:
        await conn.execute("INSERT INTO two VALUES (99)")
        raise RuntimeError("step failed")

    with pytest.raises(MigrationError, match="name no migration file"):
        load_migrations(folder, {"fil": fill})
    path = tmp_path / "t.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        with pytest.raises(RuntimeError, match="step failed"):
            await apply_migrations(conn, load_migrations(folder, {"fill": broken}))
        assert await schema_version(conn) == 1
        assert await apply_migrations(conn, load_migrations(folder, {"fill": fill})) == 2
        async with conn.execute("SELECT x FROM two ORDER BY x") as cursor:
            assert [tuple(row) for row in await cursor.fetchall()] == [(0,), (1,), (2,)]
