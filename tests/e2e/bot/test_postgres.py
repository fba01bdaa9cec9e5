"""The real bot on PostgreSQL (DATABASE_URL, a real server: tests/postgres.py).

A table survives a kill -9 and resumes where its last answered action left it; a
process running some of the shards restores only their servers' tables, another
process the rest, and a process killed and started again takes back exactly its own;
a second process for shards already running waits until their process has stopped.
Two processes on the playground's two shards: a kill -9 of one pauses only its
servers' tables, which resume when it restarts; the other's play on meanwhile.
Each test starts bots of its own, so none uses the module's shared `uno_bot`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from db.database import Database
from db.shards import shard_of
from playground import Channel, Driver, Emulator, Guild, User
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.crafted import late_round, write_running_table
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, TableWatch, is_table_message, load_truth
from tests.postgres import PostgresServer


@pytest_asyncio.fixture(loop_scope="package")
async def database_url(postgres: PostgresServer) -> AsyncIterator[str]:
    """A fresh database of the test's own on the module's server."""
    url = await postgres.new_database()
    yield url
    await postgres.drop_database(url)


def on_postgres(url: str, **env: str) -> dict[str, str]:
    return {"DATABASE_URL": url, **env}


async def test_kill_9_mid_game_on_postgresql_then_restart_and_finish(
    database_url: str, emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory
) -> None:
    carol = emu.add_user("carol", guild=scene.guild)
    users = [scene.alice, scene.bob, carol]
    reached = late_round("pizza", [str(u.id) for u in users], target=150, near=30)
    async with Database.open(database_url) as db:
        await write_running_table(
            db, reached, guild_id=scene.guild.id, channel_id=scene.channel.id,
            names=[u.name for u in users],
        )  # fmt: skip
    env = on_postgres(database_url, SHARD_COUNT="1")
    bot = bots(extra_env=env)
    await bot.start()
    table = ScriptedTable(driver, scene.channel, users, seed=11)
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    await table.open_hands()
    for _ in range(5):  # five-card hands: nobody can have gone out yet
        if not await table.step():
            break
    before = await load_truth(database_url, scene.channel.id)
    assert before is not None, "the match ended before the kill"
    await bot.kill()

    again = bots(extra_env=env)
    await again.start()
    after = await load_truth(database_url, scene.channel.id)
    assert after is not None
    # Every action a player was told was accepted is there, and nothing else.
    assert after.match.version == before.match.version > 0
    assert json.dumps(after.match.to_snapshot()) == json.dumps(before.match.to_snapshot())
    async with TableWatch(table, database_url, driver) as watch:
        assert await watch.check(exact=True)
        while table.actions < 1500:
            if not await watch.check(exact=False) or not await table.step():
                break
    assert await load_truth(database_url, scene.channel.id) is None
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    assert table.failures() == []
    assert emu.log.failed == []


def table_messages(driver: Driver, user: User, channel: Channel) -> list[object]:
    return [m for m in driver.visible(user, channel) if is_table_message(m)]


def restored(bot: BotProcess, since: int = 0) -> str:
    """What the bot's start-up said it restored."""
    lines = [line for line in bot.output()[since:].splitlines() if "Restored " in line]
    assert len(lines) == 1, bot.output()[-4000:]
    return lines[0].split("Restored ", 1)[1].split(";")[0]


async def test_each_process_restores_only_its_shards_tables(
    database_url: str, emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory,
    tmp_path: Path,
) -> None:  # fmt: skip
    other = emu.add_guild("Second Club", shard=(1 - shard_of(scene.guild.id, 2), 2))
    there = emu.add_text_channel(other, "uno")
    dan, eve = emu.add_user("dan", guild=other), emu.add_user("eve", guild=other)
    tables = {scene.guild: (scene.channel, scene.alice, scene.bob), other: (there, dan, eve)}
    async with Database.open(database_url) as db:
        for guild, (channel, *seated) in tables.items():
            reached = late_round("pizza", [str(u.id) for u in seated], target=150, near=30)
            names = [u.name for u in seated]
            await write_running_table(
                db, reached, guild_id=guild.id, channel_id=channel.id, names=names
            )

    def process(guild: Guild, name: str) -> BotProcess:
        shard = str(shard_of(guild.id, 2))
        env = on_postgres(database_url, SHARD_COUNT="2", SHARD_IDS=shard)
        return bots(extra_env=env, log_path=tmp_path / f"{name}.log")

    first = process(scene.guild, "first")
    await first.start()
    assert restored(first) == "1 running tables and 0 rematch offers"
    await driver.wait_for(
        lambda: table_messages(driver, scene.alice, scene.channel), timeout=PATIENCE
    )
    second = process(other, "second")
    await second.start()
    assert restored(second) == "1 running tables and 0 rematch offers"
    await driver.wait_for(lambda: table_messages(driver, dan, there), timeout=PATIENCE)
    await driver.wait_idle(quiet=0.5)
    # Each server's table came back once, from its own shard's process.
    assert len(table_messages(driver, scene.alice, scene.channel)) == 1
    assert len(table_messages(driver, dan, there)) == 1

    # One process dies: the other runs on; started again, it takes back its table only.
    await first.kill()
    assert second.process is not None
    assert second.process.returncode is None
    again = process(scene.guild, "again")
    await again.start()
    assert restored(again) == "1 running tables and 0 rematch offers"
    truth = await load_truth(database_url, scene.channel.id)
    assert truth is not None
    await driver.wait_idle(quiet=0.5)
    assert len(table_messages(driver, dan, there)) == 1
    assert second.process.returncode is None
    assert emu.log.failed == []


