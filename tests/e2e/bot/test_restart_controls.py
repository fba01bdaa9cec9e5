"""Controls a restart left behind lose their buttons; a click on one says the game ended.

These tests start and stop bots of their own, so they live apart from the module
that runs the shared bot (tests/e2e/bot/conftest.py).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.database import Database
from playground import Driver, Emulator, Message
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.bot.forge import forge, private_text
from tests.e2e.bot.test_bound_controls import open_lobby, seated_names
from tests.e2e.bot.test_rematch import bot_posts
from tests.e2e.conftest import Scene
from tests.e2e.crafted import late_round, write_running_table
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, is_table_message, load_truth, lobby_id, play_out


def rematch_ids(message: Message) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith("uno:rematch.")]


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
    await driver.wait_for(lambda: not lobby.custom_ids(), timeout=PATIENCE)
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
    await driver.wait_for(lambda: not message.custom_ids(), timeout=PATIENCE)
    forged = await forge(emu, scene.alice, scene.channel, message, hand)
    assert "This game has ended" in private_text(forged)
    assert emu.log.failed == []
    assert await again.stop() == 0
    assert "Traceback" not in again.output()


async def test_a_rematch_offer_outlives_a_restart_and_an_unknown_one_says_it_expired(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory, database: Path
) -> None:
    users = [scene.alice, scene.bob]
    # The last round of a Duo match to 50, reached in the engine: a short play to the end.
    reached = late_round("duo", [str(u.id) for u in users], target=50, near=15)
    async with Database.open(database) as db:
        await write_running_table(
            db,
            reached,
            guild_id=scene.guild.id,
            channel_id=scene.channel.id,
            names=["alice", "bob"],
        )
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, scene.channel, users, seed=3)
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    await table.open_hands()
    await play_out(table, driver, database)
    final = await driver.wait_for(
        lambda: next((m for m in bot_posts(emu, table) if rematch_ids(m)), None), timeout=PATIENCE
    )
    await driver.click(scene.alice, final, rematch_ids(final)[0])
    assert final.buttons()[0]["label"] == "Rematch (1/2)"
    assert await bot.stop() == 0

    again = bots()
    await again.start()
    # The finished table's button still works: bob's press completes the rematch.
    await driver.click(scene.bob, final, rematch_ids(final)[0])
    await driver.wait_for(
        lambda: any(is_table_message(m) and m.id > final.id for m in bot_posts(emu, table)),
        timeout=PATIENCE,
    )
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert set(truth.names) == {str(scene.alice.id), str(scene.bob.id)}
    assert truth.match.public_view().target == 50
    assert final.buttons() == []
    async with Database.open(database) as db:
        assert await db.rematches.open_offers() == []  # taken: nothing left to restore
    # A Rematch the bot no longer knows (an expired offer) says so, and how to play again.
    forged = await forge(emu, scene.alice, scene.channel, final, "uno:rematch.987654")
    text = private_text(forged)
    assert "expired" in text
    assert "/uno duo" in text
    assert table.failures() == []
    assert emu.log.failed == []
    assert await again.stop() == 0
    assert "Traceback" not in again.output()


async def test_a_croatian_servers_table_restored_at_start_is_shown_in_croatian(
    emu: Emulator, driver: Driver, bots: BotFactory, database: Path
) -> None:
    """A table brought back by a restart is drawn once its server's language is known,
    not in English first (the bot restores tables before Discord names its servers)."""
    guild = emu.add_guild("UNO klub", locale="hr")
    channel = emu.add_text_channel(guild, "uno")
    alice = emu.add_user("alice", guild=guild)
    bob = emu.add_user("bob", guild=guild)
    reached = late_round("duo", [str(alice.id), str(bob.id)], target=200, near=200)
    async with Database.open(database) as db:
        await write_running_table(
            db, reached, guild_id=guild.id, channel_id=channel.id, names=["alice", "bob"]
        )
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, channel, [alice, bob])
    shown = await driver.wait_for(table.table_message, timeout=PATIENCE)
    assert "Runda" in shown.text()
    assert "Round" not in shown.text()
    assert await bot.stop() == 0
