"""The emulator's connection side: login, gateway handshake, guild cache, command sync."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from playground import Driver, Emulator
from playground.discordpy import running
from tests.e2e.conftest import Scene
from tests.e2e.tinybot import TinyBot


async def test_login_ready_and_guild_create(emu: Emulator, scene: Scene, tiny_bot: TinyBot) -> None:
    guild = tiny_bot.get_guild(scene.guild.id)
    assert guild is not None
    assert tiny_bot.user is not None
    assert tiny_bot.user.id == emu.world.bot.id
    assert tiny_bot.application_id == emu.world.application_id
    assert [c.name for c in guild.text_channels] == ["uno"]
    assert {r.name for r in guild.roles} >= {"@everyone", "UnoBot", "mod role"}
    # No privileged members intent: Discord sends only the bot's own member.
    assert [m.id for m in guild.members] == [emu.world.bot.id]
    assert guild.me.guild_permissions.send_messages
    routes = [f"{c.method} {c.route}" for c in emu.log.calls]
    assert routes[:2] == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert emu.gateway.identifies == 1
    assert emu.gateway.heartbeats >= 1  # discord.py beats right after HELLO


async def test_members_intent_gets_every_member(emu: Emulator, scene: Scene) -> None:
    intents = discord.Intents.default()
    intents.members = True
    async with running(TinyBot(guild_id=scene.guild.id, intents=intents), emu) as bot:
        guild = bot.get_guild(scene.guild.id)
        assert guild is not None
        assert {m.name for m in guild.members} == {
            u.user.name for u in scene.guild.members.values()
        }
        mod = guild.get_member(scene.mod.id)
        assert mod is not None
        assert mod.guild_permissions.manage_messages
        chunked = await asyncio.wait_for(guild.chunk(), 5)  # op 8 -> GUILD_MEMBERS_CHUNK
        assert len(chunked) == len(scene.guild.members)


async def test_wrong_token_answers_401_and_login_fails(emu: Emulator, scene: Scene) -> None:
    with pytest.raises(discord.LoginFailure):
        async with running(TinyBot(guild_id=scene.guild.id), emu, token="not-the-token"):
            pass
    assert emu.log.calls[0].status == 401
    assert emu.log.of_kind("unauthorized")


async def test_refused_token_is_configurable(emu: Emulator, scene: Scene) -> None:
    emu.world.refused_tokens.add(emu.token)
    with pytest.raises(discord.LoginFailure):
        async with running(TinyBot(guild_id=scene.guild.id), emu):
            pass


async def test_commands_are_synced_and_read_back(
    emu: Emulator, scene: Scene, tiny_bot: TinyBot
) -> None:
    guild_commands = emu.world.commands[scene.guild.id]
    assert [c.name for c in guild_commands] == ["uno"]
    assert [c.name for c in emu.world.commands[None]] == ["probe", "sweep"]
    uno = guild_commands[0].payload()
    assert {o["name"] for o in uno["options"]} == {"duo", "admin"}
    fetched = await tiny_bot.tree.fetch_commands(guild=discord.Object(scene.guild.id))
    assert [c.name for c in fetched] == ["uno"]
    assert fetched[0].id == guild_commands[0].id


async def test_resync_keeps_command_ids(emu: Emulator, scene: Scene, tiny_bot: TinyBot) -> None:
    before = emu.world.commands[None][0].id
    await tiny_bot.tree.sync()
    assert emu.world.commands[None][0].id == before


async def test_gateway_bot_answers_the_websocket_url(emu: Emulator) -> None:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{emu.api_base}/gateway/bot", headers=headers) as response,
    ):
        body = await response.json()
    assert body["url"] == emu.gateway_url
    assert body["shards"] == 1


async def test_unknown_route_answers_404_and_is_recorded(
    emu: Emulator, scene: Scene, tiny_bot: TinyBot
) -> None:
    route = discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=scene.guild.id)
    with pytest.raises(discord.NotFound):
        await tiny_bot.http.request(route)
    assert emu.log.calls[-1].status == 404
    assert emu.log.of_kind("unknown_route")[0].detail.endswith("/bans")


async def test_resume_after_the_socket_drops(
    emu: Emulator, driver_scene_bot: tuple[Scene, TinyBot]
) -> None:
    scene, bot = driver_scene_bot
    session = next(iter(emu.gateway.sessions.values()))
    assert session.ws is not None
    await session.ws.close(code=4000)  # a non-final close: discord.py resumes
    await emu.world.wait_for(lambda: emu.gateway.resumes == 1 and emu.gateway.connected)
    assert emu.gateway.identifies == 1
    message = await bot.get_channel(scene.channel.id).send("still here")  # type: ignore[union-attr]
    assert emu.world.messages[message.id].content == "still here"


@pytest.fixture
async def driver_scene_bot(scene: Scene, tiny_bot: TinyBot) -> tuple[Scene, TinyBot]:
    return scene, tiny_bot


async def test_a_restarted_bot_identifies_again(emu: Emulator, scene: Scene) -> None:
    async with running(TinyBot(guild_id=scene.guild.id), emu):
        pass
    before = emu.gateway.identifies
    async with running(TinyBot(guild_id=scene.guild.id), emu):
        await emu.wait_connected(after=before)
        out = await Driver(emu).slash(scene.alice, scene.channel, "probe", text="back")
        assert out.message is not None
        assert out.message.content == "back"
    assert emu.gateway.identifies == before + 1
