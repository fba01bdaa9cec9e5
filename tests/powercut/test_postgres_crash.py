"""PostgreSQL commits durably: synchronous_commit is on, and a server that dies
mid-run (every process at once, nothing flushed) loses no acknowledged action."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from db.database import Database
from db.postgres_store import PostgresStore
from tests.postgres import PostgresServer
from tests.powercut.child import note_ack, read_acks

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server() -> Iterator[PostgresServer]:
    """A server of this test's own: it is crashed."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


async def test_postgres_commits_with_synchronous_commit_on(server: PostgresServer) -> None:
    async with Database.open(await server.new_database()) as db:
        assert isinstance(db.store, PostgresStore)
        async with db.store.reading() as tx:
            row = await tx.fetchone("SHOW synchronous_commit")
        assert row is not None
        assert row[0] == "on"


def run_until_crash(server: PostgresServer, url: str, acks: int) -> dict[int, int]:
    """Run the child until it acknowledged `acks` actions, then crash the server under
    it; return each match's last acknowledged seq."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.powercut.child", url, "FULL"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # its traceback when the server goes
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    assert child.stdout is not None
    acked: dict[int, int] = {}
    try:
        read_acks(child, acked, acks)
        server.crash()
        # Whatever it printed until it met the dead server was acknowledged too.
        for line in child.stdout.read().splitlines():
            note_ack(acked, line)
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
    return acked


async def test_postgres_server_crash_loses_no_acknowledged_action(server: PostgresServer) -> None:
    url = await server.new_database()
    acked = run_until_crash(server, url, 600)
    assert len(acked) == 8
    server.start_again()
    async with Database.open(url) as db:
        for mid, last in acked.items():
            logged = [a.seq for a in await db.tables.actions(mid)]
            assert logged == list(range(1, len(logged) + 1))
            assert len(logged) >= last, f"match {mid}: {last} acknowledged, {len(logged)} kept"
