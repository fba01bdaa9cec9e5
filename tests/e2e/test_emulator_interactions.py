"""Happy paths: slash commands, buttons, selects, followups, edits, defers, messages, files."""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest

from playground import CallbackType, Driver, Emulator, Permission, RefusedByClient
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.tinybot import TinyBot


async def test_slash_with_member_option_and_resolved_data(
    driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    out = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.bob, target=300)
    assert out.response_type is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    assert out.message is not None
    assert not out.ephemeral
    assert out.message.content == f"Duo table to 300 vs <@{scene.bob.id}>"
    assert [b["label"] for b in out.message.buttons()] == ["Join"]
    _, kwargs = tiny_bot.calls[-1]
    opponent = kwargs["opponent"]
    assert isinstance(opponent, discord.Member)  # built from `resolved` members + users
    assert opponent.id == scene.bob.id
    assert tiny_bot.interactions[-1].user.id == scene.alice.id
    assert driver.read(out.message) == "Duo table to 300 vs @bob"
    assert out.message in driver.visible(scene.bob, scene.channel)


async def test_subcommand_group_and_defaults(
    driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    out = await driver.slash(scene.mod, scene.channel, "uno admin reset")
    assert out.message is not None
    assert out.message.content == "Scores reset"
    duo = await driver.slash(scene.alice, scene.channel, "uno duo")
    assert duo.message is not None
    assert duo.message.content == "Duo table to 500 vs anyone"


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"target": 99}, "outside"),
        ({"target": "300"}, "cannot take"),
        ({"colour": "red"}, "no option"),
    ],
)
async def test_the_client_refuses_bad_options(
    driver: Driver, scene: Scene, tiny_bot: TinyBot, options: dict[str, object], reason: str
) -> None:
    with pytest.raises(RefusedByClient, match=reason):
        await driver.slash(scene.alice, scene.channel, "uno duo", **options)  # type: ignore[arg-type]
    assert tiny_bot.calls == []


