"""On PostgreSQL each shard runs in one bot process at a time, and every process with
the same SHARD_COUNT: a second claim is refused in words, or waits for the first to
let go (a real server, tests/postgres.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from db.database import Database
from db.errors import ShardsTaken
from db.shards import Shards
from tests.postgres import PostgresServer


async def claimed(url: str, shards: Shards | None, wait_s: float = 0.0) -> Database:
    db = await Database.open(url, shards=shards)
    try:
        await db.claim_shards(wait_s=wait_s)
    except BaseException:
        await db.close()
        raise
    return db


async def refusal(url: str, shards: Shards | None) -> str:
    with pytest.raises(ShardsTaken) as refused:
        await claimed(url, shards)
    return str(refused.value)


async def test_processes_with_other_shards_run_side_by_side(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    first = await claimed(url, Shards.of(4, {0, 1}))
    second = await claimed(url, Shards.of(4, {2, 3}))
    await first.close()
    await second.close()


async def test_a_shard_already_running_is_refused_until_its_process_closes(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_database()
    first = await claimed(url, Shards.of(4, {0, 1}))
    assert await refusal(url, Shards.of(4, {1, 2})) == (
        "another bot process on this database runs shard 1: stop it, or give this one "
        "other SHARD_IDS"
    )
    assert "runs shards 0, 1:" in await refusal(url, Shards.of(4))
    await first.close()
    again = await claimed(url, Shards.of(4, {1, 2}))  # freed with the connection
    await again.close()


async def test_another_shard_count_is_refused_both_ways(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    first = await claimed(url, Shards.of(4, {0}))
    assert await refusal(url, Shards.of(2, {1})) == (
        "another bot process runs on this database with SHARD_COUNT=4, and this one has "
        "SHARD_COUNT=2: stop every process before changing SHARD_COUNT, then start them "
        "all with the new one"
    )
    assert "with SHARD_COUNT=4, and this one has SHARD_COUNT unset" in await refusal(url, None)
    await first.close()
    whole = await claimed(url, None)  # one process, Discord's count
    assert "with SHARD_COUNT unset, and this one has SHARD_COUNT=4" in await refusal(
        url, Shards.of(4, {3})
    )
    assert "runs shard 0:" in await refusal(url, None)  # the same bot started twice
    await whole.close()


async def test_a_claim_waits_for_a_process_that_lets_go(postgres: PostgresServer) -> None:
    url = await postgres.new_database()
    first = await claimed(url, Shards.of(2, {0}))
    waiting = asyncio.create_task(claimed(url, Shards.of(2, {0}), wait_s=30))
    await both_processes_at_the_count(url)  # the second one is in, waiting for shard 0
    assert not waiting.done()
    await first.close()
    second = await asyncio.wait_for(waiting, timeout=30)
    await second.close()


async def both_processes_at_the_count(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        for _ in range(400):  # 20 s at most
            held = await conn.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                " AND mode = 'ShareLock' AND database ="
                " (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
            if held == 2:
                return
            await asyncio.sleep(0.05)
    finally:
        await conn.close()
    raise AssertionError("the second claim never started")


async def test_other_databases_on_the_server_are_other_bots(postgres: PostgresServer) -> None:
    one, other = await postgres.new_database(), await postgres.new_database()
    first = await claimed(one, Shards.of(2, {0}))
    second = await claimed(other, Shards.of(3, {0}))
    await first.close()
    await second.close()


async def test_a_sqlite_file_claims_nothing(tmp_path: Path) -> None:
    async with Database.open(tmp_path / "uno.db") as db:
        await db.claim_shards()
        async with Database.open(tmp_path / "uno.db") as again:
            await again.claim_shards()


async def test_a_refused_claim_leaves_no_lock_on_the_pooled_connection(
    postgres: PostgresServer,
) -> None:
    # The pool sends nothing when a connection comes back: the claim unlocks its own.
    url = await postgres.new_database()
    first = await claimed(url, Shards.of(2, {0}))
    second = await Database.open(url, shards=Shards.of(2, {0, 1}))
    try:
        with pytest.raises(ShardsTaken):
            await second.claim_shards(wait_s=0)
        await first.close()
        conn = await asyncpg.connect(url)
        try:
            held = await conn.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")
        finally:
            await conn.close()
        assert held == 0
        await second.claim_shards(wait_s=0)  # and the same process may claim again
    finally:
        await second.close()
