"""The last round of a Duo match played to the end by players who take the shortcuts (the
one UNO button), then a Rematch: each player presses once and the same two sit down
again. The round starts from a running table written before the bot starts
(tests/e2e/crafted.py): the clicks per turn of a whole match are bench/clicks.py's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from db.database import Database
from playground import Driver, Emulator, Message
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.crafted import late_round, write_running_table
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, is_table_message, load_truth, play_out


def bot_posts(emu: Emulator, table: ScriptedTable) -> list[Message]:
    return [
        m
        for m in emu.world.messages.values()
        if m.channel is table.channel and m.author is emu.world.bot and not m.ephemeral
    ]


async def test_a_finished_match_offers_a_rematch_each_player_accepts_once(
    emu: Emulator, driver: Driver, scene: Scene, bots: Any, database: Path
) -> None:
    users = [scene.alice, scene.bob]
    reached = late_round("duo", [str(u.id) for u in users], target=50, near=15)
    async with Database.open(database) as db:
        await write_running_table(
            db,
            reached,
            guild_id=scene.guild.id,
            channel_id=scene.channel.id,
            names=["alice", "bob"],
        )
    bot: BotProcess = bots(table_seed=11)
    await bot.start()
    table = ScriptedTable(driver, scene.channel, users, seed=11)
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    await table.open_hands()
    await play_out(table, driver, database)
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)

    final = await driver.wait_for(
        lambda: next(
            (m for m in bot_posts(emu, table) if any("rematch" in c for c in m.custom_ids())),
            None,
        ),
        timeout=PATIENCE,
    )
    (button,) = final.buttons()
    assert button["label"] == "Rematch"
    await driver.click(scene.alice, final, button["custom_id"])
    assert final.buttons()[0]["label"] == "Rematch (1/2)"
    again = await driver.click(scene.alice, final, final.buttons()[0]["custom_id"])
    assert again.message is None or again.message.ephemeral or again.failed is False
    refused = await driver.click(scene.mod, final, final.buttons()[0]["custom_id"])
    assert refused.message is not None
    assert "Only this match's players" in refused.message.content
    await driver.click(scene.bob, final, final.buttons()[0]["custom_id"])
    new = await driver.wait_for(
        lambda: next(
            (m for m in bot_posts(emu, table) if is_table_message(m) and m.id > final.id), None
        ),
        timeout=PATIENCE,
    )
    assert final.buttons() == []
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert set(truth.names) == {str(scene.alice.id), str(scene.bob.id)}
    assert truth.match.public_view().target == 50
    assert new.embeds
    assert table.failures() == []
    assert await bot.stop() == 0
