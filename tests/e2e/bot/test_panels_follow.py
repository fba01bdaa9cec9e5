"""Hand panels follow their table to the end, and what they and the table say reads right.

One shared bot whose computers move at once (`COMPUTER_DELAY_MS=0`, which the README
allows): a panel must keep up with a table that moves faster than its answers travel.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from db.database import Database
from playground import Driver, Emulator, Message, User
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, action_choices, choice_kind, load_truth, lobby_id

INSTANT = {"COMPUTER_DELAY_MS": "0"}
TIP = "First game here?"


@pytest.fixture(scope="module")
def shared_bot_settings() -> dict[str, Any]:
    return {"extra_env": INSTANT}


def latest_private(driver: Driver, user: User, scene: Scene) -> Message:
    """The newest message only `user` sees (their panel, with or without buttons)."""
    mine = [m for m in driver.visible(user, scene.channel) if m.ephemeral_to is user]
    assert mine, f"{user.name} has no private message"
    return mine[-1]


async def duo_against_the_computer(driver: Driver, scene: Scene, emu: Emulator) -> ScriptedTable:
    table = ScriptedTable(driver, scene.channel, [scene.alice])
    outcome = await driver.slash(
        scene.alice, scene.channel, "uno duo", opponent=emu.world.bot, target=50
    )
    assert not outcome.failed
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    return table


async def until_alices_turn(database: Path, scene: Scene, db: Database) -> bool:
    """Wait until the match waits for alice (True) or is over (False), as the database
    says: the bot's own state, polled like `play_humans` in test_computers.py does."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while loop.time() < deadline:
        truth = await load_truth(database, scene.channel.id, db=db)
        if truth is None:
            return False
        if str(scene.alice.id) in truth.match.waiting_for():
            return True
        await asyncio.sleep(0.05)
    raise AssertionError("the computer did not move")


async def test_item11_with_instant_computers_the_panel_shows_each_turn_without_pressing_hand(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    """Issue item 11: alice plays from one panel only; each time it is her turn again,
    that panel offers her choices, without her pressing Hand.

    The answers to her clicks travel slowly (as on a loaded machine), so the computer's
    move, and the bot's edit of her panel for it, land before the answer drawn earlier.
    """
    table = await duo_against_the_computer(driver, scene, emu)
    await table.press(scene.alice, "hand")
    panel = latest_private(driver, scene.alice, scene)
    rng = random.Random(11)
    moves = 0
    emu.rest.latency = lambda method, path: 0.4 if path.endswith("/callback") else 0.0
    try:
        async with Database.open(database) as db:
            while moves < 12 and await until_alices_turn(database, scene, db):
                # Her turn in the database: the panel she holds must say so (not
                # "Waiting for Computer"), within the refresh's few hops.
                await driver.wait_for(lambda: action_choices(panel), timeout=PATIENCE)
                choices = action_choices(panel)
                plays = [c for c in choices if choice_kind(c) in ("p", "pu")]
                await table.choose(scene.alice, rng.choice(plays or choices))
                moves += 1
    finally:
        emu.rest.latency = lambda method, path: 0.0
    assert moves >= 6, "too few turns to show anything"
    assert table.failures() == []
    assert emu.log.failed == []


async def test_item5_a_finished_match_leaves_no_live_panel_and_practice_reads_right(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    """Issue items 5 and 9: once the match is over, alice's panel says so and has no
    buttons; her stats don't say "No finished match yet" beside her practice game."""
    table = await duo_against_the_computer(driver, scene, emu)
    rng = random.Random(5)
    async with Database.open(database) as db:
        for _ in range(2000):
            truth = await load_truth(database, scene.channel.id, db=db)
            if truth is None:
                break
            if str(scene.alice.id) not in truth.match.waiting_for():
                await driver.wait_idle(quiet=0.05)
                continue
            await table.press(scene.alice, "hand")
            choices = action_choices(latest_private(driver, scene.alice, scene))
            plays = [c for c in choices if choice_kind(c) in ("p", "pu")]
            if choices:
                await table.choose(scene.alice, rng.choice(plays or choices))
    assert await load_truth(database, scene.channel.id) is None
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    await driver.wait_for(
        lambda: "match is over" in latest_private(driver, scene.alice, scene).text(),
        timeout=PATIENCE,
    )
    assert latest_private(driver, scene.alice, scene).iter_components() == []

    stats = await driver.slash(scene.alice, scene.channel, "uno stats")
    assert stats.message is not None
    said = stats.message.text()
    assert "vs computer: " in said
    assert "No finished match yet" not in said
    assert "games against the computer are practice" in said
    assert table.failures() == []


async def test_item5_uno_end_takes_the_draft_buttons_off_every_panel(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    """Issue item 5: after `/uno end`, no panel offers live draft buttons."""
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob])
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    panels = [latest_private(driver, user, scene) for user in (scene.alice, scene.bob)]
    assert any(action_choices(panel) for panel in panels)  # the drafter's buttons

    ended = await driver.slash(scene.mod, scene.channel, "uno end")
    assert not ended.failed
    await driver.wait_for(
        lambda: all("table was closed" in panel.text() for panel in panels), timeout=PATIENCE
    )
    assert all(panel.iter_components() == [] for panel in panels)
    assert all("nothing was scored" in panel.text() for panel in panels)


async def test_item12_a_player_who_leaves_keeps_no_live_panel(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    """Issue item 12: a removed player's panel says they are out and loses its buttons,
    while the others play on."""
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob, scene.mod])
    await table.open("pizza")
    await table.open_hands()
    panel = latest_private(driver, scene.alice, scene)
    left = await driver.slash(scene.alice, scene.channel, "uno leave")
    assert left.message is not None
    await driver.wait_for(lambda: "no longer playing" in panel.text(), timeout=PATIENCE)
    assert panel.iter_components() == []
    assert await load_truth(database, scene.channel.id) is not None  # bob and mod play on


