"""SQLite's own failures leave `db` as DatabaseError naming the operation, on real files.

A full disk, a file locked past the busy timeout, a corrupt page, a file that is
not a database: each is produced for real (no mocks), and each must reach the
caller as a StorageError (a DatabaseError) chaining the sqlite3 error, with the
write connection still usable once the cause is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

import db.sqlite_store
from db.database import Database
from db.errors import (
    DatabaseClosed,
    DatabaseError,
    InconsistentData,
    StorageError,
    WalUnavailable,
    WriterStopped,
)
from db.fields import FieldStore
from db.models import RoundResult
from db.prefs import PrefsRepo
from db.ratings import RatingRepo
from db.scores import ScoreRepo
from db.settings import SettingsRepo
from db.tables import TableRepo

from .conftest import GUILD, Clock, start, win

SHORT_LOCK_WAIT_MS = 100  # the bot waits 1.5 s for a lock; most tests need not
# A generous bound on how long a write may wait for a held lock (LOCK_WAIT_MS = 1.5 s,
# plus one attempt of BUSY_STEP_MS): the click's answer must fit in Discord's 3 s. Not a
# performance figure: before, the first write took 5 s and a batch of N took (N + 1) x 5 s.
LOCKED_WRITE_FAILS_WITHIN_S = 2.5


def assert_storage_error(
    caught: pytest.ExceptionInfo[DatabaseError], operation: str, cause: str
) -> None:
    error = caught.value
    assert isinstance(error, StorageError)
    assert error.operation == operation
    assert isinstance(error.__cause__, sqlite3.Error)
    assert cause in str(error.__cause__)
    assert str(error).startswith(f"{operation} failed: ")
    assert cause in str(error)


@pytest.fixture
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db.sqlite_store, "LOCK_WAIT_MS", SHORT_LOCK_WAIT_MS)


@contextlib.contextmanager
def write_lock_held(path: Path) -> Iterator[None]:
    """Another process holds the file's write lock meanwhile (a backup, the sqlite3 CLI)."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def fill_the_disk(database: Database) -> None:
    """Cap the file at its current size: SQLite then fails writes as on a full disk."""
    pages = await database.pragma("page_count")
    async with database.transaction() as conn:
        await conn.execute(f"PRAGMA max_page_count = {pages}")


async def free_the_disk(database: Database) -> None:
    async with database.transaction() as conn:
        await conn.execute("PRAGMA max_page_count = 1073741823")


def corrupt_page(path: Path, *, page: int, page_size: int) -> None:
    """Break one b-tree page of a closed file (its WAL folded in): an invalid page type."""
    data = bytearray(path.read_bytes())
    data[(page - 1) * page_size] = 0
    path.write_bytes(bytes(data))


BIG_STATE = json.dumps({"filler": "x" * 200_000})  # needs pages the full disk hasn't got


# ---------------------------------------------------------------- writes


async def test_writes_locked_past_the_busy_timeout_are_storage_errors(
    short_busy_timeout: None, db_path: Path
) -> None:
    async with Database.open(db_path) as database:
        match_id = await start(database, 1, 2)
        with write_lock_held(db_path):
            with pytest.raises(DatabaseError) as started:
                await start(database, 3, 4)
            assert_storage_error(started, "TableRepo.start_match", "database is locked")
            with pytest.raises(DatabaseError) as logged:  # through the group-commit writer
                await database.tables.record_action(
                    match_id, seq=1, player_id=1, action={"t": "d"}, state="{}", deadline=None
                )
            assert_storage_error(logged, "TableRepo.record_action", "database is locked")
            with pytest.raises(DatabaseError) as forgot:
                await database.scores.forget_member(1)
            assert_storage_error(forgot, "ScoreRepo.forget_member", "database is locked")
            with pytest.raises(DatabaseError) as changed:
                await database.settings.update(1, stacking=True)
            assert_storage_error(changed, "FieldStore.update", "database is locked")

        # Nothing was half-written, and the same calls now go through.
        await start(database, 3, 4)
        await database.tables.record_action(
            match_id, seq=1, player_id=1, action={"t": "d"}, state="{}", deadline=None
        )
        assert [a.seq for a in await database.tables.actions(match_id)] == [1]


async def log_action(database: Database, match_id: int, seq: int, **extra: object) -> None:
    kwargs: dict[str, object] = {"player_id": match_id * 10, "deadline": None, **extra}
    await database.tables.record_action(
        match_id,
        seq=seq,
        action={"n": seq},
        state="{}",
        **kwargs,  # type: ignore[arg-type]
    )


