"""A loopback Discord: HTTP API + gateway that the unmodified discord.py talks to.

    async with Emulator() as emu:
        guild = emu.add_guild("Test")
        alice = emu.add_user("alice", guild=guild)
        channel = emu.add_text_channel(guild, "uno")
        ...start a bot with Route.BASE = emu.api_base, gateway emu.gateway_url...
        driver = Driver(emu)
        outcome = await driver.slash(alice, channel, "uno duo", target=300)

The core (everything here) does not import pytest.
"""

from .driver import Driver, Outcome, RefusedByClient
from .errors import ApiError
from .log import FailedInteraction, Log, RestCall, Violation
from .models import (
    CallbackType,
    Channel,
    Guild,
    Interaction,
    InteractionType,
    Member,
    Message,
    MessageFlag,
    Permission,
    Role,
    User,
)
from .server import Emulator
from .world import World

__all__ = [
    "ApiError",
    "CallbackType",
    "Channel",
    "Driver",
    "Emulator",
    "FailedInteraction",
    "Guild",
    "Interaction",
    "InteractionType",
    "Log",
    "Member",
    "Message",
    "MessageFlag",
    "Outcome",
    "Permission",
    "RefusedByClient",
    "RestCall",
    "Role",
    "User",
    "Violation",
    "World",
]
