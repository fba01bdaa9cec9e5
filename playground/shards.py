"""Gateway sharding: which connection hears which server's events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import Channel, Guild, Interaction, Message, Role


@dataclass(frozen=True)
class Shard:
    """`[id, count]` as IDENTIFY carries it; without one a connection is shard 0 of 1."""

    id: int = 0
    count: int = 1

    @classmethod
    def from_identify(cls, data: dict[str, Any]) -> Shard | None:
        """The IDENTIFY's shard, or None when it is not a valid `[id, count]`."""
        value = data.get("shard")
        if value is None:
            return cls()
        if not (isinstance(value, list) and len(value) == 2):
            return None
        shard_id, count = value
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
            return None
        if count < 1 or not 0 <= shard_id < count:
            return None
        return cls(shard_id, count)

    def covers(self, guild_id: int | None) -> bool:
        """Discord's rule: a server's events go to shard `(guild_id >> 22) % count`, and
        events of no server (direct messages) to shard 0."""
        if guild_id is None:
            return self.id == 0
        return (guild_id >> 22) % self.count == self.id


def guild_id_of(subject: Any) -> int | None:
    """The server an event is about (None: an event no shard owns)."""
    if isinstance(subject, Guild):
        return subject.id
    if isinstance(subject, Interaction):
        return subject.guild.id
    if isinstance(subject, Channel):
        return subject.guild.id
    if isinstance(subject, Message):
        return subject.channel.guild.id
    if isinstance(subject, Role):
        return subject.guild_id
    return None
