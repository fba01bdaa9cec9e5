"""The emulator's plain model of Discord: users, guilds, channels, messages, interactions.

Objects are mutable and shared: a `Message` a test holds is always the latest version.
`payload()` methods render Discord's JSON as the real API would send it.
"""

from __future__ import annotations

import datetime
import itertools
from dataclasses import dataclass, field
from enum import IntEnum, IntFlag
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000


class Permission(IntFlag):
    """The permission bits the emulator knows by name (Discord's values)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    CREATE_PUBLIC_THREADS = 1 << 35
    SEND_MESSAGES_IN_THREADS = 1 << 38

    @classmethod
    def everyone_default(cls) -> Permission:
        return (
            cls.VIEW_CHANNEL
            | cls.SEND_MESSAGES
            | cls.ADD_REACTIONS
            | cls.EMBED_LINKS
            | cls.ATTACH_FILES
            | cls.READ_MESSAGE_HISTORY
            | cls.USE_EXTERNAL_EMOJIS
            | cls.USE_APPLICATION_COMMANDS
            | cls.CREATE_PUBLIC_THREADS
            | cls.SEND_MESSAGES_IN_THREADS
        )


ALL_PERMISSIONS = (1 << 51) - 1


class InteractionType(IntEnum):
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    CHANNEL_MESSAGE_WITH_SOURCE = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    MODAL = 9


class MessageFlag(IntFlag):
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12


def iso(timestamp: float) -> str:
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).isoformat()


class Snowflakes:
    """Discord-shaped ids: creation time in the high bits, so `created_at` works."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self, now: float, *, shard: tuple[int, int] | None = None) -> int:
        """A new id; with `shard` (`(shard_id, shard_count)`), a server id on that shard."""
        ms = int(now * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            shard_id, count = shard
            ms += (shard_id - ms) % count  # the first millisecond from now on that shard
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"  # the language of their Discord client (interaction.locale)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: float = 0.0

    def __repr__(self) -> str:
        return f"<Member {self.user.name!r} of {self.guild.name!r}>"

    @property
    def permissions(self) -> int:
        """Return guild-wide permissions: @everyone plus roles; admins and the owner get all."""
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if value & Permission.ADMINISTRATOR or self.user.id == self.guild.owner_id:
            return ALL_PERMISSIONS
        return value

    def payload(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


@dataclass(eq=False)
class Channel:
    id: int
    guild: Guild
    name: str
    type: int = 0  # GUILD_TEXT; 11 is a public thread
    position: int = 0
    parent: Channel | None = None  # a thread's channel
    deleted: bool = False
    last_message_id: int | None = None

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

    def __repr__(self) -> str:
        return f"<Channel {self.id} #{self.name}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "last_message_id": None if self.last_message_id is None else str(self.last_message_id),
            "rate_limit_per_user": 0,
            "parent_id": None if self.parent is None else str(self.parent.id),
            "flags": 0,
        }
        if self.parent is not None:
            data["owner_id"] = str(self.guild.owner_id)
            data["member_count"] = 1
            data["message_count"] = 0
            data["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso(0),
                "locked": False,
            }
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    everyone: Role
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    created_at: float = 0.0
    preferred_locale: str = "en-US"  # the server's language (interaction.guild_locale)

    def __repr__(self) -> str:
        return f"<Guild {self.id} {self.name!r}>"

    def member(self, user: User | int) -> Member:
        user_id = user if isinstance(user, int) else user.id
        return self.members[user_id]

    def payload(self, *, member_list: list[Member]) -> dict[str, Any]:
        """Render a GUILD_CREATE payload with the given members (intents decide which)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [self.everyone.payload(), *(role.payload() for role in self.roles)],
            "channels": [c.payload() for c in self.channels if not c.deleted and not c.parent],
            "threads": [c.payload() for c in self.channels if not c.deleted and c.parent],
            "members": [m.payload() for m in member_list],
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": iso(self.created_at),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
            "max_members": 500000,
            "nsfw": False,
            "premium_progress_bar_enabled": False,
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    created_at: float
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_at: float | None = None
    ephemeral_to: User | None = None
    interaction: Interaction | None = None  # the interaction whose answer this is
    deleted: bool = False
    edits: int = 0
    # Whom the message notified: `<@id>` in its content that its allowed_mentions let
    # through (Discord's `mentions`), as user ids.
    pinged: list[int] = field(default_factory=list)

    def __repr__(self) -> str:
        where = f" ephemeral to {self.ephemeral_to.name}" if self.ephemeral_to else ""
        return f"<Message {self.id} by {self.author.name}{where}: {self.content[:40]!r}>"

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "Bot is thinking..." placeholder not filled yet."""
        return bool(self.flags & MessageFlag.LOADING)

    def visible_to(self, user: User) -> bool:
        return not self.deleted and (self.ephemeral_to is None or self.ephemeral_to.id == user.id)

    def iter_components(self) -> list[dict[str, Any]]:
        """Return every component inside the action rows, in reading order."""
        return [child for row in self.components for child in row.get("components", [])]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def find_component(self, custom_id: str) -> dict[str, Any]:
        for component in self.iter_components():
            if component.get("custom_id") == custom_id:
                return component
        raise LookupError(f"no component {custom_id!r} on message {self.id}: {self.custom_ids()}")

    def find_button(
        self, *, label: str | None = None, custom_id: str | None = None
    ) -> dict[str, Any]:
        """Return the first button whose label contains `label` (or whose custom_id is equal)."""
        for button in self.buttons():
            if custom_id is not None and button.get("custom_id") != custom_id:
                continue
            if label is not None and label not in (button.get("label") or ""):
                continue
            return button
        labels = [b.get("label") for b in self.buttons()]
        raise LookupError(f"no button label={label!r} custom_id={custom_id!r}; have {labels}")

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def text(self) -> str:
        """Return content and every embed's text joined, for assertions on what a user reads."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "guild_id": str(self.channel.guild.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": None if self.edited_at is None else iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "reactions": [],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.interaction is not None:
            it = self.interaction
            data["webhook_id"] = str(it.application_id)
            data["application_id"] = str(it.application_id)
            data["interaction_metadata"] = {
                "id": str(it.id),
                "type": int(it.type),
                "user": it.user.payload(),
                "authorizing_integration_owners": {"0": str(it.guild.id)},
            }
        return data


@dataclass(eq=False)
class Command:
    """An application command as synced by the bot (global when guild is None)."""

    id: int
    application_id: int
    guild_id: int | None
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.data["name"])

    def payload(self) -> dict[str, Any]:
        return {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **self.data,
            "id": str(self.id),
            "application_id": str(self.application_id),
            "guild_id": None if self.guild_id is None else str(self.guild_id),
            "version": str(self.id),
        }


@dataclass(eq=False)
class Interaction:
    """One user action sent to the bot, and what became of it."""

    id: int
    application_id: int
    token: str
    type: InteractionType
    user: User
    guild: Guild
    channel: Channel
    data: dict[str, Any]
    created_at: float
    name: str  # the command path or the custom_id, for the log
    message: Message | None = None  # the message whose component was used
    response_type: CallbackType | None = None
    responded_at: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    failed: bool = False

    def __repr__(self) -> str:
        state = self.response_type.name if self.response_type else "unanswered"
        return f"<Interaction {self.name!r} by {self.user.name}: {state}>"

    RESPONSE_DEADLINE = 3.0
    TOKEN_LIFETIME = 15 * 60.0

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    def payload(self, app_permissions: int) -> dict[str, Any]:
        member = self.guild.member(self.user)
        member_data = member.payload()
        member_data["permissions"] = str(member.permissions)
        data: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(self.application_id),
            "type": int(self.type),
            "data": self.data,
            "guild": {
                "id": str(self.guild.id),
                "locale": self.guild.preferred_locale,
                "features": [],
            },
            "guild_id": str(self.guild.id),
            "channel": self.channel.payload(),
            "channel_id": str(self.channel.id),
            "member": member_data,
            "token": self.token,
            "version": 1,
            "app_permissions": str(app_permissions),
            "locale": self.user.locale,
            "guild_locale": self.guild.preferred_locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if self.message is not None:
            data["message"] = self.message.payload()
        return data
