"""Database.run_in_transaction: a whole write transaction on the writer's thread, real files."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, cast

import pytest

import db.sqlite_store
from db.database import Database
from db.errors import DatabaseClosed, is_busy
from db.models import PlayerResult
from db.skill import changes_of
from db.sqlite_tx import SqliteTx
from db.tx import Tx

from .conftest import GUILD, start

A, B = 1, 2


def count(path: Path, sql: str) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute(sql).fetchone()[0])


def raw(tx: Tx) -> sqlite3.Connection:
    """The sqlite3 connection the work runs on (whole on the writer's thread)."""
    return cast(SqliteTx, tx).conn


def doing(effect: Callable[[], object]) -> Callable[[Tx], Coroutine[Any, Any, object]]:
    async def work(tx: Tx) -> object:
        return effect()

    return work


def finish_by_hand(conn: sqlite3.Connection, match_id: int) -> None:
    """A match's end as the bot writes it: results, status, then the rating change."""
    conn.executemany(
        "INSERT INTO results (match_id, user_id, score, place, outcome) VALUES (?, ?, ?, ?, ?)",
        [(match_id, A, 0, 1, "won"), (match_id, B, 0, 2, "lost")],
    )
    conn.execute(
        "UPDATE matches SET status = 'finished', ended_at = 1 WHERE match_id = ?", (match_id,)
    )
    conn.executemany(
        "INSERT INTO rating_intake (match_id, user_id, guild_id, variant, mu_before,"
        " sigma_before, mu_after, sigma_after, matches, updated_at)"
        " VALUES (?, ?, ?, 'duo', ?, ?, ?, ?, ?, 1)",
        [
            (match_id, uid, GUILD, *change)
            for uid, *change in changes_of([(A, 1, "won", None), (B, 2, "lost", None)])
        ],
    )


async def test_an_exception_in_the_work_rolls_the_whole_finish_back(
    db: Database, db_path: Path
) -> None:
    mid = await start(db, A, B)
    seen: list[int] = []

    async def finish_then_fail(tx: Tx) -> None:
        conn = raw(tx)
        finish_by_hand(conn, mid)
        seen.append(conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0])
        raise RuntimeError("after the rating")

    with pytest.raises(RuntimeError, match="after the rating"):
        await db.run_in_transaction(finish_then_fail)
    assert seen == [2]  # the rating rows were written, inside the transaction
    # Rolled back, not left open: the next transaction on the connection starts, and
    # committing it brings none of the failed one's rows along.
    await db.run_in_transaction(doing(lambda: None))
    assert count(db_path, "SELECT COUNT(*) FROM results") == 0
    assert count(db_path, "SELECT COUNT(*) FROM ratings") == 0
    assert count(db_path, "SELECT COUNT(*) FROM rating_changes") == 0
    assert (await db.tables.get_match(mid)).status == "running"


async def test_the_work_runs_on_the_writers_thread_and_commits_before_returning(
    db: Database, db_path: Path
) -> None:
    mid = await start(db, A, B)

    async def finish(tx: Tx) -> int:
        conn = raw(tx)
        assert conn.in_transaction
        finish_by_hand(conn, mid)
        return threading.get_ident()

    thread = await db.run_in_transaction(finish)
    assert thread != threading.get_ident()  # not the event loop's
    # Another connection sees it all at once: committed when the call returned.
    assert count(db_path, "SELECT COUNT(*) FROM results") == 2
    assert count(db_path, "SELECT COUNT(*) FROM ratings") == 2
    assert (await db.tables.get_match(mid)).status == "finished"


async def test_a_failed_commit_leaves_the_write_connection_usable(db: Database) -> None:
    # A deferred foreign key fails at COMMIT, which leaves SQLite's transaction open.
    async def seat_at_no_match(tx: Tx) -> None:
        conn = raw(tx)
        conn.execute("PRAGMA defer_foreign_keys = ON")
        conn.execute(
            "INSERT INTO match_players (match_id, seat, user_id, display_name)"
            " VALUES (4242, 0, 1, 'orphan')"
        )

    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await db.run_in_transaction(seat_at_no_match)
    match_id = await start(db, A, B)
    assert [s.user_id for s in (await db.tables.get_match(match_id)).players] == [A, B]


