"""A match against the computer that goes on after the bot restarts in the middle.

Bots of its own (`bots`), one before and one after the restart, with the fast computers
of `test_computers.py`: a module of its own, since that module shares one bot.
"""

from __future__ import annotations

from pathlib import Path

from playground import Driver, Emulator
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.bot.test_computers import FAST, play_humans
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, load_truth, lobby_id

SEED = 11


async def test_play_the_computer_from_a_duo_lobby_and_resume_after_a_restart(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory, database: Path
) -> None:
    # A fixed deal and fixed computer choices: with random ones, about 1 match in 6 ended
    # (at 50 points) before alice's fifth move, so there was no middle to restart in.
    bot = bots(extra_env=FAST, table_seed=SEED)
    await bot.start()
    opened = await driver.slash(scene.alice, scene.channel, "uno duo", target=50)
    lobby = opened.message
    assert lobby is not None
    # bob may not take the computer's seat for alice: only the host seats it.
    refused = await driver.click(scene.bob, lobby, lobby_id(lobby, "computer"))
    assert refused.message is not None
    assert "Only the host" in refused.message.text()
    await driver.click(scene.alice, lobby, lobby_id(lobby, "computer"))
    table = ScriptedTable(driver, scene.channel, [scene.alice])
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    assert "Computer (normal)" in table.public_text()
    assert not await play_humans(table, database, scene.channel.id, moves=5)
    before = await load_truth(database, scene.channel.id)
    assert before is not None
    assert await bot.stop() == 0
    again = bots(extra_env=FAST)
    await again.start()
    assert await play_humans(table, database, scene.channel.id)
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    assert emu.log.violations == []
    assert await again.stop() == 0
    assert "Traceback" not in again.output()


async def test_item6_two_computers_keep_their_distinct_names_after_a_kill(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory, database: Path
) -> None:
    """Issue item 6: the numbers come from the stored seats, so a crash changes none."""
    bot = bots(extra_env=FAST, table_seed=SEED)
    await bot.start()
    opened = await driver.slash(scene.alice, scene.channel, "uno classic", target=500)
    lobby = opened.message
    assert lobby is not None
    for strength in ("hard", "easy"):
        await driver.select(scene.alice, lobby, lobby_id(lobby, "strength"), [strength])
        await driver.click(scene.alice, lobby, lobby_id(lobby, "addcpu"))
    await driver.click(scene.alice, lobby, lobby_id(lobby, "start"))
    table = ScriptedTable(driver, scene.channel, [scene.alice])
    seats = ("Computer 1 (hard)", "Computer 2 (easy)")
    first = await driver.wait_for(
        lambda: (
            (shown := table.table_message()) is not None
            and all(s in shown.text() for s in seats)
            and shown
        ),
        timeout=PATIENCE,
    )
    await bot.kill()
    again = bots(extra_env=FAST)
    await again.start()
    # The restored table is posted anew, with the same names.
    await driver.wait_for(
        lambda: (
            (shown := table.table_message()) is not None
            and shown is not first
            and all(s in shown.text() for s in seats)
        ),
        timeout=PATIENCE,
    )
    assert await load_truth(database, scene.channel.id) is not None
    assert await again.stop() == 0
