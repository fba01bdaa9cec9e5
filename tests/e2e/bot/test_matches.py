"""Whole matches through the real bot, clicked by scripted users, three tables at once.

A match spends most of its time waiting: for the bot's answer to each click, and every
15 actions for the coalesced table edit to show the latest state. The
three matches are played at the same time, each in a server of its own, by one module
fixture; each test then asserts what its own match showed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import pytest_asyncio

from playground import Driver, Emulator, Log, User
from tests.e2e.bot.conftest import new_scene
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, TableWatch, load_truth

MAX_ACTIONS = 1500


@dataclass
class Played:
    scene: Scene
    users: list[User]
    table: ScriptedTable
    checked: int


async def play_to_the_end(table: ScriptedTable, database: Path, driver: Driver) -> int:
    """Play until the match is over, checking the table message after every action."""
    async with TableWatch(table, database, driver) as watch:
        checked = await watch.play(max_actions=MAX_ACTIONS)
    assert await load_truth(database, table.channel.id) is None, "the match did not finish"
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    return checked


async def pizza(emu: Emulator, driver: Driver, database: Path, players: int) -> Played:
    scene = new_scene(emu)
    users = [scene.alice, scene.bob] + [
        emu.add_user(f"player{i}", guild=scene.guild) for i in range(players - 2)
    ]
    table = ScriptedTable(driver, scene.channel, users, seed=players)
    await table.open("pizza", target=50)
    await table.open_hands()
    checked = await play_to_the_end(table, database, driver)
    print(f"{players} players: {table.actions} actions, {checked} checks")
    return Played(scene, users, table, checked)


async def duo(emu: Emulator, driver: Driver, database: Path) -> Played:
    scene = new_scene(emu)
    users = [scene.alice, scene.bob]
    table = ScriptedTable(driver, scene.channel, users, seed=2)
    await table.open("duo", opponent=scene.bob, target=50)
    await table.open_hands()
    checked = await play_to_the_end(table, database, driver)
    print(f"duo: {table.actions} actions, {checked} checks")
    return Played(scene, users, table, checked)


@dataclass
class AllPlayed:
    matches: dict[str, Played]
    log: Log  # what the emulator recorded while the three were played


@pytest_asyncio.fixture(scope="module", loop_scope="package")
async def played(
    emu: Emulator, shared_bot: BotProcess, shared_database: Path
) -> AsyncIterator[AllPlayed]:
    log = emu.world.log = Log()
    driver = Driver(emu)
    three = await asyncio.gather(
        pizza(emu, driver, shared_database, 3),
        pizza(emu, driver, shared_database, 5),
        duo(emu, driver, shared_database),
    )
    yield AllPlayed(dict(zip(("pizza-3", "pizza-5", "duo"), three, strict=True)), log)


def clean(log: Log, played: Played) -> None:
    assert played.table.failures() == []
    assert log.failed == []
    assert [c for c in log.calls if c.status == 429] == []
    assert log.violations == []


@pytest.mark.parametrize("players", [3, 5])
async def test_pizza_match_played_to_the_end(
    driver: Driver, played: AllPlayed, uno_bot: BotProcess, players: int
) -> None:
    match = played.matches[f"pizza-{players}"]
    # A match to 50 can end in a few moves when a panel offers another card than the
    # same seed did in an earlier run (it depends on when the panel was redrawn).
    assert match.checked > 3
    clean(played.log, match)

    scene = match.scene
    board = await driver.slash(scene.alice, scene.channel, "uno leaderboard", variant="pizza")
    assert board.message is not None
    text = board.message.text()
    assert sum(user.name in text for user in match.users) == players
    assert discord.utils.escape_markdown(match.users[0].name) in text


async def test_duo_match_played_to_the_end(
    emu: Emulator, played: AllPlayed, uno_bot: BotProcess
) -> None:
    match = played.matches["duo"]
    assert match.checked > 20  # a draft alone is 14 picks
    # The waiting player's open panel was brought up to date through its token.
    tokens = {
        it.token for it in emu.world.interactions.values() if it.channel is match.scene.channel
    }
    assert any(
        c.method == "PATCH"
        and c.path.endswith("/messages/@original")
        and c.status == 200
        and any(token in c.path for token in tokens)
        for c in played.log.calls
    )
    clean(played.log, match)