async def start_tables(database: Database, count: int) -> list[int]:
    """Start `count` tables; table `m`'s first player is user `m * 10`."""
    ids = []
    for n in range(1, count + 1):
        ids.append(await start(database, n * 10, n * 10 + 1))
        assert ids[-1] == n
    return ids


async def timed(call: Awaitable[object]) -> tuple[float, BaseException | None]:
    """How long the awaitable `call` took, and what it raised."""
    began = time.monotonic()
    try:
        await call
    except Exception as error:
        return time.monotonic() - began, error
    return time.monotonic() - began, None


async def test_a_locked_file_fails_every_queued_write_at_once_within_discords_window(
    db_path: Path,
) -> None:
    async with Database.open(db_path) as database:
        tables = await start_tables(database, 100)
        await asyncio.gather(*(log_action(database, m, 1) for m in tables))  # acknowledged
        with write_lock_held(db_path):
            began = time.monotonic()
            outcomes = await asyncio.gather(
                *(timed(log_action(database, m, 2)) for m in tables[:-1]),
                # one that ends a round: its batch takes the transaction path
                timed(
                    log_action(
                        database,
                        tables[-1],
                        2,
                        round_result=RoundResult(round_no=1, winner_id=1000, points={1001: 5}),
                    )
                ),
                timed(start(database, 1, 2)),  # a lobby's Start click, meanwhile
                timed(database.tables.set_deadline(tables[0], None)),
            )
            last_returned = time.monotonic() - began
        # Nothing was retried action by action, each waiting for the lock again.
        assert last_returned < LOCKED_WRITE_FAILS_WITHIN_S
        for waited, error in outcomes:
            assert isinstance(error, StorageError), error
            assert "database is locked" in str(error)
            assert waited < LOCKED_WRITE_FAILS_WITHIN_S

        # The lock is gone: the same writes go through, and every acknowledged action stayed.
        await asyncio.gather(*(log_action(database, m, 2) for m in tables))
        assert await start(database, 1, 2) == len(tables) + 1
        for m in tables:
            assert [a.seq for a in await database.tables.actions(m)] == [1, 2]


async def test_clicks_arriving_while_the_file_stays_locked_each_fail_within_discords_window(
    db_path: Path,
) -> None:
    # A steady stream of clicks, not one burst: the writer keeps two batches in flight,
    # and a write queued behind one waiting for the lock must not inherit its wait.
    async with Database.open(db_path) as database:
        tables = await start_tables(database, 40)
        with write_lock_held(db_path):
            clicks = []
            for m in tables:
                clicks.append(asyncio.ensure_future(timed(log_action(database, m, 1))))
                await asyncio.sleep(0.05)
            outcomes = await asyncio.gather(*clicks)
        assert all(isinstance(error, StorageError) for _, error in outcomes), outcomes
        slowest = max(waited for waited, _ in outcomes)
        assert slowest < LOCKED_WRITE_FAILS_WITHIN_S
        await asyncio.gather(*(log_action(database, m, 1) for m in tables))


