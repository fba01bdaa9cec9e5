"""Classic UNO through the real bot: a lobby of up to 10, matches played to the end.

The 2- and 4-player matches are played at the same time by one module fixture, each in
a server of its own (as tests/e2e/bot/test_matches.py does); each test asserts its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from playground import Driver, Emulator, Log, User
from tests.e2e.bot.conftest import new_scene
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, TableWatch, load_truth, lobby_id

MAX_ACTIONS = 3000
PLAYERS = (2, 4)


@dataclass
class Played:
    scene: Scene
    users: list[User]
    table: ScriptedTable


async def classic_match(emu: Emulator, driver: Driver, database: Path, players: int) -> Played:
    """A classic match to 50 in a server of its own, the table checked after every action."""
    scene = new_scene(emu)
    users = [scene.alice, scene.bob] + [
        emu.add_user(f"player{i}", guild=scene.guild) for i in range(players - 2)
    ]
    table = ScriptedTable(driver, scene.channel, users, seed=players)
    await table.open("classic", target=50)
    await table.open_hands()
    async with TableWatch(table, database, driver) as watch:  # one connection, not one a check
        checked = await watch.play(max_actions=MAX_ACTIONS)
    print(f"classic, {players} players: {table.actions} actions, {checked} checks")
    return Played(scene, users, table)


@pytest_asyncio.fixture(scope="module", loop_scope="package")
async def played(
    emu: Emulator, shared_bot: BotProcess, shared_database: Path
) -> AsyncIterator[tuple[dict[int, Played], Log]]:
    """The 2- and 4-player matches, played at the same time (each mostly waits)."""
    log = emu.world.log = Log()
    driver = Driver(emu)
    both = await asyncio.gather(*(classic_match(emu, driver, shared_database, n) for n in PLAYERS))
    yield dict(zip(PLAYERS, both, strict=True)), log


@pytest.mark.parametrize("players", PLAYERS)
async def test_classic_match_played_to_the_end(
    driver: Driver,
    played: tuple[dict[int, Played], Log],
    uno_bot: BotProcess,
    shared_database: Path,
    players: int,
) -> None:
    matches, log = played
    match = matches[players]
    scene, table = match.scene, match.table
    assert await load_truth(shared_database, scene.channel.id) is None, "the match did not finish"
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    assert "Classic UNO" in table.public_text()
    assert table.failures() == []
    assert log.failed == []
    assert log.violations == []

    board = await driver.slash(scene.alice, scene.channel, "uno leaderboard", variant="classic")
    assert board.message is not None
    shown = board.message.text()
    assert sum(user.name in shown for user in match.users) == players, shown


async def test_a_classic_lobby_seats_ten_and_no_more(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    users = [scene.alice] + [emu.add_user(f"seat{i}", guild=scene.guild) for i in range(10)]
    opened = await driver.slash(scene.alice, scene.channel, "uno classic")
    lobby = opened.message
    assert lobby is not None
    for user in users[1:10]:
        await driver.click(user, lobby, lobby_id(lobby, "join"))  # its version grows each time
    await driver.wait_for(lambda: "Seated (10/10)" in lobby.text(), timeout=PATIENCE)
    # A full lobby offers no seat: its Join is gone or refuses the eleventh member.
    joins = [c["custom_id"] for c in lobby.iter_components() if c["custom_id"].endswith(":join")]
    for custom_id in joins:
        late = await driver.click(users[10], lobby, custom_id)
        assert late.failed is False
    assert users[10].name not in lobby.text()
    assert "Seated (10/10)" in lobby.text()
    assert emu.log.failed == []
