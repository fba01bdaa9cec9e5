"""A process restores only what its shards' servers left: running tables, lobbies,
rematch offers and table messages, chosen in SQL with Discord's arithmetic, on
both engines; every row belongs to exactly one process."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from db.database import Database
from db.models import PlayerResult, RoundResult
from db.rematches import RematchRow
from db.shards import Shards, owned, shard_of
from tests.db.conftest import CHANNEL, start

# Servers spread over shards: small ids, real-looking snowflakes and the int64 edge,
# where an engine that shifted or divided another way would disagree with Discord.
GUILDS = (
    *(n << 22 for n in range(8)),
    41771983423143937,
    81384788765712384,
    1_150_000_000_000_000_001,
    2**63 - 1,
)


def process(db: Database, shards: Shards) -> Database:
    """The same store as a process running `shards` sees it (no writer: reads and offers)."""
    return Database(db.store, snapshot_every=5, shards=shards)


async def running_guilds(db: Database) -> list[int]:
    return sorted(t.match.guild_id for t in await db.tables.running_tables())


def test_shard_of_is_discords_rule() -> None:
    # Discord's documentation: shard_id = (guild_id >> 22) % num_shards.
    assert shard_of(41771983423143937, 2) == 0
    assert shard_of(81384788765712384, 4) == 2
    assert shard_of(2**63 - 1, 4) == 3
    assert shard_of(3 << 22, 4) == 3
    assert [shard_of(n << 22, 3) for n in range(6)] == [0, 1, 2, 0, 1, 2]
    # Only the snowflake's time bits count: the low 22 bits never move a server.
    assert shard_of((5 << 22) + (2**22 - 1), 4) == 1


def test_owns_follows_the_ids_out_of_the_count() -> None:
    shards = Shards.of(4, {1, 3})
    assert [shards.owns(n << 22) for n in range(4)] == [False, True, False, True]
    assert not shards.whole
    assert Shards.of(4).whole
    assert all(Shards.of(4).owns(guild) for guild in GUILDS)


def test_every_server_has_exactly_one_owner_whatever_the_split() -> None:
    processes = [Shards.of(5, {0, 1}), Shards.of(5, {2}), Shards.of(5, {3, 4})]
    for guild in GUILDS:
        assert sum(p.owns(guild) for p in processes) == 1


@pytest.mark.parametrize(
    ("count", "ids"),
    [(0, {0}), (4, set()), (4, {4}), (4, {-1}), (2, {0, 2})],
)
def test_shards_outside_the_count_are_refused(count: int, ids: set[int]) -> None:
    with pytest.raises(ValueError, match="shard"):
        Shards.of(count, ids)


def test_one_process_filters_nothing() -> None:
    assert owned(None, "guild_id") == ("1 = 1", ())
    assert Shards.of(3).where("guild_id") == ("1 = 1", ())
    assert Shards.of(4, {2, 0}).where("g") == ("((g >> 22) % ?) IN (?, ?)", (4, 0, 2))


async def test_running_tables_are_exactly_the_owned_ones(db: Database) -> None:
    for user, guild in enumerate(GUILDS, start=1):
        await start(db, 10 * user, 10 * user + 1, guild_id=guild)
    ended = await start(db, 998, 999, guild_id=1 << 22)
    await db.tables.abandon_match(ended)
    assert await running_guilds(db) == sorted(GUILDS)
    for table in await db.tables.running_tables():  # a stop left their old messages
        await db.table_messages.posted(
            match_id=table.match.match_id, channel_id=CHANNEL, message_id=table.match.match_id
        )
    splits = [
        [Shards.of(4, {0, 1}), Shards.of(4, {2, 3})],
        [Shards.of(4, {0}), Shards.of(4, {1, 2}), Shards.of(4, {3})],
        [Shards.of(2, {0}), Shards.of(2, {1})],  # a restart with fewer, larger shards
        [Shards.of(3, {0, 2}), Shards.of(3, {1})],
    ]
    for split in splits:
        seen: list[int] = []
        for shards in split:
            view = process(db, shards)
            mine = await running_guilds(view)
            assert mine == sorted(g for g in GUILDS if shards.owns(g)), shards
            replaced = await view.table_messages.of_replaced()
            assert sorted([await guild_of(db, r.match_id) for r in replaced]) == mine
            seen += mine
        assert sorted(seen) == sorted(GUILDS), split  # each table once, none left behind


async def test_lobbies_offers_and_table_messages_follow_their_servers(db: Database) -> None:
    shards = Shards.of(2, {1})
    for guild in GUILDS:
        lobby = await db.lobbies.open(guild_id=guild, channel_id=CHANNEL)
        await db.lobbies.set_message(lobby, guild % 1000 + 1)
        match = await start(db, 1, 2, guild_id=guild)
        await db.tables.abandon_match(match)
        await db.table_messages.posted(match_id=match, channel_id=CHANNEL, message_id=match)
        await db.rematches.offer(offer(match, guild), keep=100)
    await db.table_messages.posted(match_id=9999, channel_id=CHANNEL, message_id=9999)
    mine = sorted(g for g in GUILDS if shards.owns(g))
    view = process(db, shards)
    assert sorted(r.guild_id for r in await view.lobbies.left_open()) == mine
    assert sorted(r.guild_id for r in await view.rematches.open_offers()) == mine
    matches = {r.match_id for r in await view.table_messages.of_ended_matches()}
    assert sorted([await guild_of(db, m) for m in matches]) == mine
    # A message whose match is gone has no server: the process running shard 0 has it.
    other = process(db, Shards.of(2, {0}))
    assert 9999 in {r.match_id for r in await other.table_messages.of_ended_matches()}
    assert len(await db.table_messages.of_ended_matches()) == len(GUILDS) + 1


async def ended_matches(db: Database) -> dict[int, int]:
    """A one-action match played to its end in every server: match id -> guild id."""
    ended = {}
    for guild in GUILDS:
        match = await start(db, 1, 2, guild_id=guild)
        await db.tables.record_action(
            match, seq=1, player_id=1, action='{"type":"play"}', state=lambda: "{}",
            deadline=None, round_result=RoundResult(round_no=1, winner_id=1, points={2: 210}),
            results=[
                PlayerResult(user_id=1, score=0, place=1, outcome="won"),
                PlayerResult(user_id=2, score=210, place=2, outcome="lost"),
            ],
        )  # fmt: skip
        ended[match] = guild
    return ended


async def test_owed_match_endings_follow_their_servers(db: Database) -> None:
    ended = await ended_matches(db)
    assert sorted(await db.tables.owed_endings()) == sorted(ended)
    for shards in (Shards.of(3, {0}), Shards.of(3, {1, 2})):
        owed = await process(db, shards).tables.owed_endings()
        assert sorted(ended[m] for m in owed) == sorted(g for g in GUILDS if shards.owns(g))


async def test_each_process_drops_only_its_own_servers_old_moves(db: Database) -> None:
    ended = await ended_matches(db)
    shards = Shards.of(3, {1})
    later = datetime.now(UTC) + timedelta(days=1)
    assert await process(db, shards).history.drop_logs(ended_before=later) == sum(
        shards.owns(g) for g in GUILDS
    )
    for match, guild in ended.items():
        assert len(await db.tables.actions(match)) == (0 if shards.owns(guild) else 1)


async def guild_of(db: Database, match_id: int) -> int:
    return (await db.tables.get_match(match_id)).guild_id


async def test_each_process_keeps_its_own_newest_rematch_offers(db: Database) -> None:
    even, odd = process(db, Shards.of(2, {0})), process(db, Shards.of(2, {1}))
    for table_id in range(1, 7):
        guild = table_id << 22  # odd tables on shard 1, even ones on shard 0
        await (odd if table_id % 2 else even).rematches.offer(offer(table_id, guild), keep=2)
    assert [r.table_id for r in await even.rematches.open_offers()] == [4, 6]
    assert [r.table_id for r in await odd.rematches.open_offers()] == [3, 5]


def offer(table_id: int, guild_id: int) -> RematchRow:
    return RematchRow(
        table_id=table_id,
        guild_id=guild_id,
        channel_id=CHANNEL,
        host_id=1,
        variant="duo",
        options={"target": 200},
        seats=((1, "alice"), (2, "bob")),
    )
