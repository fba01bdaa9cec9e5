"""Fixtures for the database tests: real SQLite files under tmp_path and a real
PostgreSQL server (tests/postgres.py), never mocks.

`db` is parametrised by `engine`: "sqlite" (transactions whole on SQLite's thread),
"sqlite-plain" (plain aiosqlite, DB_WHOLE_ON_THREAD=false) and, for the modules in
PORTABLE (what the repositories promise, whatever the engine), "postgresql". The
other modules test SQLite itself: its file, locks, pragmas and thread.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from db.database import Database
from db.models import Outcome, PlayerResult, RoundResult, Seat, Variant
from tests.postgres import PostgresServer

# Modules whose tests hold for every engine.
PORTABLE = {
    "test_scores",
    "test_scores_model",
    "test_ratings",
    "test_settings",
    "test_rematches",
    "test_tables",
    "test_portable",
    "test_shards",
    "test_history",
}
# Modules about the whole-on-thread path itself.
WHOLE_ON_THREAD_ONLY = {"test_run_in_transaction", "test_aiosqlite_thread"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "engine" not in metafunc.fixturenames:
        return
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    engines = ["sqlite"]
    if module not in WHOLE_ON_THREAD_ONLY:
        engines.append("sqlite-plain")
    # A test that opens the SQLite file itself (db_path) checks what the file holds.
    if module in PORTABLE and "db_path" not in inspect.signature(metafunc.function).parameters:
        engines.append("postgresql")
    metafunc.parametrize("engine", engines)


async def open_db(
    engine: str, path: Path, request: pytest.FixtureRequest, *, snapshot_every: int
) -> Database:
    if engine == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres")
        url = await server.new_database()
        return await Database.open(url, snapshot_every=snapshot_every)
    return await Database.open(
        path, whole_on_thread=engine == "sqlite", snapshot_every=snapshot_every
    )


GUILD = 1000
CHANNEL = 2000
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "uno.db"


@pytest.fixture
async def db(db_path: Path, engine: str, request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    database = await open_db(engine, db_path, request, snapshot_every=5)
    try:
        yield database
    finally:
        await database.close()


def seats(*user_ids: int) -> list[Seat]:
    return [Seat(user_id=uid, display_name=f"player{uid}") for uid in user_ids]


async def start(
    db: Database,
    *user_ids: int,
    variant: Variant = "duo",
    guild_id: int = GUILD,
    state: str = '{"seq":0}',
    practice: bool = False,
) -> int:
    return await db.tables.start_match(
        guild_id=guild_id,
        channel_id=CHANNEL,
        variant=variant,
        options={
            "target": {"duo": 200, "pizza": 250, "classic": 500}[variant],
            "host_id": user_ids[0],
        },
        seed=12345,
        players=seats(*user_ids),
        state=state,
        practice=practice,
    )


class Clock:
    """Hands out strictly increasing end times, so match order is explicit."""

    def __init__(self) -> None:
        self.n = 0

    def next(self) -> datetime:
        self.n += 1
        return EPOCH + timedelta(minutes=self.n)


async def play(
    db: Database,
    clock: Clock,
    *,
    players: Sequence[int],
    rounds: Sequence[tuple[int, dict[int, int]]],
    outcomes: dict[int, Outcome],
    variant: Variant = "duo",
    guild_id: int = GUILD,
    practice: bool = False,
) -> int:
    """Start, play `rounds` (winner, points) and finish a match; places follow outcome then score.

    Duo: lower total is better; Pizza: higher total is better.
    """
    mid = await start(db, *players, variant=variant, guild_id=guild_id, practice=practice)
    totals = dict.fromkeys(players, 0)
    for n, (winner, points) in enumerate(rounds, start=1):
        await db.tables.record_round(mid, RoundResult(round_no=n, winner_id=winner, points=points))
        for uid, p in points.items():
            totals[uid] += p
    sign = 1 if variant == "duo" else -1
    order = sorted(players, key=lambda u: (outcomes[u] != "won", sign * totals[u]))
    results = [
        PlayerResult(user_id=u, score=totals[u], place=i, outcome=outcomes[u])
        for i, u in enumerate(order, start=1)
    ]
    await db.tables.finish_match(mid, results, ended_at=clock.next())
    return mid


async def win(db: Database, clock: Clock, winner: int, loser: int, *, forfeit: bool = False) -> int:
    """A one-round Duo match `winner` wins (the loser concedes 200, or forfeits with 0)."""
    rounds: list[tuple[int, dict[int, int]]] = [] if forfeit else [(winner, {loser: 200})]
    return await play(
        db,
        clock,
        players=[winner, loser],
        rounds=rounds,
        outcomes={winner: "won", loser: "forfeit" if forfeit else "lost"},
    )
