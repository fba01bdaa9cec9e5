"""What a restart needs besides the action log: draft keepers and ends still to show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from db.database import Database
from db.errors import ActionRejected
from db.models import PlayerResult, RoundResult

from .conftest import seats, start


async def act(db: Database, mid: int, seq: int, player: int = 1, **extra: object) -> None:
    await db.tables.record_action(
        mid,
        seq=seq,
        player_id=player,
        action={"n": seq},
        state=json.dumps({"seq": seq}),
        deadline=None,
        **extra,  # type: ignore[arg-type]
    )


async def test_a_keep_the_rest_press_is_stored_with_its_action(db_path: Path) -> None:
    async with Database.open(db_path, snapshot_every=2) as db:
        mid = await start(db, 1, 2)
        await act(db, mid, 1, player=1, keeper_round=1)
        for seq in range(2, 6):  # a snapshot past the press: the keeper is still known
            await act(db, mid, seq, player=2 - seq % 2)
    async with Database.open(db_path) as db:
        [table] = await db.tables.running_tables()
        assert table.snapshot_seq == 4
        assert table.keepers == {1: 1}
        await act(db, mid, 6, player=1, keeper_round=2)  # the next round's draft
        await act(db, mid, 7, player=2, keeper_round=2)
        running = await db.tables.running_table(mid)
        assert running is not None
        assert running.keepers == {1: 2, 2: 2}


async def test_a_keeper_is_not_stored_without_its_action(db: Database) -> None:
    mid = await start(db, 1, 2)
    await act(db, mid, 1)
    with pytest.raises(ActionRejected):
        await act(db, mid, 3, keeper_round=1)  # out of order: neither is written
    [table] = await db.tables.running_tables()
    assert table.keepers == {}
    assert [a.seq for a in table.actions] == [1]


async def test_a_match_end_is_owed_until_shown(db_path: Path) -> None:
    async with Database.open(db_path) as db:
        ends, runs = await start(db, 1, 2), await start(db, 3, 4)
        await act(db, runs, 1, player=3)
        await act(
            db, ends, 1,
            round_result=RoundResult(round_no=1, winner_id=1, points={2: 210}),
            results=[
                PlayerResult(user_id=1, score=0, place=1, outcome="won"),
                PlayerResult(user_id=2, score=210, place=2, outcome="lost"),
            ],
        )  # fmt: skip
        await db.tables.abandon_match(runs)  # closed early: nothing to show after a restart
    async with Database.open(db_path) as db:  # a restart
        assert await db.tables.owed_endings() == [ends]
        await db.tables.ending_shown(ends)
        assert await db.tables.owed_endings() == []


async def test_forgetting_a_member_reaches_their_keeper_rows(db: Database) -> None:
    mid = await db.tables.start_match(
        guild_id=1000, channel_id=2000, variant="duo", options={}, seed=1,
        players=seats(1, 2), state='{"seq":0}',
    )  # fmt: skip
    await act(db, mid, 1, player=1, keeper_round=1)
    await db.tables.abandon_match(mid)
    assert await db.scores.forget_member(1) == 1
    async with db.reading() as conn:
        [(user,)] = await conn.fetchall("SELECT user_id FROM draft_keepers")
    assert user < 0  # the placeholder id of a forgotten member
