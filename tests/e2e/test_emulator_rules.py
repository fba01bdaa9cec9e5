"""Discord's interaction rules, each tripped on purpose: answered as Discord does and recorded."""

from __future__ import annotations

import asyncio

import discord
import pytest

from playground import Driver, Emulator, RefusedByClient
from playground.models import Interaction, Permission
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.tinybot import TinyBot


async def test_no_answer_within_3_seconds_fails_the_interaction(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def silent(interaction: discord.Interaction, *, text: str) -> None:
        return None

    tiny_bot.handlers["probe"] = silent
    out = await driver.slash(scene.alice, scene.channel, "probe")  # waits out the real 3 s
    assert out.failed
    assert out.response_type is None
    [failure] = emu.log.failed
    assert (failure.name, failure.user) == ("/probe", "alice")
    assert emu.log.kinds() == ["interaction_failed"]


async def test_late_answer_is_rejected_with_10062(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    gate = asyncio.Event()

    async def slow(interaction: discord.Interaction, *, text: str) -> None:
        await gate.wait()
        await interaction.response.send_message("too late")

    tiny_bot.handlers["probe"] = slow
    out = await driver.slash(scene.alice, scene.channel, "probe", wait=False)
    await driver.wait_for(lambda: tiny_bot.calls)
    emu.clock.advance(Interaction.RESPONSE_DEADLINE + 0.1)
    assert out.failed
    gate.set()
    await driver.wait_for(lambda: tiny_bot.errors)
    [error] = tiny_bot.errors
    assert isinstance(error, discord.NotFound)
    assert error.code == 10062
    assert emu.log.kinds() == ["interaction_failed", "late_response"]
    assert out.message is None
    assert driver.visible(scene.alice, scene.channel) == []


async def test_second_initial_response_is_40060(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def twice(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("one")
        await tiny_bot.respond_raw(interaction, 4, {"content": "two"})

    tiny_bot.handlers["probe"] = twice
    out = await driver.slash(scene.alice, scene.channel, "probe")
    await driver.wait_for(lambda: tiny_bot.errors)
    [error] = tiny_bot.errors
    assert isinstance(error, discord.HTTPException)
    assert (error.status, error.code) == (400, 40060)
    assert emu.log.kinds() == ["already_acknowledged"]
    assert out.message is not None
    assert out.message.content == "one"


async def test_update_response_to_a_slash_command_is_refused(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def update(interaction: discord.Interaction, *, text: str) -> None:
        await tiny_bot.respond_raw(interaction, 7, {"content": "nothing to update"})

    tiny_bot.handlers["probe"] = update
    await driver.slash(scene.alice, scene.channel, "probe", wait=False)
    await driver.wait_for(lambda: tiny_bot.errors)
    assert emu.log.kinds()[0] == "bad_callback_type"


async def test_token_dies_after_15_minutes(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    out = await driver.slash(scene.alice, scene.channel, "uno admin reset")  # ephemeral answer
    interaction = tiny_bot.interactions[-1]
    emu.clock.advance(14 * 60)
    await interaction.edit_original_response(content="still alive")
    assert out.message is not None
    assert out.message.content == "still alive"
    emu.clock.advance(60 + 1)
    with pytest.raises(discord.HTTPException) as caught:
        await interaction.edit_original_response(content="too late")
    assert (caught.value.status, caught.value.code) == (401, 50027)
    with pytest.raises(discord.HTTPException):
        await interaction.followup.send("nor this")
    assert emu.log.kinds() == ["expired_token", "expired_token"]
    assert out.message.content == "still alive"


async def test_each_click_brings_a_fresh_token(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    view = _Renew()

    async def panel(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("hand", view=view, ephemeral=True)

    tiny_bot.handlers["probe"] = panel
    hand = (await driver.slash(scene.alice, scene.channel, "probe")).message
    assert hand is not None
    emu.clock.advance(20 * 60)  # the panel's own token is dead by now
    out = await driver.click(scene.alice, hand, "renew")
    assert not out.failed
    assert hand.content == "renewed"
    await view.clicks[-1].edit_original_response(content="edited via the new token")
    assert hand.content == "edited via the new token"


class _Renew(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.clicks: list[discord.Interaction] = []

    @discord.ui.button(label="Renew", custom_id="renew")
    async def renew(
        self, interaction: discord.Interaction, button: discord.ui.Button[_Renew]
    ) -> None:
        self.clicks.append(interaction)
        await interaction.response.edit_message(content="renewed")


async def test_ephemeral_is_private_and_not_reachable_by_channel(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def panel(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("your hand", view=_Renew(), ephemeral=True)

    tiny_bot.handlers["probe"] = panel
    out = await driver.slash(scene.alice, scene.channel, "probe")
    hand = out.message
    assert hand is not None
    assert out.ephemeral
    assert hand in driver.visible(scene.alice, scene.channel)
    assert driver.visible(scene.bob, scene.channel) == []
    with pytest.raises(RefusedByClient):
        await driver.click(scene.bob, hand, "renew")
    channel = tiny_bot.get_channel(scene.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.NotFound):
        await channel.get_partial_message(hand.id).edit(content="cheat")
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(hand.id)
    assert [m async for m in channel.history()] == []
    assert emu.log.kinds() == ["ephemeral_via_channel", "ephemeral_via_channel"]
    assert hand.content == "your hand"


async def test_followup_before_any_response_is_refused(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    async def eager(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.followup.send("too early")

    tiny_bot.handlers["probe"] = eager
    await driver.slash(scene.alice, scene.channel, "probe", wait=False)
    await driver.wait_for(lambda: tiny_bot.errors)
    assert isinstance(tiny_bot.errors[0], discord.NotFound)
    assert emu.log.kinds() == ["webhook_before_response"]


async def test_edit_bursts_get_429_and_discord_py_retries(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot
) -> None:
    # A 2 s window keeps the test short; the default is Discord's 5 edits per 5 s.
    emu.world.edit_limit.per = 2.0

    async def burst(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("table")
        original = await interaction.original_response()
        by_channel = original.channel.get_partial_message(original.id)  # type: ignore[union-attr]
        await asyncio.gather(
            *(by_channel.edit(content=f"channel {i}") for i in range(4)),
            *(interaction.edit_original_response(content=f"token {i}") for i in range(4)),
        )

    tiny_bot.handlers["probe"] = burst
    out = await driver.slash(scene.alice, scene.channel, "probe")
    await driver.wait_for(
        lambda: out.message is not None and out.message.edits == 8, timeout=PATIENCE
    )
    assert tiny_bot.errors == []
    limited = [c for c in emu.log.calls if c.status == 429]
    assert limited
    assert set(emu.log.kinds()) == {"rate_limited"}
    edits = [c for c in emu.log.calls if c.method == "PATCH" and c.status == 200]
    assert len(edits) == 8


async def test_edit_limit_counts_per_channel_on_the_emulator_clock(emu: Emulator) -> None:
    limit = emu.world.edit_limit
    for _ in range(5):
        limit.take(1)
    limit.take(2)  # another channel has its own window
    with pytest.raises(Exception, match="rate limited") as caught:
        limit.take(1)
    error = caught.value
    assert getattr(error, "status", None) == 429
    assert 0 < error.extra["retry_after"] <= 5.0  # type: ignore[attr-defined]
    assert error.headers["X-RateLimit-Remaining"] == "0"  # type: ignore[attr-defined]
    emu.clock.advance(5.0)
    limit.take(1)


async def test_edit_limit_names_one_bucket_for_every_channel(emu: Emulator) -> None:
    # Discord's bucket hash names the route's limit; clients add the channel id to it.
    # A hash per channel made discord.py re-key (and re-scan) its buckets on every edit.
    limit = emu.world.edit_limit
    limit.take(1)
    first, second = limit.headers(1), limit.headers(2)
    assert first["X-RateLimit-Bucket"] == second["X-RateLimit-Bucket"]
    assert (first["X-RateLimit-Remaining"], second["X-RateLimit-Remaining"]) == ("4", "5")


async def test_threads_are_opened_as_discord_allows(
    emu: Emulator, scene: Scene, tiny_bot: TinyBot
) -> None:
    http = tiny_bot.http
    posted = await http.send_message(
        scene.channel.id,
        params=discord.http.handle_message_parameters(content="table"),
    )
    thread = await http.start_thread_with_message(
        scene.channel.id, int(posted["id"]), name="UNO: alice vs bob", auto_archive_duration=1440
    )
    assert thread["id"] == posted["id"]  # a message's thread has the message's id
    assert thread["parent_id"] == str(scene.channel.id)
    with pytest.raises(discord.HTTPException) as again:
        await http.start_thread_with_message(
            scene.channel.id, int(posted["id"]), name="again", auto_archive_duration=1440
        )
    assert again.value.code == 160004
    with pytest.raises(discord.HTTPException) as nested:
        await http.start_thread_without_message(
            int(thread["id"]), name="inner", auto_archive_duration=1440, type=11
        )
    assert nested.value.code == 50024
    everyone = scene.guild.everyone
    emu.world.set_role_permissions(
        everyone, everyone.permissions & ~Permission.CREATE_PUBLIC_THREADS
    )
    bot_role = emu.world.bot_role(scene.guild)
    emu.world.set_role_permissions(
        bot_role, bot_role.permissions & ~Permission.CREATE_PUBLIC_THREADS
    )
    with pytest.raises(discord.Forbidden):
        await http.start_thread_without_message(
            scene.channel.id, name="denied", auto_archive_duration=1440, type=11
        )
    assert sorted(emu.log.kinds()) == ["missing_permissions", "thread_exists", "wrong_channel_type"]
