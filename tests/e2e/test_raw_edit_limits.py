"""The raw table edit path against the loopback Discord: it reads the channel's edit
bucket from the answers' headers and waits instead of meeting a 429, and a global 429
pauses the whole request budget, after which the edit goes through. A global 429 that
discord.py meets pauses the budget too."""

from __future__ import annotations

import asyncio

from cogs.uno.transport import channel, raw_http
from cogs.uno.transport.budget import budget, watch_requests
from playground import Emulator
from playground.discordpy import running
from tests.e2e.conftest import Scene
from tests.e2e.tinybot import TinyBot

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def test_hammering_one_channel_the_raw_path_never_meets_its_edit_limit(
    emu: Emulator, scene: Scene
) -> None:
    limit = emu.world.edit_limit.limit
    async with running(TinyBot(guild_id=scene.guild.id), emu) as bot:
        sent = await channel.post(bot, scene.channel.id, {"content": "table"})
        message_id = int(sent["id"])
        edits = [
            raw_http.edit_message(bot, scene.channel.id, message_id, {"content": f"move {n}"})
            for n in range(2 * limit + 2)  # three of the channel's windows
        ]
        await asyncio.gather(*edits)
    answered = emu.log.calls_to(EDIT)
    assert len(answered) == 2 * limit + 2
    assert [c.status for c in answered] == [200] * len(answered)
    assert emu.log.kinds() == []
    assert emu.world.messages[message_id].content.startswith("move ")


async def test_a_global_429_pauses_the_budget_and_the_edit_goes_after_it(
    emu: Emulator, scene: Scene
) -> None:
    async with running(TinyBot(guild_id=scene.guild.id), emu) as bot:
        sent = await channel.post(bot, scene.channel.id, {"content": "table"})
        message_id = int(sent["id"])
        emu.clock.hold()  # one emulator second, however slow the machine is
        emu.clock.advance(1.0)  # from an empty window: two edits go, the third is refused
        emu.world.global_limit.limit = 2
        shared = budget()
        first_pause = shared.paused
        edits = [
            raw_http.edit_message(bot, scene.channel.id, message_id, {"content": f"move {n}"})
            for n in range(3)
        ]
        edited = asyncio.gather(*edits)
        await emu.world.wait_for(lambda: shared.paused > first_pause, timeout=10)
        assert not edited.done()  # the third waits out the pause
        emu.clock.advance(1.0)  # the emulator's window frees
        await asyncio.wait_for(edited, timeout=10)
    assert [c.status for c in emu.log.calls_to(EDIT)] == [200, 200, 429, 200]
    assert shared.paused == first_pause + 1
    assert emu.log.kinds() == ["global_rate_limited"]


async def test_a_global_429_met_by_discord_py_pauses_the_budget(
    emu: Emulator, scene: Scene
) -> None:
    tiny = TinyBot(guild_id=scene.guild.id, http_trace=watch_requests())
    async with running(tiny, emu) as bot:
        emu.clock.hold()
        emu.clock.advance(1.0)  # an empty window: two posts go, the third is refused
        emu.world.global_limit.limit = 2
        shared = budget()
        first_pause = shared.paused
        posts = asyncio.gather(
            *(channel.post(bot, scene.channel.id, {"content": f"post {n}"}) for n in range(3))
        )
        await emu.world.wait_for(lambda: shared.paused > first_pause, timeout=10)
        emu.clock.advance(1.0)
        await asyncio.wait_for(posts, timeout=10)
    assert emu.log.kinds() == ["global_rate_limited"]
    assert shared.paused == first_pause + 1
