"""A Duo match played to the end by players who take the shortcuts (Keep the rest, the
one UNO button), then a Rematch: each player presses once and the same two sit down
again. Prints clicks per turn and public posts per match, for the record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from db.database import Database
from playground import Driver, Emulator, Message
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
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
    bot: BotProcess = bots(table_seed=11)
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=11)
    await table.open("duo", opponent=scene.bob, target=50)
    await table.open_hands()
    clicks = await play_out(table, driver, database)
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=15)
    async with Database.open(database) as db:
        logged = await db.tables.actions(1)
    plays = sum(1 for a in logged if '"play"' in a.action_json or '"draw"' in a.action_json)
    posts = bot_posts(emu, table)
    print(
        f"FIGURES clicks={sum(clicks.values())} draft={clicks['draft']} play={clicks['play']} "
        f"turns={plays} clicks_per_turn={clicks['play'] / max(plays, 1):.2f} "
        f"public_posts={len(posts)}"
    )

    final = await driver.wait_for(
        lambda: next(
            (m for m in bot_posts(emu, table) if any("rematch" in c for c in m.custom_ids())),
            None,
        ),
        timeout=15,
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
        timeout=15,
    )
    assert final.buttons() == []
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert set(truth.names) == {str(scene.alice.id), str(scene.bob.id)}
    assert truth.match.public_view().target == 50
    assert new.embeds
    assert table.failures() == []
    assert await bot.stop() == 0
