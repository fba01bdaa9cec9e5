"""Match lifecycle, the action log, snapshots and rebuilding running tables."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from db.database import Database
from db.errors import (
    ActionRejected,
    DatabaseClosed,
    InvalidResults,
    MatchNotRunning,
    UnknownMatch,
)
from db.models import PlayerResult, RoundResult

from .conftest import CHANNEL, GUILD, seats, start

DEADLINE = datetime(2026, 3, 1, 12, 0, 30, tzinfo=UTC)


async def act(db: Database, mid: int, seq: int, **extra: object) -> None:
    """Record the action number `seq`; the state after it is {"seq": seq}."""
    kwargs: dict[str, object] = {"player_id": 1, "deadline": None, **extra}
    await db.tables.record_action(
        mid,
        seq=seq,
        action={"n": seq},
        state=json.dumps({"seq": seq}),
        **kwargs,  # type: ignore[arg-type]
    )


def rebuild(table_snapshot: str, actions: list[str]) -> int:
    """A stand-in engine: the state is the number of the last action applied."""
    state = int(json.loads(table_snapshot)["seq"])
    for action in actions:
        n = int(json.loads(action)["n"])
        assert n == state + 1, "replay must see every action once, in order"
        state = n
    return state


async def test_start_match_stores_everything(db: Database) -> None:
    started = datetime(2026, 3, 1, 12, tzinfo=UTC)
    mid = await db.tables.start_match(
        guild_id=2**62 + 1,
        channel_id=2**63 - 1,
        variant="pizza",
        options={"target": 300, "house": ["x"]},
        seed=-(2**63),
        players=seats(30, 10, 20),
        state='{"seq":0}',
        message_id=2**60,
        deadline=DEADLINE,
        started_at=started,
    )
    match = await db.tables.get_match(mid)
    assert (match.guild_id, match.channel_id, match.seed) == (2**62 + 1, 2**63 - 1, -(2**63))
    assert [s.user_id for s in match.players] == [30, 10, 20]  # seat order, not id order
    assert match.options == {"target": 300, "house": ["x"]}
    assert (match.status, match.started_at, match.ended_at) == ("running", started, None)
    assert (match.message_id, match.turn_deadline) == (2**60, DEADLINE)


async def test_start_match_refuses_bad_seating(db: Database) -> None:
    with pytest.raises(ValueError, match="duo needs 2-2"):
        await start(db, 1, 2, 3)
    with pytest.raises(ValueError, match="pizza needs 2-5"):
        await start(db, 1, 2, 3, 4, 5, 6, variant="pizza")
    with pytest.raises(ValueError, match="two seats"):
        await start(db, 1, 1)
    with pytest.raises(ValueError, match="Expecting"):
        await start(db, 1, 2, state="{not json")
    with pytest.raises(ValueError, match="64-bit"):
        await db.tables.start_match(
            guild_id=1, channel_id=1, variant="duo", options={}, seed=2**64 - 1,
            players=seats(1, 2), state="{}",
        )  # fmt: skip


async def test_running_tables_give_latest_snapshot_and_actions_after_it(db: Database) -> None:
    mid = await start(db, 1, 2)
    calls: list[int] = []

    def lazy_state(seq: int) -> object:
        def build() -> str:
            calls.append(seq)
            return json.dumps({"seq": seq})

        return build

    for seq in range(1, 13):
        await db.tables.record_action(
            mid,
            seq=seq,
            player_id=1 + seq % 2,
            action={"n": seq},
            state=lazy_state(seq),  # type: ignore[arg-type]
            deadline=DEADLINE + timedelta(seconds=seq),
            round_start=seq == 7,
        )
    # snapshot_every=5 plus the round start: only these states were ever built.
    assert calls == [5, 7, 10]
    await db.tables.set_table_message(mid, 555)
    [table] = await db.tables.running_tables()
    assert table.match.match_id == mid
    assert table.snapshot_seq == 10
    assert [a.seq for a in table.actions] == [11, 12]
    assert [a.player_id for a in table.actions] == [2, 1]
    assert table.last_seq == 12
    assert rebuild(table.snapshot_json, [a.action_json for a in table.actions]) == 12
    assert table.match.turn_deadline == DEADLINE + timedelta(seconds=12)
    assert table.match.message_id == 555
    assert table.match.channel_id == CHANNEL


async def test_a_new_table_rebuilds_from_its_start_state(db: Database) -> None:
    mid = await start(db, 1, 2)
    await act(db, mid, 1)
    [table] = await db.tables.running_tables()
    assert (table.snapshot_seq, table.snapshot_json) == (0, '{"seq":0}')
    assert rebuild(table.snapshot_json, [a.action_json for a in table.actions]) == 1


async def test_running_tables_survive_a_reopen_and_skip_ended_matches(db_path: Path) -> None:
    async with Database.open(db_path, snapshot_every=4) as db:
        running = await start(db, 1, 2)
        finished = await start(db, 3, 4)
        abandoned = await start(db, 5, 6)
        for seq in range(1, 7):
            await act(db, running, seq)
            await act(db, abandoned, seq, player_id=5)
        await act(
            db, finished, 1, player_id=3,
            round_result=RoundResult(round_no=1, winner_id=3, points={4: 210}),
            results=[
                PlayerResult(user_id=3, score=0, place=1, outcome="won"),
                PlayerResult(user_id=4, score=210, place=2, outcome="lost"),
            ],
        )  # fmt: skip
        await db.tables.abandon_match(abandoned)
    async with Database.open(db_path, snapshot_every=4) as db:
        tables = await db.tables.running_tables()
        assert [t.match.match_id for t in tables] == [running]
        assert (tables[0].snapshot_seq, [a.seq for a in tables[0].actions]) == (4, [5, 6])
        assert (await db.tables.get_match(finished)).status == "finished"
        assert (await db.tables.get_match(abandoned)).status == "abandoned"
        # Ended matches keep their whole log for replays (X4).
        assert [a.seq for a in await db.tables.actions(abandoned)] == [1, 2, 3, 4, 5, 6]


async def test_one_running_table_reads_as_in_the_list_of_all(db: Database) -> None:
    # What a table reloads from after a failed write, without reading every other one.
    running = [await start(db, 2 * i + 1, 2 * i + 2) for i in range(3)]
    for seq in range(1, 8):
        await act(db, running[1], seq, player_id=3)
    ended = await start(db, 7, 8)
    await db.tables.abandon_match(ended)
    every = {t.match.match_id: t for t in await db.tables.running_tables()}
    for mid in running:
        assert await db.tables.running_table(mid) == every[mid]
    assert (every[running[1]].snapshot_seq, len(every[running[1]].actions)) == (5, 2)
    assert await db.tables.running_table(ended) is None
    assert await db.tables.running_table(999) is None


async def test_action_seq_must_follow_the_last_one(db: Database) -> None:
    mid = await start(db, 1, 2)
    with pytest.raises(ActionRejected, match="out of order"):
        await act(db, mid, 2)
    await act(db, mid, 1)
    with pytest.raises(ActionRejected, match="out of order"):
        await act(db, mid, 1)  # a double click must not be logged twice
    with pytest.raises(ActionRejected, match="out of order"):
        await act(db, mid, 3)
    await act(db, mid, 2)
    assert [a.seq for a in await db.tables.actions(mid)] == [1, 2]


async def test_actions_of_ended_or_unknown_matches_are_refused(db: Database) -> None:
    mid = await start(db, 1, 2)
    await db.tables.abandon_match(mid)
    with pytest.raises(ActionRejected, match="not running"):
        await act(db, mid, 1)
    with pytest.raises(ActionRejected, match="not running"):
        await act(db, 999, 1)
    with pytest.raises(UnknownMatch):
        await db.tables.get_match(999)


async def test_action_by_a_non_player_is_refused(db: Database) -> None:
    mid = await start(db, 1, 2)
    with pytest.raises(ActionRejected, match=r"(?i)FOREIGN KEY"):
        await act(db, mid, 1, player_id=3)
    await act(db, mid, 1, player_id=None)  # the bot's own actions (a timeout) have no player


async def test_invalid_json_is_refused(db: Database) -> None:
    mid = await start(db, 1, 2)
    with pytest.raises(ActionRejected, match=r"CHECK|invalid input syntax for type json"):
        await db.tables.record_action(
            mid, seq=1, player_id=1, action="{not json", state="{}", deadline=None
        )


async def test_one_bad_action_in_a_batch_fails_alone(db: Database) -> None:
    mids = [await start(db, 1, 2) for _ in range(20)]
    outcomes = await asyncio.gather(
        *(act(db, mid, 1) for mid in mids),
        act(db, mids[0], 5),  # out of order, committed in the same batch as the rest
        return_exceptions=True,
    )
    assert outcomes[:20] == [None] * 20
    assert isinstance(outcomes[20], ActionRejected)
    for mid in mids:
        assert [a.seq for a in await db.tables.actions(mid)] == [1]


async def test_200_tables_writing_at_once_lose_and_duplicate_nothing(db_path: Path) -> None:
    async with Database.open(db_path, snapshot_every=10) as db:
        players = {await start(db, 2 * i + 1, 2 * i + 2): 2 * i + 1 for i in range(200)}
        mids = list(players)
        count = 40

        async def table(mid: int) -> None:
            for seq in range(1, count + 1):
                await act(db, mid, seq, player_id=players[mid])

        await asyncio.gather(*(table(mid) for mid in mids))
        actions, commits = db.tables.group_commits
        assert actions == 200 * count
        assert commits < actions / 10  # they really were written concurrently, in groups
        tables = {t.match.match_id: t for t in await db.tables.running_tables()}
        assert set(tables) == set(mids)
        assert {(t.snapshot_seq, len(t.actions)) for t in tables.values()} == {(40, 0)}
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT match_id, seq FROM actions ORDER BY match_id, seq").fetchall()
    by_match: dict[int, list[int]] = {}
    for mid, seq in rows:
        by_match.setdefault(mid, []).append(seq)
    assert len(rows) == 200 * count
    assert all(seqs == list(range(1, count + 1)) for seqs in by_match.values())


async def test_round_and_match_end_are_stored_with_their_action(db: Database) -> None:
    mid = await start(db, 1, 2)
    await act(db, mid, 1, round_result=RoundResult(round_no=1, winner_id=1, points={2: 120}))
    await act(db, mid, 2, round_start=True)
    [table] = await db.tables.running_tables()
    assert table.snapshot_seq == 2
    with pytest.raises(InvalidResults, match="round 3 recorded, 2 due"):
        await act(db, mid, 3, round_result=RoundResult(round_no=3, winner_id=2, points={1: 9}))
    # The failed action was not logged either: one transaction.
    assert [a.seq for a in await db.tables.actions(mid)] == [1, 2]
    await act(
        db, mid, 3,
        round_result=RoundResult(round_no=2, winner_id=2, points={1: 5}),
        results=[
            PlayerResult(user_id=1, score=5, place=1, outcome="won"),
            PlayerResult(user_id=2, score=120, place=2, outcome="lost"),
        ],
    )  # fmt: skip
    match = await db.tables.get_match(mid)
    assert match.status == "finished"
    assert match.ended_at is not None
    assert match.turn_deadline is None
    assert await db.tables.running_tables() == []
    with pytest.raises(ActionRejected, match="not running"):
        await act(db, mid, 4)


async def test_finish_checks_results(db: Database) -> None:
    mid = await start(db, 1, 2)
    await db.tables.record_round(mid, RoundResult(round_no=1, winner_id=1, points={2: 50}))

    def result(uid: int, score: int, place: int, outcome: str) -> PlayerResult:
        return PlayerResult.model_validate(
            {"user_id": uid, "score": score, "place": place, "outcome": outcome}
        )

    cases = {
        "each player once": [result(1, 0, 1, "won")],
        "one winner": [result(1, 0, 1, "won"), result(2, 50, 1, "won")],
        "differ from their recorded round points": [
            result(1, 0, 1, "won"),
            result(2, 40, 2, "lost"),
        ],
        "beyond": [result(1, 0, 1, "won"), result(2, 50, 3, "lost")],
    }
    for message, results in cases.items():
        with pytest.raises(InvalidResults, match=message):
            await db.tables.finish_match(mid, results)
    assert (await db.tables.get_match(mid)).status == "running"
    with pytest.raises(InvalidResults, match="non-players"):
        await db.tables.record_round(mid, RoundResult(round_no=2, winner_id=9, points={}))
    await db.tables.finish_match(mid, [result(1, 0, 1, "won"), result(2, 50, 2, "lost")])
    with pytest.raises(MatchNotRunning, match="finished, not running"):
        await db.tables.abandon_match(mid)
    with pytest.raises(MatchNotRunning):
        await db.tables.set_deadline(mid, DEADLINE)
    with pytest.raises(UnknownMatch):
        await db.tables.set_table_message(999, 1)
    await db.tables.set_table_message(mid, 77)  # a last re-post may race the finish
    assert (await db.tables.get_match(mid)).message_id == 77


async def test_record_action_returns_after_commit(db: Database, db_path: Path) -> None:
    mid = await start(db, 1, 2)
    await act(db, mid, 1)
    # A separate connection (another process, in effect) sees it at once.
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT seq FROM actions WHERE match_id = ?", (mid,)).fetchall() == [
            (1,)
        ]


async def test_guild_id_is_kept(db: Database) -> None:
    mid = await start(db, 1, 2, guild_id=GUILD + 1)
    assert (await db.tables.get_match(mid)).guild_id == GUILD + 1


async def test_acknowledged_actions_survive_other_transactions_rolling_back(db: Database) -> None:
    """Batches run while other writers open and roll back transactions: none is lost."""
    players = {await start(db, 2 * i + 1, 2 * i + 2): 2 * i + 1 for i in range(50)}
    victim = await start(db, 1001, 1002)
    bad = [PlayerResult(user_id=1001, score=5, place=1, outcome="won")]  # names one player

    async def table(mid: int) -> None:
        for seq in range(1, 31):
            await act(db, mid, seq, player_id=players[mid])

    async def failing_finishes() -> int:
        failures = 0
        for _ in range(150):
            try:
                await db.tables.finish_match(victim, bad)
            except InvalidResults:
                failures += 1
            await db.tables.set_deadline(victim, DEADLINE)
        return failures

    *_, failures = await asyncio.gather(*(table(mid) for mid in players), failing_finishes())
    assert failures == 150
    for mid in players:
        assert [a.seq for a in await db.tables.actions(mid)] == list(range(1, 31))


async def test_open_await_close_then_writes_are_refused(db_path: Path) -> None:
    db = await Database.open(db_path)
    mid = await start(db, 1, 2)
    pending = asyncio.gather(*(act(db, mid, seq) for seq in (1, 2, 3)))
    await asyncio.sleep(0)
    await db.close()  # queued actions are committed first
    await pending
    # A DatabaseError like every other failure of `db`, not sqlite3's or aiosqlite's.
    with pytest.raises(DatabaseClosed, match="the database is closed: write refused"):
        await act(db, mid, 4)
    with pytest.raises(DatabaseClosed, match="is closed: nothing was read or written"):
        await start(db, 3, 4)
    with pytest.raises(DatabaseClosed, match="is closed: nothing was read or written"):
        await db.tables.running_tables()
    await db.close()  # twice: nothing to do
    async with Database.open(db_path) as again:
        assert [a.seq for a in await again.tables.actions(mid)] == [1, 2, 3]


async def test_a_match_end_writes_through_views_the_file_does_not_hold(
    db: Database, db_path: Path
) -> None:
    """The round and match-end intakes are TEMP views of the write connection: the
    file's schema is the migrations' alone, and another program finds nothing new."""
    mid = await start(db, 1, 2)
    await act(
        db, mid, 1,
        round_result=RoundResult(round_no=1, winner_id=1, points={2: 30}),
        results=[
            PlayerResult(user_id=1, score=0, place=1, outcome="won"),
            PlayerResult(user_id=2, score=30, place=2, outcome="lost"),
        ],
    )  # fmt: skip
    with sqlite3.connect(db_path) as conn:
        names = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
        assert conn.execute("SELECT COUNT(*) FROM round_scores").fetchone() == (2,)
        assert conn.execute("SELECT COUNT(*) FROM rating_changes").fetchone() == (2,)
    assert "action_intake" in names
    assert not names & {"round_intake", "end_intake"}
