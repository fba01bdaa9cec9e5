"""The playground's server: a guild, a few channels and members to play as."""

from __future__ import annotations

from dataclasses import dataclass

from .models import Channel, Guild, Permission, User
from .server import Emulator

MEMBER_NAMES = ("alice", "bob", "carol", "dave")


@dataclass(frozen=True)
class Scene:
    guild: Guild
    channels: list[Channel]
    members: list[User]  # the people one can play as, in the switcher's order


def build_scene(emu: Emulator) -> Scene:
    """Make "Playground" with #uno (and a thread), #uno-2, and four members.

    dave owns the server, so he has Manage Server and every other permission.
    """
    users = [emu.add_user(name) for name in MEMBER_NAMES]
    guild = emu.add_guild("Playground", owner=users[-1])
    for user in users[:-1]:
        emu.add_member(guild, user)
    uno = emu.add_text_channel(guild, "uno")
    second = emu.add_text_channel(guild, "uno-2")
    thread = emu.add_thread(uno, "quick games")
    return Scene(guild, [uno, thread, second], users)


def manages_server(guild: Guild, user: User) -> bool:
    return bool(guild.member(user).permissions & Permission.MANAGE_GUILD)
