"""Rematch offers: stored once per match, accepted by the set, kept over a reopen,
and only the newest ones kept."""

from __future__ import annotations

from pathlib import Path

from db.database import Database
from db.rematches import RematchRow
from tests.db.conftest import CHANNEL, GUILD


def row(table_id: int, *, accepted: frozenset[int] = frozenset()) -> RematchRow:
    return RematchRow(
        table_id=table_id,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=11,
        variant="pizza",
        options={"target": 250, "turn_seconds": 30, "computers": {"1": "hard"}},
        seats=((11, "alice"), (1, "Computer (hard)"), (22, "bob")),
        accepted=accepted,
    )


async def test_an_offer_and_its_acceptances_outlive_a_reopen(db_path: Path) -> None:
    async with Database.open(db_path) as db:
        await db.rematches.offer(row(7), keep=10)
        await db.rematches.accept(7, {22})
        # Stored once per match: showing the finished table again changes nothing.
        await db.rematches.offer(row(7), keep=10)
    async with Database.open(db_path) as db:
        assert await db.rematches.open_offers() == [row(7, accepted=frozenset({22}))]


async def test_a_withdrawn_offer_is_gone(db: Database) -> None:
    await db.rematches.offer(row(3), keep=10)
    await db.rematches.offer(row(4), keep=10)
    await db.rematches.withdraw(3)
    assert [r.table_id for r in await db.rematches.open_offers()] == [4]


async def test_only_the_newest_offers_are_kept(db: Database) -> None:
    for table_id in (5, 1, 9, 3):
        await db.rematches.offer(row(table_id), keep=2)
    assert [r.table_id for r in await db.rematches.open_offers()] == [5, 9]


async def test_forgetting_a_member_drops_the_offers_that_name_them(db: Database) -> None:
    await db.rematches.offer(row(1), keep=10)
    await db.rematches.offer(row(2).model_copy(update={"seats": ((11, "a"), (33, "c"))}), keep=10)
    await db.rematches.offer(row(3).model_copy(update={"guild_id": GUILD + 1}), keep=10)
    await db.scores.forget_member(22, guild_id=GUILD)
    assert [r.table_id for r in await db.rematches.open_offers()] == [2, 3]
    await db.scores.forget_member(22)
    assert [r.table_id for r in await db.rematches.open_offers()] == [2]