async def test_a_lock_released_within_the_wait_fails_nothing(db_path: Path) -> None:
    # SQLite itself waits only BUSY_STEP_MS per attempt: the writes must keep trying.
    async with Database.open(db_path) as database:
        tables = await start_tables(database, 20)
        other = sqlite3.connect(db_path, isolation_level=None, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")
            writes = asyncio.gather(
                *(log_action(database, m, 1) for m in tables),
                start(database, 1, 2),
                database.tables.set_deadline(tables[0], None),
            )
            await asyncio.sleep(0.5)
            other.execute("ROLLBACK")
        finally:
            other.close()
        await writes
        for m in tables:
            assert [a.seq for a in await database.tables.actions(m)] == [1]


async def test_reads_answer_at_once_while_another_program_holds_the_write_lock(
    db_path: Path,
) -> None:
    # WAL: a reader never waits for a writer, so the leaderboard and the restore of
    # running tables work during a long admin transaction, showing what is committed.
    async with Database.open(db_path) as database:
        clock = Clock()
        for _ in range(5):
            await win(database, clock, 1, 2)
        running = await start(database, 3, 4)
        other = sqlite3.connect(db_path, isolation_level=None, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute(
                "UPDATE matches SET status = 'abandoned', ended_at = 1 WHERE match_id = ?",
                (running,),
            )
            began = time.monotonic()
            tables = await database.tables.running_tables()
            board = await database.scores.leaderboard(guild_id=GUILD, variant="duo")
            waited = time.monotonic() - began
        finally:
            other.close()
        assert [t.match.match_id for t in tables] == [running]
        assert [e.stats.user_id for e in board.entries][:1] == [1]
        assert waited < 0.5


async def test_a_full_disk_fails_a_write_with_its_real_cause(db: Database) -> None:
    match_id = await start(db, 1, 2)
    await fill_the_disk(db)
    # SQLite rolls a transaction back itself on a full disk: the error must still
    # say "full", not that there was nothing left to roll back.
    with pytest.raises(DatabaseError) as started:
        await start(db, 3, 4, state=BIG_STATE)
    assert_storage_error(started, "TableRepo.start_match", "database or disk is full")
    with pytest.raises(DatabaseError) as logged:
        await db.tables.record_action(
            match_id, seq=1, player_id=1, action={"t": BIG_STATE}, state="{}", deadline=None
        )
    assert_storage_error(logged, "TableRepo.record_action", "database or disk is full")

    await free_the_disk(db)
    assert await start(db, 3, 4, state=BIG_STATE) > match_id
    assert len(await db.tables.running_tables()) == 2


async def test_a_failed_commit_leaves_the_write_connection_usable(db: Database) -> None:
    # A deferred foreign key fails at COMMIT, which leaves SQLite's transaction open;
    # unless it is rolled back, every later write fails ("within a transaction").
    async def seat_at_no_match() -> None:
        async with db.transaction() as conn:
            await conn.execute("PRAGMA defer_foreign_keys = ON")
            await conn.execute(
                "INSERT INTO match_players (match_id, seat, user_id, display_name)"
                " VALUES (4242, 0, 1, 'orphan')"
            )

    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await seat_at_no_match()
    match_id = await start(db, 1, 2)
    assert [s.user_id for s in (await db.tables.get_match(match_id)).players] == [1, 2]


# ---------------------------------------------------------------- reads and opening


async def test_a_corrupt_page_fails_reads_as_storage_errors(db_path: Path) -> None:
    async with Database.open(db_path) as database:
        await win(database, Clock(), 1, 2)
        await start(database, 3, 4)  # running_tables reads the running one's row
        async with (
            database.reading() as conn,
        ):
            row = await conn.fetchone("SELECT rootpage FROM sqlite_master WHERE name = 'matches'")
        assert row is not None
        page_size = int(str(await database.pragma("page_size")))
    corrupt_page(db_path, page=int(row[0]), page_size=page_size)

    async with Database.open(db_path) as database:
        with pytest.raises(DatabaseError) as listed:
            await database.tables.running_tables()
        assert_storage_error(listed, "TableRepo.running_tables", "database disk image is malformed")
        with pytest.raises(DatabaseError) as fetched:
            await database.tables.get_match(1)
        assert_storage_error(fetched, "TableRepo.get_match", "database disk image is malformed")


@pytest.mark.parametrize(
    ("make", "cause"),
    [
        (lambda p: p.write_bytes(b"not a database " * 500), "file is not a database"),
        (lambda p: p.mkdir(), "unable to open database file"),
    ],
    ids=["garbage-file", "a-folder"],
)
async def test_opening_what_is_not_a_database_is_a_storage_error(
    tmp_path: Path, make: Callable[[Path], object], cause: str
) -> None:
    path = tmp_path / "uno.db"
    make(path)
    before = set(threading.enumerate())
    with pytest.raises(DatabaseError) as opened:
        await Database.open(path)
    assert_storage_error(opened, "Database.open", cause)
    # No connection thread is left behind. aiosqlite stops the thread of a connection
    # that failed to open without waiting for it: give it a moment to finish.
    for _ in range(100):
        if set(threading.enumerate()) <= before:
            break
        await asyncio.sleep(0.01)
    assert set(threading.enumerate()) <= before


async def test_a_running_match_without_its_snapshot_is_inconsistent_data(db_path: Path) -> None:
    async with Database.open(db_path) as database:
        match_id = await start(database, 1, 2)
        with contextlib.closing(sqlite3.connect(db_path)) as by_hand, by_hand:
            by_hand.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
        with pytest.raises(DatabaseError) as listed:
            await database.tables.running_tables()
    assert isinstance(listed.value, InconsistentData)
    assert f"running match {match_id} has no snapshot" in str(listed.value)


async def test_a_file_system_without_shared_memory_is_refused_before_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # WAL needs shared memory, which some network shares lack; SQLite's unix-none VFS
    # has none either. This SQLite reads a "file:" name as a URI, which names that VFS.
    monkeypatch.chdir(tmp_path)  # Database.open makes the name's "folders" here
    before = set(threading.enumerate())
    with pytest.raises(DatabaseError) as opened:
        await Database.open(f"file:{tmp_path}/uno.db?vfs=unix-none")
    assert isinstance(opened.value, WalUnavailable)
    assert "would not put" in str(opened.value)
    assert "WAL journal mode (it answered 'delete')" in str(opened.value)
    for _ in range(100):
        if set(threading.enumerate()) <= before:
            break
        await asyncio.sleep(0.01)
    assert set(threading.enumerate()) <= before


# ---------------------------------------------------------------- the writer stopping


def cancel_tasks(name: str) -> int:
    """Cancel the event loop's tasks named `name`, as asyncio.run does to every task
    left when the bot's loop shuts down; return how many."""
    tasks = [task for task in asyncio.all_tasks() if task.get_name() == name]
    for task in tasks:
        task.cancel()
    return len(tasks)


async def test_actions_queued_when_the_writer_task_ends_raise_writer_stopped(
    db_path: Path,
) -> None:
    async with Database.open(db_path) as database:
        tables = await start_tables(database, 3)
        with write_lock_held(db_path):
            # Two batches in flight, both waiting for the lock; the third action queues.
            in_flight = []
            for m in tables[:2]:
                in_flight.append(asyncio.ensure_future(log_action(database, m, 1)))
                await asyncio.sleep(0.05)
            queued = asyncio.ensure_future(log_action(database, tables[2], 1))
            await asyncio.sleep(0.05)
            assert cancel_tasks("db-group-commit") == 1
            with pytest.raises(DatabaseError) as stopped:
                await queued
            assert isinstance(stopped.value, WriterStopped)
            assert isinstance(stopped.value, DatabaseClosed)
            assert "before this write was started: it was not written" in str(stopped.value)
            for started in in_flight:  # already with SQLite: they end on their own
                with pytest.raises(StorageError, match="database is locked"):
                    await started
        with pytest.raises(DatabaseClosed, match=r"writer has stopped .* nothing was written"):
            await log_action(database, tables[2], 1)
    async with Database.open(db_path) as database:
        for m in tables:
            assert await database.tables.actions(m) == []


async def test_an_action_whose_commit_is_cancelled_raises_writer_stopped(
    db_path: Path,
) -> None:
    async with Database.open(db_path) as database:
        tables = await start_tables(database, 2)
        with write_lock_held(db_path):
            cancelled = asyncio.ensure_future(log_action(database, tables[0], 1))
            await asyncio.sleep(0.05)  # its batch is now trying to commit
            assert cancel_tasks("db-group-commit-batch") == 1
            with pytest.raises(DatabaseError) as stopped:
                await cancelled
        assert isinstance(stopped.value, WriterStopped)
        assert "while committing this write: SQLite may still have committed it" in str(
            stopped.value
        )
        # Only that batch ended: the writer goes on.
        await log_action(database, tables[1], 1)
        assert [a.seq for a in await database.tables.actions(tables[1])] == [1]


# ---------------------------------------------------------------- the boundary


@pytest.mark.parametrize(
    "repo", [TableRepo, ScoreRepo, RatingRepo, FieldStore, SettingsRepo, PrefsRepo, Database]
)
def test_every_public_database_coroutine_wraps_sqlite_errors(repo: type) -> None:
    # transaction() and reading() hand out the connection itself, and
    # execute_atomic() and run_in_transaction() are the writer's: the repositories
    # wrap what they do with them (record_action tells a refused action by its
    # sqlite3.IntegrityError). stop() only awaits the writer task, whose errors go to
    # each action's caller.
    inner = {"transaction", "reading", "execute_atomic", "run_in_transaction", "stop"}
    unwrapped = [
        name
        for name, member in vars(repo).items()
        if inspect.iscoroutinefunction(member)
        and not name.startswith("_")
        and name not in inner
        and not hasattr(member, "__wrapped__")
    ]
    assert unwrapped == []
