"""A whole UNO Pocket Pizza Pizza match through the real bot, clicked by scripted users."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from cogs.uno import render
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.uno_table import ScriptedTable, comparable, load_truth
from tests.emulator import Driver, Emulator

MAX_ACTIONS = 1500


class TableWatch:
    """Checks after every action that the table message shows a real state of the game.

    Edits are coalesced (Discord allows about one per second per channel), so
    between two edits the message may show an earlier state, never a wrong one;
    every few actions the test waits until it shows the latest state exactly.
    """

    def __init__(self, table: ScriptedTable, database: Path, driver: Driver) -> None:
        self.table = table
        self.database = database
        self.driver = driver
        self.history: list[dict[str, object]] = []

    async def check(self, *, exact: bool) -> bool:
        truth = await load_truth(self.database, self.table.channel.id)
        if truth is None:
            return False
        expected = comparable(
            render.table_embed(
                truth.match.public_view(),
                names=truth.names,
                table_id=truth.table_id,
                deadline=truth.deadline,
            ).to_dict()
        )
        self.history.append(expected)

        def shown() -> dict[str, object] | None:
            message = self.table.table_message()
            return comparable(message.embeds[0]) if message and message.embeds else None

        if exact:
            await self.driver.wait_for(lambda: shown() == expected, timeout=4)
        else:
            assert shown() in self.history
        return True


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
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=5)
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
