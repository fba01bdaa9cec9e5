"""The card pictures as application emojis, through the real discord.py client and the
loopback Discord: uploaded once, nothing uploaded on a restart, a redrawn card replaced
alone, images served at the emoji URL, and words when Discord refuses."""

from __future__ import annotations

import base64
from collections.abc import Mapping

import aiohttp
import discord

from cogs.uno.art import art_keys, card_image, emoji_name
from cogs.uno.art.emojis import CardEmojis, SyncResult, every_card_image
from cogs.uno.transport.budget import watch_requests
from playground import Emulator
from playground.discordpy import running
from tests.e2e.conftest import Scene
from tests.e2e.tinybot import TinyBot

CARDS = len(art_keys())


def emoji_calls(emu: Emulator, since: int = 0) -> list[str]:
    return [f"{c.method} {c.route}" for c in emu.log.calls[since:] if "/emojis" in c.route]


async def sync_once(
    emu: Emulator, scene: Scene, images: Mapping[str, bytes] | None = None
) -> CardEmojis:
    """Start a bot, sync its card emojis, stop it: one start of the bot (whose requests
    take their slots in the request budget, as the bot's do)."""
    emojis = CardEmojis() if images is None else CardEmojis(lambda: images)
    async with running(TinyBot(guild_id=scene.guild.id, http_trace=watch_requests()), emu) as bot:
        await emojis.sync(bot)
    return emojis


async def fetch(url: str) -> tuple[int, str, bytes]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, response.content_type, await response.read()


async def test_first_start_uploads_every_card_and_a_restart_uploads_nothing(
    emu: Emulator, scene: Scene
) -> None:
    first = await sync_once(emu, scene)
    assert first.last == SyncResult(ok=True, created=CARDS, deleted=0, kept=0)
    assert emoji_calls(emu).count("POST /applications/{application_id}/emojis") == CARDS
    wanted = {emoji_name(key, card_image(key)) for key in art_keys()}
    assert set(emu.world.emojis.names()) == wanted

    before = len(emu.log.calls)
    again = await sync_once(emu, scene)  # the bot restarts
    assert emoji_calls(emu, before) == ["GET /applications/{application_id}/emojis"]
    assert again.last == SyncResult(ok=True, created=0, deleted=0, kept=CARDS)
    for key in ("R5", "back"):
        assert again.partial(key) == first.partial(key)
    assert again.partial("W+4", "B") == first.partial("W+4", "B")


def busiest_second(emu: Emulator) -> int:
    """The most requests the emulator answered within one second."""
    times = [c.at for c in emu.log.calls]
    return max((sum(1 for t in times[i:] if t < at + 1.0) for i, at in enumerate(times)), default=0)


async def test_a_first_start_stays_within_discords_global_limit(
    emu: Emulator, scene: Scene
) -> None:
    await sync_once(emu, scene)
    assert len(emu.world.emojis.names()) == CARDS
    assert [c for c in emu.log.calls if c.status == 429] == []
    assert "global_rate_limited" not in emu.log.kinds()
    # Every upload takes its slot in the request budget (40 a second), with the bot's other
    # calls; a busy emulator reads some of a second's requests late, so its own count of a
    # second may pass 40, never Discord's 50.
    assert busiest_second(emu) < 50


async def test_a_redrawn_card_replaces_only_its_own_emoji(emu: Emulator, scene: Scene) -> None:
    logo = "data:image/png;base64," + base64.b64encode(card_image("back")).decode()
    emu.world.emojis.create(emu.world.application_id, {"name": "uno_logo", "image": logo})
    old = await sync_once(emu, scene)
    redrawn = {**every_card_image(), "G7": card_image("Y7")}  # a new picture for Green 7
    before = len(emu.log.calls)
    new = await sync_once(emu, scene, redrawn)
    assert new.last == SyncResult(ok=True, created=1, deleted=1, kept=CARDS - 1)
    assert sorted(emoji_calls(emu, before)) == [
        "DELETE /applications/{application_id}/emojis/{emoji_id}",
        "GET /applications/{application_id}/emojis",
        "POST /applications/{application_id}/emojis",
    ]
    old_g7, new_g7 = old.partial("G7"), new.partial("G7")
    assert old_g7 is not None
    assert new_g7 is not None
    assert old_g7.name not in emu.world.emojis.names()
    assert new_g7.name in emu.world.emojis.names()
    assert new.partial("R5") == old.partial("R5")
    assert "uno_logo" in emu.world.emojis.names()  # the owner's own emoji is not ours to delete


async def test_emoji_lookups_serve_buttons_text_and_a_thumbnail(
    emu: Emulator, scene: Scene
) -> None:
    emojis = CardEmojis()
    async with running(TinyBot(guild_id=scene.guild.id), emu) as bot:
        await emojis.sync(bot)
        red5, inline, url = emojis.partial("R5"), emojis.inline("R5"), emojis.url("W+4", "B")
        assert red5 is not None
        assert inline is not None
        assert url is not None
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Red 5", emoji=red5, custom_id="play:R5"))
        embed = discord.Embed(title="Top card").set_thumbnail(url=url)
        channel = bot.get_channel(scene.channel.id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send(f"You hold {inline} Red 5", embed=embed, view=view)

    message = next(m for m in emu.world.messages.values() if m.channel is scene.channel)
    made = {e.name: e for e in emu.world.emojis.by_id.values()}[red5.name]
    assert inline == f"<:{made.name}:{made.id}>"
    assert inline in message.content
    button = message.components[0]["components"][0]
    assert (int(button["emoji"]["id"]), button["emoji"]["name"]) == (made.id, made.name)
    assert message.embeds[0]["thumbnail"]["url"] == url
    assert url.startswith(emu.base_url + "/emojis/")
    assert await fetch(url) == (200, "image/png", card_image("W+4/B"))
    assert (await fetch(emu.base_url + "/emojis/12345.png"))[0] == 404


async def test_refused_emojis_leave_the_bot_with_words(emu: Emulator, scene: Scene) -> None:
    emu.world.emojis.refused = True
    emojis = await sync_once(emu, scene)
    assert emojis.last == SyncResult(ok=False)
    assert not emojis.ready
    assert emojis.partial("R5") is None
    assert emojis.inline("R5") is None
    assert emojis.url("W", "G") is None
    assert emoji_calls(emu) == ["GET /applications/{application_id}/emojis"]
    assert emu.log.calls[-1].status == 403


async def test_a_failed_upload_leaves_no_emojis_and_the_next_start_finishes(
    emu: Emulator, scene: Scene
) -> None:
    emu.world.emojis.limit = 10  # Discord answers 30008 once the application is full
    first = await sync_once(emu, scene)
    assert first.last == SyncResult(ok=False)
    assert first.partial("R0") is None
    assert len(emu.world.emojis.names()) == 10

    emu.world.emojis.limit = 2000
    before = len(emu.log.calls)
    second = await sync_once(emu, scene)
    assert second.last == SyncResult(ok=True, created=CARDS - 10, deleted=0, kept=10)
    assert emoji_calls(emu, before).count("POST /applications/{application_id}/emojis") == (
        CARDS - 10
    )
