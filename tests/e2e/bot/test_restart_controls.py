"""Controls a restart left behind lose their buttons; a click on one says the game ended.

These tests start and stop bots of their own, so they live apart from the module
that runs the shared bot (tests/e2e/bot/conftest.py).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from playground import Driver, Emulator
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.bot.forge import forge, private_text
from tests.e2e.bot.test_bound_controls import open_lobby, seated_names
from tests.e2e.conftest import Scene
from tests.e2e.uno_table import ScriptedTable, lobby_id


async def test_a_lobby_left_open_by_a_restart_loses_its_buttons(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory
) -> None:
    bot = bots()
    await bot.start()
    lobby = await open_lobby(driver, scene, "uno pizza")
    old_join = lobby_id(lobby, "join")
    await bot.stop()
    again = bots()
    await again.start()
    await driver.wait_for(lambda: not lobby.custom_ids(), timeout=10)
    assert "closed when I restarted" in lobby.text()
    # A new lobby in the same channel: the old message's id seats nobody in it.
    fresh = await open_lobby(driver, scene, "uno pizza")
    forged = await forge(emu, scene.bob, scene.channel, lobby, old_join)
    assert "closed" in private_text(forged)
    assert "bob" not in seated_names(fresh)
    assert emu.log.failed == []
    assert await again.stop() == 0
    assert "Traceback" not in again.output()


async def test_a_table_that_ended_while_the_bot_was_away_loses_its_buttons(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory, database: Path
) -> None:
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=7)
    await table.open("duo", opponent=scene.bob)
    message = table.table_message()
    assert message is not None
    hand = next(c for c in message.custom_ids() if c.endswith(":hand"))
    await bot.stop()
    # An admin closes the match in the file while the bot is down (as a crash between
    # the last move's commit and the final edit of the table message would leave it).
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE matches SET status = 'abandoned', ended_at = 1, turn_deadline = NULL")
        conn.execute("DELETE FROM snapshots")
    again = bots()
    await again.start()
    await driver.wait_for(lambda: not message.custom_ids(), timeout=10)
    forged = await forge(emu, scene.alice, scene.channel, message, hand)
    assert "This game has ended" in private_text(forged)
    assert emu.log.failed == []
    assert await again.stop() == 0
    assert "Traceback" not in again.output()
