"""Fixtures for the end-to-end tests: the loopback Discord, its driver, a scene, a tiny bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from playground import Channel, Driver, Emulator, Guild, Permission, User
from playground.discordpy import running
from tests.e2e.tinybot import TinyBot


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator() as emulator:
        yield emulator


@pytest.fixture
def driver(emu: Emulator) -> Driver:
    return Driver(emu)


@dataclass
class Scene:
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    mod: User  # a member with Manage Messages


@pytest.fixture
def scene(emu: Emulator) -> Scene:
    guild = emu.add_guild("Uno Club")
    channel = emu.add_text_channel(guild, "uno")
    alice = emu.add_user("alice", guild=guild)
    bob = emu.add_user("bob", guild=guild)
    mod = emu.add_user("mod")
    emu.add_member(guild, mod, permissions=Permission.MANAGE_MESSAGES)
    return Scene(guild, channel, alice, bob, mod)


@pytest.fixture
async def tiny_bot(emu: Emulator, scene: Scene) -> AsyncIterator[TinyBot]:
    bot = TinyBot(guild_id=scene.guild.id)
    async with running(bot, emu):
        yield bot
