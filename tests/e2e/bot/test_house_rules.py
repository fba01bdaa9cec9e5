"""Classic UNO's house rules through the real bot: an admin turns them on in
/uno settings, and the classic table opened afterwards shows and plays them."""

from __future__ import annotations

import json
from pathlib import Path

from db.database import Database
from playground import Driver, Emulator, User
from playground.models import Permission
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import Choice, ScriptedTable, action_choices

MAX_ACTIONS = 600


def admin_of(emu: Emulator, scene: Scene) -> User:
    admin = emu.add_user("admin")
    emu.add_member(scene.guild, admin, permissions=Permission.MANAGE_GUILD)
    return admin


def code_of(choice: Choice) -> str:
    custom_id, value = choice
    return value if value is not None else custom_id.rsplit(":", 1)[-1]


async def turn_on(driver: Driver, admin: User, scene: Scene, rules: list[str]) -> str:
    panel = (await driver.slash(admin, scene.channel, "uno settings")).message
    assert panel is not None
    chose = await driver.select(admin, panel, "uno:set.house", rules)
    assert chose.message is not None
    return str(chose.message.embeds[0]["description"])


async def test_h1_h3_a_house_rule_turned_on_is_shown_and_played(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    admin = admin_of(emu, scene)
    settings = await turn_on(driver, admin, scene, ["stacking", "jump_in"])
    assert "**Classic house rules:** stacking, jump-in" in settings
    assert "coming soon" not in settings

    users = [scene.alice, scene.bob, emu.add_user("carol", guild=scene.guild)]
    table = ScriptedTable(driver, scene.channel, users, seed=5)
    await table.open("classic", target=500)
    shown = table.table_message()
    assert shown is not None
    assert "House rules: stacking, jump-in" in shown.text()
    async with Database.open(database) as db:
        # The shared bot's file holds other tests' tables too: this server's is the one.
        tables = await db.tables.running_tables()
        (running,) = [t for t in tables if t.match.guild_id == scene.guild.id]
        options = json.loads(running.snapshot_json)["options"]
    assert options["stacking"] is True
    assert options["jump_in"] is True
    assert options["seven_o"] is False

    await table.open_hands()
    stacked = False
    while table.actions < MAX_ACTIONS and not stacked:
        if await stack_or_step(table):
            # The stacking click may have been made from a panel a moment out of date
            # (refused as such under load): then play on until another stack is shown.
            stacked = await shown_on_table(driver, table, "stacks it:")
    assert stacked, "no Draw 2 was stacked on a Draw 2"
    assert table.failures() == []
    assert emu.log.failed == []
    assert emu.log.violations == []


async def shown_on_table(driver: Driver, table: ScriptedTable, words: str) -> bool:
    try:
        await driver.wait_for(lambda: words in table.public_text(), timeout=PATIENCE)
    except TimeoutError:
        return False
    return True


async def stack_or_step(table: ScriptedTable) -> bool:
    """Stack a Draw 2 when one may be stacked, else lay a Draw 2 when one may be laid,
    else a scripted step; True once a Draw 2 was stacked on a Draw 2."""
    for user, choices in table.who_can_act():
        codes = [code_of(c) for c in choices]
        if "tv" in codes:  # hit by a Draw 2: stack one if held
            stack = [c for c in choices if code_of(c).endswith("+2")]
            if stack:
                await table.choose(user, stack[0])
                return True
        draw_twos = [
            c for c in choices if code_of(c).startswith("p.") and code_of(c).endswith("+2")
        ]
        if draw_twos:
            await table.choose(user, draw_twos[0])
            return False
    if not await table.step():
        await table.open_hands()
    return False


async def test_h3_a_player_not_in_turn_jumps_in_from_their_panel(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    admin = admin_of(emu, scene)
    await turn_on(driver, admin, scene, ["jump_in"])
    users = [scene.alice, scene.bob, emu.add_user("dora", guild=scene.guild)]
    table = ScriptedTable(driver, scene.channel, users, seed=11)
    await table.open("classic", target=500)
    await table.open_hands()
    jumped = False
    while table.actions < MAX_ACTIONS and not jumped:
        offers = [
            (user, c)
            for user in users
            if (panel := table.panel(user)) is not None
            for c in action_choices(panel)
            if code_of(c).startswith("j")
        ]
        if offers:
            await table.choose(*offers[0])
            # Refused if the top card changed a moment before the click: then go on.
            jumped = await shown_on_table(driver, table, "jumped in!")
        elif not await table.step():
            await table.open_hands()
    assert jumped, "nobody jumped in"
    assert table.failures() == []
    assert emu.log.failed == []