async def test_a_file_locked_past_the_wait_runs_nothing_and_one_released_runs_it(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db.sqlite_store, "LOCK_WAIT_MS", 300)
    ran: list[str] = []
    async with Database.open(db_path) as database:
        other = sqlite3.connect(db_path, isolation_level=None, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(sqlite3.OperationalError) as locked:
                await database.run_in_transaction(doing(lambda: ran.append("late")))
            assert is_busy(locked.value)
            assert ran == []
            waiting = asyncio.ensure_future(
                database.run_in_transaction(doing(lambda: ran.append("in time")))
            )
            await asyncio.sleep(0.1)
            other.execute("ROLLBACK")
        finally:
            other.close()
        await waiting
    assert ran == ["in time"]


async def test_a_closed_database_runs_nothing(db_path: Path) -> None:
    database = await Database.open(db_path)
    await database.close()
    ran: list[int] = []
    with pytest.raises(DatabaseClosed):
        await database.run_in_transaction(doing(lambda: ran.append(1)))
    assert ran == []


async def first_action(
    db: Database, mid: int, player: int, results: list[PlayerResult] | None = None
) -> None:
    await db.tables.record_action(
        mid, seq=1, player_id=player, action={}, state="{}", deadline=None, results=results
    )


async def turns(n: int = 200) -> None:
    """Let the event loop run everything ready (no I/O is involved)."""
    for _ in range(n):
        await asyncio.sleep(0)


async def test_an_open_transaction_holds_the_work_back_until_it_ends(
    db: Database, db_path: Path
) -> None:
    """The work does not hold the write lock, but must still not run inside a
    `transaction()` left open across awaits (its BEGIN would fail there)."""
    mid = await start(db, A, B)
    async with db.transaction() as conn:
        await conn.execute("UPDATE matches SET message_id = 5 WHERE match_id = ?", (mid,))

        async def in_transaction(tx: Tx) -> bool:
            return raw(tx).in_transaction

        work = asyncio.ensure_future(db.run_in_transaction(in_transaction))
        await turns()
        assert not work.done()
    assert await work
    assert (await db.tables.get_match(mid)).message_id == 5


async def test_a_match_end_does_not_wait_behind_queued_action_batches(db: Database) -> None:
    """While SQLite's thread is busy and both of the group committer's batches are in
    flight, a third table's action waits for a slot; a match's end is not queued behind
    it but goes to the thread at once. The log's rowids show the order of the commits."""
    blocked, release = threading.Event(), threading.Event()
    mids = [await start(db, 10 * t + 1, 10 * t + 2) for t in range(4)]

    async def hold(tx: Tx) -> None:
        blocked.set()
        release.wait(10)

    held = asyncio.ensure_future(db.run_in_transaction(hold))
    try:
        await asyncio.to_thread(blocked.wait, 10)
        asked = []
        for t in range(3):  # one batch each: two in flight, the third waits for a slot
            asked.append(asyncio.ensure_future(first_action(db, mids[t], 10 * t + 1)))
            await turns()
        ending = asyncio.ensure_future(
            first_action(db, mids[3], 31, results=[
                PlayerResult(user_id=31, score=0, place=1, outcome="won"),
                PlayerResult(user_id=32, score=0, place=2, outcome="lost"),
            ])
        )  # fmt: skip
        await turns()
    finally:
        release.set()
    await asyncio.gather(held, *asked, ending)
    with sqlite3.connect(db.path) as conn:
        order = [mid for (mid,) in conn.execute("SELECT match_id FROM actions ORDER BY action_id")]
    assert order == [mids[0], mids[1], mids[3], mids[2]]
    assert (await db.tables.get_match(mids[3])).status == "finished"


async def test_the_work_never_lands_while_the_writers_checkpoint_reads_its_row(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer's checkpoint step is a statement whose row is read in a second trip:
    a transaction queued in between could not commit ("SQL statements in progress")."""
    monkeypatch.setattr(db.sqlite_store, "WAL_RESTART_FRAMES", -1)  # the writer's step every time
    async with Database.open(db_path, checkpoint_every_s=3600) as database:
        mid = await start(database, A, B)
        works = []
        for _ in range(20):
            checkpoint = asyncio.ensure_future(database.checkpoint())
            for _ in range(10):
                works.append(asyncio.ensure_future(database.tables.set_deadline(mid, None)))
                await asyncio.sleep(0)
            await checkpoint
        await asyncio.gather(*works)
