"""A bot stopped right after it started, before discord.py's ready event (it waits 2 s
after connecting for the servers), shuts down cleanly: exit status 0, no traceback in
its log, and the running table it restored is still in the database for the next start.

These tests start bots of their own, so they live apart from the shared bot's modules.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from db.database import Database
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.conftest import Scene
from tests.e2e.crafted import late_round, write_running_table
from tests.e2e.uno_table import load_truth


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
async def test_a_bot_stopped_before_it_is_ready_shuts_down_cleanly(
    scene: Scene, bots: BotFactory, database: Path, how: signal.Signals
) -> None:
    players = [str(scene.alice.id), str(scene.bob.id)]
    reached = late_round("duo", players, target=200, near=200)
    async with Database.open(database) as db:
        await write_running_table(
            db, reached, guild_id=scene.guild.id, channel_id=scene.channel.id, names=players
        )
    before = await load_truth(database, scene.channel.id)
    assert before is not None
    bot = bots()
    await bot.start()  # connected, commands synced: the ready event is still 2 s away
    assert await bot.stop(how) == 0
    logged = bot.output()
    assert "Restored 1 running tables" in logged  # it did start, with the table
    assert "Ready as" not in logged  # stopped before the ready event, as meant
    assert "Traceback" not in logged, logged[-4000:]
    assert "Task exception" not in logged, logged[-4000:]
    after = await load_truth(database, scene.channel.id)
    assert after is not None  # nothing lost: the table waits for the next start
    assert after.match.public_view() == before.match.public_view()
