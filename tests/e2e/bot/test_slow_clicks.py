"""A click that can't be applied within Discord's 3 s is acknowledged first, never failed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from playground import CallbackType, Driver, Emulator
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, load_truth


async def test_a_click_slowed_past_two_seconds_is_acknowledged_then_answered(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=5)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    (user, choices), *_ = table.who_can_act()
    panel = table.panel(user)
    assert panel is not None
    custom_id, _ = next(choice for choice in choices if choice[1] is None)
    # Another program holds the database: the first click's write gives up at 1.5 s
    # (refused, nothing changed); the second waits for the table, then for the file, and
    # is still unsaved when its 3 s run short.
    admin = sqlite3.connect(database, isolation_level=None, timeout=0)
    try:
        admin.execute("BEGIN IMMEDIATE")
        first = await driver.click(user, panel, custom_id, wait=False)
        second = await driver.click(user, panel, custom_id, wait=False)
        # Held until the bot has answered both: the refusal, and the deferral it sends
        # when the second's 3 s are running short.
        await driver.wait_for(
            lambda: (
                (first.interaction.acknowledged and second.interaction.acknowledged)
                or first.failed
                or second.failed
            ),
            timeout=PATIENCE,
        )
        admin.execute("ROLLBACK")
    finally:
        admin.close()
    await first.wait_response()
    await second.wait_response()
    assert not first.failed
    assert not second.failed
    assert second.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE
    await driver.wait_idle(quiet=0.3, timeout=PATIENCE)
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.match.version == 1  # the second click was applied once the file was free
    assert emu.log.failed == []
