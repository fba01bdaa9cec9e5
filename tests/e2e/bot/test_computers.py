"""Computer seats through the real bot: Duo against the computer, a classic table with
two computers, a restart in the middle, and practice in the stats but not on the board.

The module shares one bot (`uno_bot`, a server of each test's own) whose computers
wait only a few milliseconds, so matches end in seconds; the humans are scripted, and
act only when the database says the match waits for them. The restart in the middle
needs bots of its own: `test_computer_restart.py`.
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from db.database import Database
from playground import Driver, Emulator, User
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import (
    ScriptedTable,
    action_choices,
    choice_kind,
    load_truth,
    lobby_id,
    until,
)

FAST = {"COMPUTER_DELAY_MS": "20"}
MAX_LOOPS = 6000
COMPUTER_PATIENCE = 60.0  # seconds, below the bots' 90 s turn timer


async def human_move(table: ScriptedTable, user: User, rng: random.Random) -> None:
    """A fresh panel, then one of its choices (mostly a card, as people do)."""
    await table.press(user, "hand")
    panel = table.panel(user)
    choices = action_choices(panel) if panel is not None else []
    if not choices:
        return
    plays = [c for c in choices if choice_kind(c) in ("p", "pu")]
    pool = plays if plays and rng.random() < 0.8 else choices
    await table.choose(user, rng.choice(pool))


async def play_humans(
    table: ScriptedTable, database: Path, channel_id: int, *, moves: int = MAX_LOOPS
) -> bool:
    """The humans play whenever the match waits for one of them; True once it is over.

    `moves`: stop after this many human moves (the match still running).
    """
    rng = random.Random(7)
    humans = {str(user.id): user for user in table.users}
    made = 0
    async with Database.open(database) as db:

        async def moved_on(version: int) -> bool:
            truth = await load_truth(database, channel_id, db=db)
            return truth is None or truth.match.version != version

        for _ in range(MAX_LOOPS):
            truth = await load_truth(database, channel_id, db=db)
            if truth is None:
                return True
            waiting = [humans[p] for p in truth.match.waiting_for() if p in humans]
            if not waiting:
                # A computer's turn: it moves within its delay, long before any timer
                # (a computer that never moved would only leave by timeouts).
                version = truth.match.version
                await until(table.driver, partial(moved_on, version), within=COMPUTER_PATIENCE)
                continue
            if made >= moves:
                return False
            await human_move(table, waiting[0], rng)
            made += 1
    raise AssertionError("the match did not end")


async def duo_against_the_computer(driver: Driver, scene: Scene, emu: Emulator) -> ScriptedTable:
    table = ScriptedTable(driver, scene.channel, [scene.alice])
    outcome = await driver.slash(
        scene.alice, scene.channel, "uno duo", opponent=emu.world.bot, target=50, strength="hard"
    )
    assert not outcome.failed
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    return table


@pytest.fixture(scope="module")
def shared_bot_settings() -> dict[str, Any]:
    return {"extra_env": FAST}


async def test_a_duo_match_against_the_computer_is_played_to_the_end_and_is_practice(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = await duo_against_the_computer(driver, scene, emu)
    assert "Computer (hard)" in table.public_text()
    assert await play_humans(table, database, scene.channel.id)
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    assert table.failures() == []
    assert emu.log.failed == []
    assert emu.log.violations == []

    stats = await driver.slash(scene.alice, scene.channel, "uno stats")
    assert stats.message is not None
    assert "vs computer: " in stats.message.text()
    assert " won of 1" in stats.message.text()
    board = await driver.slash(scene.alice, scene.channel, "uno leaderboard", variant="duo")
    assert board.message is not None
    assert "alice" not in board.message.text()
    assert "Computer" not in board.message.text()


async def test_a_classic_table_with_two_humans_and_two_computers_is_played_to_the_end(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    opened = await driver.slash(scene.alice, scene.channel, "uno classic", target=50)
    lobby = opened.message
    assert lobby is not None
    await driver.click(scene.bob, lobby, lobby_id(lobby, "join"))
    await driver.select(scene.alice, lobby, lobby_id(lobby, "strength"), ["hard"])
    await driver.click(scene.alice, lobby, lobby_id(lobby, "addcpu"))
    await driver.select(scene.alice, lobby, lobby_id(lobby, "strength"), ["easy"])
    await driver.click(scene.alice, lobby, lobby_id(lobby, "addcpu"))
    await driver.wait_for(lambda: "Seated (4/10)" in lobby.text(), timeout=PATIENCE)
    assert "Computer 1 (hard)" in lobby.text()  # two computers: told apart by number
    assert "Computer 2 (easy)" in lobby.text()
    await driver.click(scene.alice, lobby, lobby_id(lobby, "start"))
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob])
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    assert await play_humans(table, database, scene.channel.id)
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    assert table.failures() == []
    assert emu.log.failed == []
    assert emu.log.violations == []
    board = await driver.slash(scene.alice, scene.channel, "uno leaderboard", variant="classic")
    assert board.message is not None
    assert "alice" not in board.message.text()


async def test_the_last_human_leaving_ends_a_table_of_computers(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    opened = await driver.slash(scene.alice, scene.channel, "uno pizza", target=50)
    lobby = opened.message
    assert lobby is not None
    await driver.click(scene.alice, lobby, lobby_id(lobby, "addcpu"))
    await driver.click(scene.alice, lobby, lobby_id(lobby, "addcpu"))
    await driver.wait_for(lambda: "Seated (3/5)" in lobby.text(), timeout=PATIENCE)
    await driver.click(scene.alice, lobby, lobby_id(lobby, "start"))
    table = ScriptedTable(driver, scene.channel, [scene.alice])
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    assert await load_truth(database, scene.channel.id) is not None
    left = await driver.slash(scene.alice, scene.channel, "uno leave")
    assert left.message is not None
    assert "forfeit" in left.message.text()
    assert await load_truth(database, scene.channel.id) is None
