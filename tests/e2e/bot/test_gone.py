"""A channel that vanishes or lacks permissions never holds players at a dead table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from playground import Driver, Emulator, Permission
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, load_truth


def private_answer(outcome: object) -> str:
    message = outcome.message  # type: ignore[attr-defined]
    assert message is not None
    assert message.ephemeral
    return str(message.text())


def match_statuses(database: Path, channel_id: int) -> list[str]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT status FROM matches WHERE channel_id = ? ORDER BY match_id", (channel_id,)
        )
        return [row[0] for row in rows]


async def test_a_deleted_channel_closes_its_table_unscored_and_frees_the_players(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=7)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    assert await load_truth(database, scene.channel.id) is not None
    # Each player's hand panel (a panel may have no buttons while it isn't their move).
    panels = [
        [m for m in driver.visible(user, scene.channel) if m.ephemeral_to is user][-1]
        for user in (scene.alice, scene.bob)
    ]

    emu.world.delete_channel(scene.channel)
    await driver.wait_for(
        lambda: all(
            "was closed because its channel was deleted" in panel.text() for panel in panels
        ),
        timeout=PATIENCE,
    )
    assert await load_truth(database, scene.channel.id) is None
    assert match_statuses(database, scene.channel.id) == ["abandoned"]

    # Both may sit down at a new table at once: nothing holds them at the old one.
    elsewhere = emu.add_text_channel(scene.guild, "uno-2")
    again = ScriptedTable(driver, elsewhere, [scene.alice, scene.bob], seed=8)
    await again.open("duo", opponent=scene.bob)
    assert await load_truth(database, elsewhere.id) is not None
    assert table.failures() == []
    assert again.failures() == []
    assert emu.log.failed == []
    # (uno_bot checks that the bot logged no traceback meanwhile.)


async def test_a_lobby_in_a_deleted_channel_frees_its_host(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    outcome = await driver.slash(scene.alice, scene.channel, "uno pizza")
    assert outcome.message is not None
    emu.world.delete_channel(scene.channel)
    elsewhere = emu.add_text_channel(scene.guild, "uno-2")
    await driver.wait_idle(quiet=0.3, timeout=PATIENCE)
    reopened = await driver.slash(scene.alice, elsewhere, "uno pizza")
    assert reopened.message is not None
    assert not reopened.message.ephemeral  # a lobby, not a refusal
    await driver.wait_idle(quiet=0.3, timeout=PATIENCE)


async def test_a_table_is_refused_where_the_bot_cannot_post_embeds(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    everyone = scene.guild.everyone
    bot_role = emu.world.bot_role(scene.guild)
    granted = (everyone.permissions, bot_role.permissions)
    emu.world.set_role_permissions(everyone, everyone.permissions & ~Permission.EMBED_LINKS)
    emu.world.set_role_permissions(bot_role, bot_role.permissions & ~Permission.EMBED_LINKS)

    outcome = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.bob)
    answer = private_answer(outcome)
    assert "I need **Embed Links** here" in answer
    assert "Send Messages" not in answer

    # Nothing was opened: once the permission is back, the same command works.
    emu.world.set_role_permissions(everyone, granted[0])
    emu.world.set_role_permissions(bot_role, granted[1])
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=7)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    assert table.failures() == []
