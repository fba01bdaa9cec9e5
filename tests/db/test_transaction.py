"""Database.transaction(): a write transaction across awaits, cancelled at any step."""

from __future__ import annotations

import asyncio
from pathlib import Path

from db.database import Database


async def insert_one(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO t VALUES (1)")
        await conn.execute("INSERT INTO t VALUES (2)")


async def test_a_transaction_cancelled_at_any_step_raises_the_cancel_and_leaves_no_half(
    tmp_path: Path,
) -> None:
    """Each statement runs on SQLite's thread even after its caller is cancelled: a
    BEGIN or COMMIT still to come once broke every later transaction ("cannot start a
    transaction within a transaction") or answered a cancel with "cannot rollback"."""
    async with Database.open(tmp_path / "cancel.db") as db:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE t (x INTEGER)")
        outcomes: list[str] = []
        for steps in range(60):  # a cancel at every await the transaction passes
            task = asyncio.create_task(insert_one(db))
            for _ in range(steps):
                await asyncio.sleep(0)
            task.cancel()
            try:
                await task
                outcomes.append("done")
            except asyncio.CancelledError:
                outcomes.append("cancelled")
        assert set(outcomes) <= {"done", "cancelled"}
        assert "cancelled" in outcomes
        await insert_one(db)  # the connection is not left inside a transaction
        async with db.reading() as reader:
            rows = [row[0] for row in await reader.fetchall("SELECT x FROM t")]
        assert rows.count(1) == rows.count(2)  # never half of one
        assert rows.count(1) >= outcomes.count("done") + 1
