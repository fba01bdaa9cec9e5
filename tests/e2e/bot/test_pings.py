"""Turn pings that name players without a mention: `/uno pings off` for one member, and a
server whose settings turn mentions off.

Each test runs a bot of its own (`bots`) dealing from TABLE_SEED 5, so its table is the
first that bot deals: the same deal on every run, whatever other tests opened before.
"""

from __future__ import annotations

from pathlib import Path

from db.database import Database
from playground import Driver, Emulator, Message
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.bot.test_settings import description, private
from tests.e2e.conftest import Scene
from tests.e2e.uno_table import ScriptedTable


async def test_pings_off_the_turn_ping_names_without_a_mention(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory
) -> None:
    await bots(table_seed=5).start()
    said = private(
        await driver.slash(scene.bob, scene.channel, "uno pings", state="off"), scene.bob
    )
    assert said.content.startswith("Done: the bot won't mention you any more")
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=5)
    await table.open("duo", opponent=scene.bob)
    lobby = table.outcomes[0].message
    assert lobby is not None
    assert lobby.pinged == []
    assert "**bob**" in description(lobby)

    def pings() -> list[Message]:
        return [m for m in driver.visible(scene.alice, scene.channel) if "🔔" in m.content]

    for _ in range(200):
        if any("**bob**" in m.content for m in pings()):
            break
        if not await table.step():
            break
    bob_pings = [m for m in pings() if "**bob**" in m.content]
    assert bob_pings, "bob's turn never came up"
    assert all(m.pinged == [] and f"<@{scene.bob.id}>" not in m.content for m in bob_pings)
    alice_pings = [m for m in pings() if f"<@{scene.alice.id}>" in m.content]
    assert all(m.pinged == [scene.alice.id] for m in alice_pings)


async def test_a_server_without_mentions_names_each_player(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, bots: BotFactory
) -> None:
    async with Database.open(database) as db:
        await db.settings.update(scene.guild.id, turn_ping_mentions=False)
    await bots(table_seed=5).start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=5)
    await table.open("duo")

    def pings() -> list[Message]:
        return [m for m in driver.visible(scene.alice, scene.channel) if "🔔" in m.content]

    seen: dict[int, Message] = {}  # each turn ping is deleted when the next is posted
    for _ in range(300):
        seen |= {m.id: m for m in pings()}
        if seen or not await table.step():
            break
    assert seen, "no turn ping was posted"
    for ping in seen.values():
        assert ping.content.split(",")[0] in ("🔔 **alice**", "🔔 **bob**")
        assert ping.pinged == []
        assert "<@" not in ping.content
