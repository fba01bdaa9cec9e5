"""`/uno settings` and tables that follow them, through the module's shared bot (the
turn pings that `/uno pings` and the settings change: test_pings.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from db.database import Database
from playground import Driver, Emulator, Message, Outcome, User
from playground.models import Permission
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, is_table_message, lobby_id

NUMBERS = {"turn_seconds": "30", "target_duo": "100", "target_pizza": "250"}
NUMBERS |= {"target_classic": "500"}


def admin_of(emu: Emulator, scene: Scene) -> User:
    admin = emu.add_user("admin")
    emu.add_member(scene.guild, admin, permissions=Permission.MANAGE_GUILD)
    return admin


def private(outcome: Outcome, user: User) -> Message:
    assert not outcome.failed
    message = outcome.message
    assert message is not None
    assert message.ephemeral_to is user
    return message


def description(message: Message) -> str:
    return str(message.embeds[0]["description"])


def field(message: Message, name: str) -> str:
    return str(next(f["value"] for f in message.embeds[0]["fields"] if f["name"] == name))


async def settings_panel(driver: Driver, admin: User, scene: Scene) -> Message:
    return private(await driver.slash(admin, scene.channel, "uno settings"), admin)


async def test_settings_changed_and_a_new_table_follows_them(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    admin = admin_of(emu, scene)
    panel = await settings_panel(driver, admin, scene)
    assert "**Turn time:** 90 seconds (the bot's default)" in description(panel)
    assert "112 cards" in description(panel)

    chose = await driver.select(admin, panel, "uno:set.deck", ["108"])
    assert "**UNO Duo deck:** 108 cards" in description(private(chose, admin))
    form = await driver.click(admin, private(chose, admin), "uno:set.numbers")
    assert form.modal is not None
    assert form.modal["title"] == "Turn time and targets"

    wrong = await driver.submit_modal(admin, form, {**NUMBERS, "turn_seconds": "3"})
    assert private(wrong, admin).content.startswith("Nothing was changed:")
    assert "from 5 to 3600 seconds" in private(wrong, admin).content
    saved = await driver.submit_modal(admin, form, NUMBERS)
    assert "**Turn time:** 30 seconds\n" in description(private(saved, admin))
    assert "UNO Duo 100" in description(private(saved, admin))

    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob])
    await table.open("duo")  # no target: the server's
    shown = table.table_message()
    assert shown is not None
    assert field(shown, "Table options") == "30 s a turn · classic deck (108 cards)"
    async with Database.open(database) as db:
        # The module's bot runs other tests' tables too: this server's is the one.
        tables = await db.tables.running_tables()
        (running,) = [t for t in tables if t.match.guild_id == scene.guild.id]
        assert running.match.options["target"] == 100
        assert json.loads(running.snapshot_json)["options"]["classic_deck"] is True
        deadline = running.match.turn_deadline
    assert deadline is not None
    left = (deadline - datetime.now(UTC)).total_seconds()
    assert left <= 31  # the server's 30 s, not the bot's 90


async def test_settings_refused_without_manage_server(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    answer = private(await driver.slash(scene.mod, scene.channel, "uno settings"), scene.mod)
    assert answer.content == (
        "Only members with **Manage Server** can change the UNO settings of this server."
    )
    assert answer.components == []


async def test_a_thread_table_opens_in_its_own_thread(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    admin = admin_of(emu, scene)
    panel = await settings_panel(driver, admin, scene)
    chose = await driver.select(admin, panel, "uno:set.table", ["thread", "mention"])
    assert "**Tables:** each in its own thread" in description(private(chose, admin))

    lobby = private_or_public(await driver.slash(scene.alice, scene.channel, "uno duo"))
    await driver.click(scene.bob, lobby, lobby_id(lobby, "join"))
    thread = await driver.wait_for(lambda: _thread_of(emu, scene), timeout=PATIENCE)
    table = await driver.wait_for(
        lambda: next((m for m in driver.visible(scene.alice, thread) if is_table_message(m)), None),
        timeout=PATIENCE,
    )
    assert table.channel is thread
    assert thread.id == lobby.id
    assert f"<#{thread.id}>" in description(driver.message(lobby.id))
    assert driver.message(lobby.id).components == []
    assert emu.log.violations == []


async def test_thread_tables_need_create_public_threads(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    async with Database.open(database) as db:
        await db.settings.update(scene.guild.id, thread_tables=True)
    lacking = ~Permission.CREATE_PUBLIC_THREADS
    emu.world.set_role_permissions(scene.guild.everyone, scene.guild.everyone.permissions & lacking)
    bot_role = emu.world.bot_role(scene.guild)
    emu.world.set_role_permissions(bot_role, bot_role.permissions & lacking)
    answer = await driver.slash(scene.alice, scene.channel, "uno duo")
    refusal = private(answer, scene.alice).content
    assert "I need **Create Public Threads** here" in refusal
    assert _thread_of(emu, scene) is None


def private_or_public(outcome: Outcome) -> Message:
    assert not outcome.failed
    assert outcome.message is not None
    return outcome.message


def _thread_of(emu: Emulator, scene: Scene) -> object:
    return next(
        (c for c in emu.world.channels.values() if c.parent is scene.channel and not c.deleted),
        None,
    )