async def test_item8_the_duo_draft_names_no_first_player_and_keeps_the_tip(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    """Issue item 8: while the draft runs the table says who picks first, not who plays
    first; the first-game tip stays on the panel when the bot edits it."""
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob])
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    panels = {user.name: latest_private(driver, user, scene) for user in table.users}
    assert all(TIP in panel.text() for panel in panels.values())
    drafter = next(u for u in table.users if action_choices(panels[u.name]))
    waiting = next(u for u in table.users if u is not drafter)
    await table.choose(drafter, action_choices(panels[drafter.name])[0])
    # The waiting player's panel is edited by the bot: it is their pick now.
    await driver.wait_for(lambda: action_choices(panels[waiting.name]), timeout=PATIENCE)
    assert TIP in panels[waiting.name].text()
    # Their own click redraws the panel: the tip is still there.
    await table.choose(waiting, action_choices(panels[waiting.name])[0])
    assert TIP in panels[waiting.name].text()
    await driver.wait_for(lambda: "picks first" in table.public_text(), timeout=PATIENCE)
    assert "plays first" not in table.public_text()


async def test_item9_a_watcher_is_offered_every_game(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    """Issue item 9: the watcher's message names /uno duo, /uno pizza and /uno classic."""
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob])
    await table.open("duo", opponent=scene.bob)
    watched = await table.press(scene.mod, "hand")
    assert watched.message is not None
    said = watched.message.text()
    assert "You're watching this game" in said
    for command in ("/uno duo", "/uno pizza", "/uno classic"):
        assert command in said


async def test_item6_two_computers_have_distinct_names(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    """Issue item 6: two computers at one table read as two players in the lobby, the
    seat list and the last moves."""
    opened = await driver.slash(scene.alice, scene.channel, "uno classic", target=50)
    lobby = opened.message
    assert lobby is not None
    for strength in ("normal", "normal"):
        await driver.select(scene.alice, lobby, lobby_id(lobby, "strength"), [strength])
        await driver.click(scene.alice, lobby, lobby_id(lobby, "addcpu"))
    await driver.wait_for(lambda: "Seated (3/10)" in lobby.text(), timeout=PATIENCE)
    assert "Computer 1 (normal)" in lobby.text()
    assert "Computer 2 (normal)" in lobby.text()
    await driver.click(scene.alice, lobby, lobby_id(lobby, "start"))
    table = ScriptedTable(driver, scene.channel, [scene.alice])
    message = await driver.wait_for(table.table_message, timeout=PATIENCE)
    await driver.wait_for(lambda: "Computer 2 (normal)" in message.text(), timeout=PATIENCE)
    shown = message.text()
    assert "Computer 1 (normal)" in shown
    assert "Computer (normal)" not in shown
    await driver.slash(scene.alice, scene.channel, "uno end")


async def test_the_first_game_tip_quotes_the_servers_turn_time(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    """The tip on a first panel tells the turn time this server chose, not the bot's own."""
    async with Database.open(database) as db:
        await db.settings.update(scene.guild.id, turn_seconds=45)
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob])
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    panel = latest_private(driver, scene.alice, scene)
    assert TIP in panel.text()
    assert "45 s per turn" in panel.text()
