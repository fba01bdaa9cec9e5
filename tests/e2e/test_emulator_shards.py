"""Gateway sharding as Discord does it: `GET /gateway/bot` recommends a shard count,
IDENTIFY carries `[shard_id, shard_count]`, a server's events reach only the connection of
shard `(guild_id >> 22) % shard_count`, and a bad shard is refused with 4010 or 4011."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import aiohttp
import pytest

from playground import Driver, Emulator, Guild
from playground.discordpy import running
from playground.shards import Shard
from tests.e2e.tinybot import TinyBot

IDENTIFY, HELLO = 2, 10

# Another process that connects as one shard and prints, a line each, the events it hears.
SHARD_PROCESS = """
import asyncio, json, sys
import aiohttp

async def main(url, token, shard_id, count):
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.receive_json()
        shard = [shard_id, count]
        await ws.send_json({"op": 2, "d": {"token": token, "intents": 1, "shard": shard}})
        async for frame in ws:
            event = json.loads(frame.data)
            data = event["d"] or {}
            own = data.get("id") if event["t"] == "GUILD_CREATE" else None
            guild = data.get("guild_id") or own
            print(json.dumps([event["t"], guild]), flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
"""


async def identify(emu: Emulator, shard: Any = None) -> tuple[int | None, dict[str, Any]]:
    """Identify on a raw socket; return the close code (None: accepted) and the READY."""
    data: dict[str, Any] = {"token": emu.token, "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    async with aiohttp.ClientSession() as session, session.ws_connect(emu.gateway_url) as ws:
        hello = await ws.receive_json(timeout=10)
        assert hello["op"] == HELLO
        await ws.send_json({"op": IDENTIFY, "d": data})
        frame = await ws.receive(timeout=10)
        if frame.type is aiohttp.WSMsgType.CLOSE:
            return frame.data, {}
        ready = json.loads(frame.data)
        assert ready["t"] == "READY"
        return None, ready["d"]


async def bot_gateway(emu: Emulator) -> dict[str, Any]:
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{emu.api_base}/gateway/bot", headers=headers) as response,
    ):
        body: dict[str, Any] = await response.json()
        return body


def server(emu: Emulator, name: str, shard: tuple[int, int]) -> Guild:
    guild = emu.add_guild(name, shard=shard)
    emu.add_text_channel(guild, "uno")
    emu.add_user(f"{name} player", guild=guild)
    return guild


async def test_gateway_bot_recommends_the_emulators_shards_and_counts_session_starts() -> None:
    async with Emulator(shards=4) as emu:
        before = await bot_gateway(emu)
        assert before["shards"] == 4
        assert before["url"] == emu.gateway_url
        assert before["session_start_limit"]["total"] == 1000
        assert before["session_start_limit"]["remaining"] == 1000
        assert before["session_start_limit"]["max_concurrency"] == 1
        assert (await identify(emu, [3, 4]))[0] is None
        after = (await bot_gateway(emu))["session_start_limit"]
        assert after["remaining"] == 999
        assert 0 < after["reset_after"] <= 24 * 3600 * 1000


async def test_a_servers_events_reach_only_its_shards_connection(emu: Emulator) -> None:
    emu.gateway.shards = 2
    first, second = server(emu, "zero", (0, 2)), server(emu, "one", (1, 2))
    shard0 = TinyBot(guild_id=first.id, shard_id=0, shard_count=2)
    shard1 = TinyBot(guild_id=second.id, shard_id=1, shard_count=2)
    async with running(shard0, emu), running(shard1, emu):
        await emu.wait_connected(shards=2)
        assert emu.gateway.connected_shards() == {Shard(0, 2), Shard(1, 2)}
        assert [g.id for g in shard0.guilds] == [first.id]
        assert [g.id for g in shard1.guilds] == [second.id]

        driver = Driver(emu)
        for guild, bot, other in ((first, shard0, shard1), (second, shard1, shard0)):
            player = next(m.user for m in guild.members.values() if m.user.name.endswith("player"))
            out = await driver.slash(player, guild.channels[0], "probe", text=guild.name)
            assert out.message is not None
            assert out.message.content == guild.name
            assert [kwargs["text"] for _, kwargs in bot.calls] == [guild.name]
            assert [kwargs["text"] for _, kwargs in other.calls] == []
            bot.calls.clear()

        later = server(emu, "later", (1, 2))  # a server that invites the bot afterwards
        await driver.wait_for(lambda: shard1.get_guild(later.id) is not None)
        assert shard0.get_guild(later.id) is None


async def test_a_second_process_connects_as_the_other_shard(emu: Emulator) -> None:
    emu.gateway.shards = 2
    first, second = server(emu, "zero", (0, 2)), server(emu, "one", (1, 2))
    shard0 = TinyBot(guild_id=first.id, shard_id=0, shard_count=2)
    args = (emu.gateway_url, emu.token, "1", "2")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SHARD_PROCESS, *args, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    try:
        async with running(shard0, emu):
            await emu.wait_connected(shards=2, timeout=30)
            heard = [json.loads(await asyncio.wait_for(process.stdout.readline(), 30))]
            heard.append(json.loads(await asyncio.wait_for(process.stdout.readline(), 30)))
            assert heard == [["READY", None], ["GUILD_CREATE", str(second.id)]]

            player = next(m.user for m in second.members.values() if m.user.name == "one player")
            await Driver(emu).slash(player, second.channels[0], "probe", wait=False)
            line = await asyncio.wait_for(process.stdout.readline(), 30)
            assert json.loads(line) == ["INTERACTION_CREATE", str(second.id)]
            shard0_frames = next(
                s.sent for s in emu.gateway.sessions.values() if s.shard == Shard(0, 2)
            )
            assert "INTERACTION_CREATE" not in [f["t"] for f in shard0_frames]
    finally:
        process.kill()
        await process.wait()


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [1], "0,1", [0.0, 1], [True, 2]])
async def test_a_wrong_shard_id_or_count_is_refused_with_4010(emu: Emulator, shard: Any) -> None:
    code, _ = await identify(emu, shard)
    assert code == 4010
    assert emu.gateway.identifies == 0


async def test_a_shard_carrying_too_many_servers_is_refused_with_4011(emu: Emulator) -> None:
    emu.gateway.guilds_per_shard = 1  # Discord's 2,500, made small
    first, second = server(emu, "zero", (0, 2)), server(emu, "one", (1, 2))
    assert (await identify(emu))[0] == 4011  # one connection for both servers: too many
    for shard, guild in ((0, first), (1, second)):  # split in two, each carries one
        code, ready = await identify(emu, [shard, 2])
        assert code is None
        assert ready["shard"] == [shard, 2]
        assert [g["id"] for g in ready["guilds"]] == [str(guild.id)]
