"""Bad input of every kind gets a clear private answer and changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playground import Driver, Emulator
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, action_choices, load_truth


async def started_duo(driver: Driver, scene: Scene) -> ScriptedTable:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=7)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    return table


def private_answer(outcome: object) -> str:
    message = outcome.message  # type: ignore[attr-defined]
    assert message is not None
    assert message.ephemeral
    return str(message.text())


async def test_stale_and_double_clicks_change_nothing(
    driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = await started_duo(driver, scene)
    (user, choices), *_ = table.who_can_act()
    old_panel = table.panel(user)
    await table.press(user, "hand")  # a second panel: the first one goes stale below
    panel = table.panel(user)
    assert panel is not None
    assert old_panel is not None
    assert panel is not old_panel
    custom_id, _ = next(choice for choice in choices if choice[1] is None)

    # Two clicks on the same button at once: one is applied, the other is stale.
    first, second = await asyncio.gather(
        driver.click(user, panel, custom_id), driver.click(user, panel, custom_id)
    )
    assert not first.failed
    assert not second.failed
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.match.version == 1  # exactly one of the two was applied
    # Both clicks answered the same panel; the later answer says the button was stale.
    assert panel.text().startswith("⌛ That button was out of date")

    # The older panel's button: refused as out of date, with the fresh panel.
    stale = await driver.click(user, old_panel, custom_id)
    assert stale.message is not None
    assert "out of date" in stale.message.text()
    again = await load_truth(database, scene.channel.id)
    assert again is not None
    assert again.match.version == 1


async def test_foreign_clicks_get_a_private_reason(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = await started_duo(driver, scene)
    stranger = emu.add_user("stranger", guild=scene.guild)
    outcome = await table.press(stranger, "hand")  # a spectator: the table, and how to play
    assert "You're watching this game" in private_answer(outcome)
    outcome = await table.press(stranger, "uno")
    assert "not playing at this table" in private_answer(outcome)
    # The player who must wait is offered no control at all.
    ready = {user.id for user, _ in table.who_can_act()}
    waiting = next(u for u in table.users if u.id not in ready)
    assert table.panel(waiting) is None or action_choices(table.panel(waiting)) == []  # type: ignore[arg-type]
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.match.version == 0
    assert emu.log.failed == []


async def test_uno_pressed_when_nobody_is_exposed_is_refused_without_penalty(
    driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = await started_duo(driver, scene)
    outcome = await table.press(scene.alice, "uno")
    assert "Nobody needs to call UNO" in private_answer(outcome)
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.match.version == 0


async def test_one_table_per_channel_and_refused_opponents(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    outcome = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.alice)
    assert "challenge yourself" in private_answer(outcome)
    robot = emu.add_user("robot", guild=scene.guild)
    robot.bot = True
    outcome = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=robot)
    assert "is a bot" in private_answer(outcome)

    table = await started_duo(driver, scene)
    outcome = await driver.slash(scene.mod, scene.channel, "uno pizza")
    assert "one table per channel" in private_answer(outcome)
    other = emu.add_text_channel(scene.guild, "other")
    outcome = await driver.slash(scene.mod, other, "uno duo", opponent=scene.bob)
    assert "already at a table" in private_answer(outcome)
    assert table.failures() == []


async def test_end_needs_the_host_or_manage_messages(
    driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    await started_duo(driver, scene)
    outcome = await driver.slash(scene.bob, scene.channel, "uno end")
    assert "Only the host" in private_answer(outcome)
    assert await load_truth(database, scene.channel.id) is not None
    outcome = await driver.slash(scene.mod, scene.channel, "uno end")
    message = await outcome.wait_message()
    assert "ended the game" in message.text()
    assert await load_truth(database, scene.channel.id) is None


async def test_leave_is_a_forfeit_and_the_opponent_wins(
    driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = await started_duo(driver, scene)
    outcome = await driver.slash(scene.bob, scene.channel, "uno leave")
    assert "forfeit" in private_answer(outcome)
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    assert await load_truth(database, scene.channel.id) is None
    stats = await driver.slash(scene.alice, scene.channel, "uno stats", member=scene.bob)
    assert stats.message is not None
    assert "1 lost (1 forfeit)" in stats.message.text()