async def test_a_second_process_for_running_shards_waits_until_they_are_free(
    database_url: str, emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory,
    tmp_path: Path,
) -> None:  # fmt: skip
    users = [scene.alice, scene.bob]
    reached = late_round("pizza", [str(u.id) for u in users], target=150, near=30)
    async with Database.open(database_url) as db:
        await write_running_table(
            db, reached, guild_id=scene.guild.id, channel_id=scene.channel.id,
            names=[u.name for u in users],
        )  # fmt: skip
    env = on_postgres(database_url, SHARD_COUNT="1")
    first = bots(extra_env=env, log_path=tmp_path / "first.log")
    await first.start()
    await driver.wait_for(
        lambda: table_messages(driver, scene.alice, scene.channel), timeout=PATIENCE
    )
    twin = bots(extra_env=env, log_path=tmp_path / "twin.log")
    starting = asyncio.create_task(twin.start(timeout=60))
    for _ in range(300):  # its log says so within 30 s
        if "Waiting for the shards to be free" in twin.output() or starting.done():
            break
        await asyncio.sleep(0.1)
    assert "another bot process on this database runs shard 0" in twin.output()
    assert "Restored" not in twin.output()  # the table stays with the first process
    assert not starting.done()
    assert await first.stop() == 0
    await starting
    assert restored(twin) == "1 running tables and 0 rematch offers"
    assert emu.log.failed == []


async def test_a_killed_process_pauses_only_its_own_tables(
    database_url: str, emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory,
    tmp_path: Path,
) -> None:  # fmt: skip
    mine = shard_of(scene.guild.id, 2)
    other = emu.add_guild("Second Club", shard=(1 - mine, 2))
    there = emu.add_text_channel(other, "uno")
    dan, eve = emu.add_user("dan", guild=other), emu.add_user("eve", guild=other)
    seated = {scene.channel: [scene.alice, scene.bob], there: [dan, eve]}
    async with Database.open(database_url) as db:
        for channel, users in seated.items():
            reached = late_round("pizza", [str(u.id) for u in users], target=150, near=30)
            await write_running_table(
                db, reached, guild_id=channel.guild.id, channel_id=channel.id,
                names=[u.name for u in users],
            )  # fmt: skip

    def process(shard: int, name: str) -> BotProcess:
        env = {"DATABASE_URL": database_url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard)}
        return bots(extra_env=env, log_path=tmp_path / f"{name}.log")

    first, second = process(mine, "first"), process(1 - mine, "second")
    await first.start()
    await second.start()
    here_table = ScriptedTable(driver, scene.channel, seated[scene.channel], seed=5)
    there_table = ScriptedTable(driver, there, seated[there], seed=6)
    for table in (here_table, there_table):
        await driver.wait_for(table.table_message, timeout=PATIENCE)
        await table.open_hands()
    # Two players of five cards each: four actions a table leave both rounds running.
    for _ in range(2):
        assert await here_table.step()
        assert await there_table.step()
    before = await load_truth(database_url, scene.channel.id)
    assert before is not None
    await first.kill()
    # The other process's table plays on while the first is down.
    for _ in range(2):
        assert await there_table.step()
    assert there_table.failures() == []
    again = process(mine, "again")
    await again.start()
    after = await load_truth(database_url, scene.channel.id)
    assert after is not None
    assert json.dumps(after.match.to_snapshot()) == json.dumps(before.match.to_snapshot())
    await here_table.open_hands()
    for _ in range(2):
        assert await here_table.step()
    assert here_table.failures() == []
    assert emu.log.failed == []