async def test_button_click_updates_the_message(
    driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    table = (await driver.slash(scene.alice, scene.channel, "uno duo")).message
    assert table is not None
    out = await driver.click(scene.bob, table, label="Join")
    assert out.response_type is CallbackType.UPDATE_MESSAGE
    assert out.message is table
    assert table.content == "bob joined"
    assert table.edits == 1


async def test_select_answers_privately(driver: Driver, scene: Scene, tiny_bot: TinyBot) -> None:
    table = (await driver.slash(scene.alice, scene.channel, "uno duo")).message
    assert table is not None
    out = await driver.select(scene.bob, table, "probe:pick", ["2"])
    assert out.ephemeral
    assert out.message is not None
    assert out.message.content == "picked 2"
    assert out.message in driver.visible(scene.bob, scene.channel)
    assert out.message not in driver.visible(scene.alice, scene.channel)
    with pytest.raises(RefusedByClient):
        await driver.select(scene.bob, table, "probe:pick", ["7"])


async def test_followup_and_edit_original(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def probe(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("first")
        await interaction.followup.send("second")
        await interaction.followup.send("secret", ephemeral=True)
        await interaction.edit_original_response(content="first, edited")
        original = await interaction.original_response()
        fetched.append(original.content)

    fetched: list[str] = []
    tiny_bot.handlers["probe"] = probe
    out = await driver.slash(scene.alice, scene.channel, "probe")
    await driver.wait_for(lambda: fetched or tiny_bot.errors)
    assert fetched == ["first, edited"]
    assert out.message is not None
    assert out.message.content == "first, edited"
    assert [m.content for m in out.followups] == ["second", "secret"]
    assert [m.ephemeral for m in out.followups] == [False, True]
    assert [m.content for m in driver.visible(scene.bob, scene.channel)] == [
        "first, edited",
        "second",
    ]


async def test_followups_edited_and_deleted_by_id_and_original_deleted(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def probe(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("table")
        note = await interaction.followup.send("note", wait=True)
        gone = await interaction.followup.send("gone", ephemeral=True, wait=True)
        await note.edit(content="note, edited")
        await gone.delete()
        await interaction.delete_original_response()
        finished.append(True)

    finished: list[bool] = []
    tiny_bot.handlers["probe"] = probe
    out = await driver.slash(scene.alice, scene.channel, "probe")
    await driver.wait_for(lambda: finished or tiny_bot.errors)
    assert tiny_bot.errors == []
    assert [m.content for m in driver.visible(scene.alice, scene.channel)] == ["note, edited"]
    assert out.message is not None
    assert out.message.deleted
    routes = {c.route for c in emu.log.calls_to("/webhooks/")}
    assert "/webhooks/{application_id}/{token}/messages/{message_id}" in routes


async def test_wait_idle_waits_for_the_bots_last_request(
    driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def chatty(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("0")
        for i in range(1, 4):
            await interaction.edit_original_response(content=str(i))

    tiny_bot.handlers["probe"] = chatty
    out = await driver.slash(scene.alice, scene.channel, "probe")
    await driver.wait_idle(quiet=0.2)
    assert out.message is not None
    assert out.message.content == "3"


async def test_defer_then_followup_fills_the_placeholder(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def probe(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("done thinking")

    tiny_bot.handlers["probe"] = probe
    out = await driver.slash(scene.alice, scene.channel, "probe")
    assert out.response_type is CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    message = await out.wait_message()
    assert emu.world.still_thinking() == []
    assert message.content == "done thinking"
    assert message.ephemeral
    assert out.followups == []  # Discord edits the "thinking" message instead


async def test_defer_update_then_edit_original(
    driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def join(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="edited after defer", view=None)

    tiny_bot.handlers["join"] = join
    table = (await driver.slash(scene.alice, scene.channel, "uno duo")).message
    assert table is not None
    out = await driver.click(scene.bob, table, "probe:join")
    assert out.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE
    await driver.wait_for(lambda: table.content == "edited after defer")
    assert table.components == []


async def test_channel_message_crud_and_history(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    channel = tiny_bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("one", embed=discord.Embed(title="Table", description="Red 7"))
    assert driver.message(first.id).embeds[0]["title"] == "Table"
    second = await channel.send("two")
    await first.edit(content="one, edited")
    fetched = await channel.fetch_message(first.id)
    assert fetched.content == "one, edited"
    assert fetched.embeds[0].title == "Table"
    assert [m.content async for m in channel.history(limit=10)] == ["two", "one, edited"]
    await second.delete()
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(second.id)
    assert [m.content for m in driver.visible(scene.alice, scene.channel)] == ["one, edited"]
    assert "Red 7" in emu.world.messages[first.id].text()


async def test_user_message_reaches_the_bot_without_content_intent(
    driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    said = driver.say(scene.alice, scene.channel, "hello bot")
    message = await tiny_bot.wait_for("message", timeout=PATIENCE)
    assert message.id == said.id
    assert message.content == ""


async def test_attachments_are_stored_and_served(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def probe(interaction: discord.Interaction, *, text: str) -> None:
        file = discord.File(io.BytesIO(b"card art"), filename="card.png")
        await interaction.response.send_message("with a file", file=file)

    tiny_bot.handlers["probe"] = probe
    out = await driver.slash(scene.alice, scene.channel, "probe")
    assert out.message is not None
    [attachment] = out.message.attachments
    assert attachment.filename == "card.png"
    assert attachment.data == b"card art"
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
        assert await response.read() == b"card art"
    channel = tiny_bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(file=discord.File(io.BytesIO(b"log"), filename="log.txt"))
    assert sent.attachments[0].filename == "log.txt"
    assert await sent.attachments[0].read() == b"log"


async def test_modal_round_trip(driver: Driver, scene: Scene, tiny_bot: TinyBot) -> None:
    submitted: list[str] = []

    class Name(discord.ui.Modal, title="Name your table"):
        name: discord.ui.TextInput[Name] = discord.ui.TextInput(label="Name", custom_id="name")

        async def on_submit(self, interaction: discord.Interaction) -> None:
            submitted.append(self.name.value)
            await interaction.response.send_message(f"named {self.name.value}")

    async def probe(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_modal(Name())

    tiny_bot.handlers["probe"] = probe
    shown = await driver.slash(scene.alice, scene.channel, "probe")
    assert shown.response_type is CallbackType.MODAL
    answer = await driver.submit_modal(scene.alice, shown, {"name": "Friday UNO"})
    assert submitted == ["Friday UNO"]
    assert answer.message is not None
    assert answer.message.content == "named Friday UNO"


async def test_commands_work_in_a_thread(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    thread = emu.add_thread(scene.channel, "table 1")
    out = await driver.slash(scene.alice, thread, "uno duo")
    assert out.message is not None
    assert out.message.channel is thread
    assert isinstance(tiny_bot.interactions[-1].channel, discord.Thread)
    assert driver.visible(scene.bob, scene.channel) == []


async def test_missing_permissions_are_403_and_seen_by_the_bot(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    emu.world.set_role_permissions(scene.guild.everyone, Permission.USE_APPLICATION_COMMANDS)
    emu.world.set_role_permissions(emu.world.bot_role(scene.guild), Permission.VIEW_CHANNEL)
    guild = tiny_bot.get_guild(scene.guild.id)
    assert guild is not None
    await driver.wait_for(lambda: not guild.me.guild_permissions.send_messages)
    channel = guild.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("hello")
    assert caught.value.code == 50013
    assert emu.log.kinds() == ["missing_permissions"]
    # Interaction answers need no channel permission.
    out = await driver.slash(scene.alice, scene.channel, "uno duo")
    assert out.message is not None


async def test_commands_with_default_permissions_are_hidden_from_others(
    driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    with pytest.raises(RefusedByClient, match="needs permissions"):
        await driver.slash(scene.alice, scene.channel, "sweep")
    out = await driver.slash(scene.mod, scene.channel, "sweep")
    assert out.message is not None
    assert out.message.content == "Swept"


async def test_a_defer_never_followed_up_is_visible(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def forgetful(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.defer(thinking=True)

    tiny_bot.handlers["probe"] = forgetful
    out = await driver.slash(scene.alice, scene.channel, "probe")
    assert not out.failed
    assert emu.world.still_thinking() == [out.interaction]
    assert driver.visible(scene.alice, scene.channel) == []  # only "UnoBot is thinking..."
