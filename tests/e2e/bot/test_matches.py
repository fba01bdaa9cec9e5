"""A whole UNO Pocket Pizza Pizza match through the real bot, clicked by scripted users."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from playground import Driver, Emulator
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.uno_table import ScriptedTable, TableWatch, load_truth

MAX_ACTIONS = 1500


@pytest.mark.parametrize("players", [3, 5])
async def test_pizza_match_played_to_the_end(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path, players: int
) -> None:
    users = [scene.alice, scene.bob] + [
        emu.add_user(f"player{i}", guild=scene.guild) for i in range(players - 2)
    ]
    table = ScriptedTable(driver, scene.channel, users, seed=players)
    await table.open("pizza", target=50)
    await table.open_hands()
    watch = TableWatch(table, database, driver)
    checked = 0
    while table.actions < MAX_ACTIONS:
        if not await watch.check(exact=checked % 15 == 0):
            break  # the match is over: no running table left
        checked += 1
        if not await table.step():
            break
    assert await load_truth(database, scene.channel.id) is None, "the match did not finish"
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=10)
    assert checked > 10
    print(f"{players} players: {table.actions} actions, {checked} checks")
    assert table.failures() == []
    assert emu.log.failed == []
    assert [c for c in emu.log.calls if c.status == 429] == []
    assert emu.log.violations == []

    board = await driver.slash(scene.alice, scene.channel, "uno leaderboard", variant="pizza")
    assert board.message is not None
    text = board.message.text()
    assert sum(user.name in text for user in users) == players
    assert discord.utils.escape_markdown(users[0].name) in text


async def test_duo_match_played_to_the_end(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    users = [scene.alice, scene.bob]
    table = ScriptedTable(driver, scene.channel, users, seed=2)
    await table.open("duo", opponent=scene.bob, target=50)
    await table.open_hands()
    watch = TableWatch(table, database, driver)
    checked = 0
    while table.actions < MAX_ACTIONS:
        if not await watch.check(exact=checked % 15 == 0):
            break
        checked += 1
        if not await table.step():
            break
    assert await load_truth(database, scene.channel.id) is None, "the match did not finish"
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=10)
    assert checked > 20  # a draft alone is 14 picks
    # The waiting player's open panel was brought up to date through its token.
    assert any(
        c.method == "PATCH" and c.path.endswith("/messages/@original") and c.status == 200
        for c in emu.log.calls
    )
    assert table.failures() == []
    assert emu.log.failed == []
    assert [c for c in emu.log.calls if c.status == 429] == []
    assert emu.log.violations == []
