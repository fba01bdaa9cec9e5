"""An idle player, through a bot of its own with 3-second turns (TEST_TURN_SECONDS): each
missed turn shown on the table and privately, one warning ping, then removal."""

from __future__ import annotations

from typing import Any

from playground import Driver, Emulator
from tests.e2e.bot.conftest import BotFactory, player_texts
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable


async def test_an_idle_player_is_warned_once_and_the_table_shows_missed_turns(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory
) -> None:
    sent: list[dict[str, Any]] = []
    emu.world.readers.append(sent.append)
    bot = bots(turn_seconds=3)
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=3)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()  # open panels: the private notice lands there
    # Nobody clicks: every draft pick times out, until a third miss in a row removes one.
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=60)
    texts = ["\n".join(player_texts(p)) for p in sent]
    assert any("⏱️ missed 1 of 3" in t for t in texts)  # on the table's seat line
    assert any("⏱️ missed 2 of 3" in t for t in texts)
    assert any("you missed 1 of 3 turns in a row" in t for t in texts)  # privately
    for user in table.users:
        pings = [
            t
            for t in texts
            if f"<@{user.id}>" in t and ("it's your turn" in t or "your time ran out" in t)
        ]
        # At most: the first turn's ping (no open panel needed it) and one warning.
        assert len(pings) <= 1 + 1, pings
        assert sum("your time ran out" in t for t in pings) <= 1
    assert any("your time ran out: missed 1 of 3" in t for t in texts)
    assert await bot.stop() == 0


async def test_item12_a_player_removed_for_missed_turns_keeps_no_live_panel(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory
) -> None:
    """Issue items 12 and 5: the first player removed for three missed turns reads why
    on their panel, which loses its buttons; when the next removal ends the match, the
    last player's panel says the match is over."""
    bot = bots(turn_seconds=2)
    await bot.start()
    players = [scene.alice, scene.bob, scene.mod]
    table = ScriptedTable(driver, scene.channel, players, seed=12)
    await table.open("pizza")
    await table.open_hands()
    panels = {
        user.name: [m for m in driver.visible(user, scene.channel) if m.ephemeral_to is user][-1]
        for user in players
    }
    # Nobody clicks: each turn times out, until a third miss in a row removes a player.
    removed = await driver.wait_for(
        lambda: next((n for n, p in panels.items() if "no longer playing" in p.text()), None),
        timeout=60,
    )
    assert panels[removed].iter_components() == []
    assert "missed 3 turns in a row and is removed" in table.public_text()
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=60)
    others = [p for name, p in panels.items() if name != removed]
    await driver.wait_for(
        lambda: all("match is over" in p.text() for p in others), timeout=PATIENCE
    )
    assert all(p.iter_components() == [] for p in panels.values())
    assert "no longer playing" in panels[removed].text()
    assert await bot.stop() == 0
