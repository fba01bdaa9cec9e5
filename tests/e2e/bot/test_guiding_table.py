"""A table that guides, through the real bot: one button for a play that calls UNO, a
draft kept in one click, a spectator shown the table, the rules in words."""

from __future__ import annotations

import json
from pathlib import Path

from db.database import Database
from playground import Driver, Emulator, Message
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.uno_table import ScriptedTable


def codes(panel: Message | None) -> dict[str, dict[str, object]]:
    """A panel's controls by code (a select's options by their value)."""
    found: dict[str, dict[str, object]] = {}
    for component in [] if panel is None else panel.iter_components():
        if component.get("type") == 2:
            found[str(component.get("custom_id", "")).rsplit(":", 1)[-1]] = component
        for option in component.get("options") or []:
            found[option["value"]] = option
    return found


async def logged_actions(
    database: Path, channel_id: int
) -> list[tuple[int | None, dict[str, object]]]:
    """The action log of the running table in a channel (the module's bot runs several)."""
    async with Database.open(database) as db:
        tables = await db.tables.running_tables()
        (running,) = [t for t in tables if t.match.channel_id == channel_id]
        return [(a.player_id, json.loads(a.action_json)) for a in running.actions]


async def test_keep_the_rest_keeps_the_whole_draft_in_one_click(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=1)
    await table.open("duo", opponent=scene.bob, target=50)
    await table.open_hands()
    clicks = {scene.alice.id: 0, scene.bob.id: 0}
    for _ in range(40):  # bob keeps card by card; alice presses Keep the rest once
        await driver.wait_idle(quiet=0.1)
        moved = False
        for user in (scene.alice, scene.bob):
            panel = table.panel(user)
            found = codes(panel)
            code = "kr" if user is scene.alice and "kr" in found else "kc"
            if code in found and panel is not None:
                custom_id = str(found[code]["custom_id"])
                if user is scene.alice:
                    assert found["kr"]["label"] == "Keep the rest"
                await driver.click(user, panel, custom_id)
                clicks[user.id] += 1
                moved = True
                break
        if not moved:
            break
    keeps = [
        p
        for p, action in await logged_actions(database, scene.channel.id)
        if action.get("type") == "keep_card"
    ]
    assert keeps.count(scene.alice.id) == 7  # one recorded action per card kept
    assert keeps.count(scene.bob.id) == 7
    assert clicks[scene.alice.id] == 1
    assert clicks[scene.bob.id] == 7
    assert table.failures() == []


async def test_a_play_leaving_one_card_is_one_button_that_calls_uno(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=5)
    await table.open("duo", opponent=scene.bob, target=50)
    await table.open_hands()
    for _ in range(600):
        for user in table.users:
            found = codes(table.panel(user))
            calls = [code for code in found if code.startswith("pu.")]
            if calls:
                code = calls[0]
                assert "p." + code[3:] not in found  # not the pair
                label = str(found[code]["label"])
                assert label.endswith(" · UNO!"), label
                return
        if not await table.step():
            break
    raise AssertionError("no player came down to a play that leaves one card")


async def test_a_spectator_pressing_hand_sees_the_table_and_how_to_play(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=1)
    await table.open("duo", opponent=scene.bob, target=50)
    outcome = await table.press(scene.mod, "hand")
    answer = outcome.message
    assert answer is not None
    assert answer.ephemeral_to is scene.mod
    assert "You're watching this game" in answer.content
    assert "/uno duo" in answer.content
    shown = table.table_message()
    assert shown is not None
    assert answer.embeds[0]["title"] == shown.embeds[0]["title"]
    assert answer.components == []


async def test_the_first_hand_panel_ever_carries_one_tip(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=1)
    await table.open("duo", opponent=scene.bob, target=50)
    first = (await table.press(scene.alice, "hand")).message
    assert first is not None
    assert first.content.startswith("💡 **First game here?**")
    assert "90 s per turn" in first.content
    again = (await table.press(scene.alice, "hand")).message
    assert again is not None
    assert "First game here?" not in again.content  # once per member, not per click
