"""Classic UNO through the real bot: a lobby of up to 10, a match played to the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground import Driver, Emulator
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.uno_table import ScriptedTable, TableWatch, load_truth, lobby_id

MAX_ACTIONS = 3000


@pytest.mark.parametrize("players", [2, 4])
async def test_classic_match_played_to_the_end(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path, players: int
) -> None:
    users = [scene.alice, scene.bob] + [
        emu.add_user(f"player{i}", guild=scene.guild) for i in range(players - 2)
    ]
    table = ScriptedTable(driver, scene.channel, users, seed=players)
    await table.open("classic", target=50)
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
    assert "Classic UNO" in table.public_text()
    assert table.failures() == []
    assert emu.log.failed == []
    assert emu.log.violations == []

    board = await driver.slash(scene.alice, scene.channel, "uno leaderboard", variant="classic")
    assert board.message is not None
    assert sum(user.name in board.message.text() for user in users) == players


async def test_a_classic_lobby_seats_ten_and_no_more(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    users = [scene.alice] + [emu.add_user(f"seat{i}", guild=scene.guild) for i in range(10)]
    opened = await driver.slash(scene.alice, scene.channel, "uno classic")
    lobby = opened.message
    assert lobby is not None
    for user in users[1:10]:
        await driver.click(user, lobby, lobby_id(lobby, "join"))  # its version grows each time
    await driver.wait_for(lambda: "Seated (10/10)" in lobby.text(), timeout=10)
    # A full lobby offers no seat: its Join is gone or refuses the eleventh member.
    joins = [c["custom_id"] for c in lobby.iter_components() if c["custom_id"].endswith(":join")]
    for custom_id in joins:
        late = await driver.click(users[10], lobby, custom_id)
        assert late.failed is False
    assert users[10].name not in lobby.text()
    assert "Seated (10/10)" in lobby.text()
    assert emu.log.failed == []
