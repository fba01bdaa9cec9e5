"""Discord's state and rules, free of HTTP: what `rest.py` and the driver call.

Every rule breach raises `ApiError` (turned into Discord's JSON answer by `rest.py`) and is
recorded in `world.log`. Every change wakes `wait_for()` waiters.
"""

# ruff: noqa: ASYNC109  (timeout= is this API's deadline for waiting on the bot)

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import errors
from .clock import Clock
from .emojis import AppEmojis
from .errors import ApiError
from .global_limit import GlobalRateLimit
from .invalid_requests import InvalidRequests
from .limits import validate_message, validate_modal
from .log import FailedInteraction, Log, Violation
from .models import (
    Attachment,
    CallbackType,
    Channel,
    Command,
    Guild,
    Interaction,
    InteractionType,
    Member,
    Message,
    MessageFlag,
    Permission,
    Role,
    Snowflakes,
    User,
)
from .ratelimit import EditRateLimit

Listener = Callable[[str, Any], None]  # (event name, the model object it is about)

MENTION = re.compile(r"<(@!?|@&|#)(\d+)>")
BOT_DEFAULT_PERMISSIONS = int(
    Permission.everyone_default() | Permission.MANAGE_MESSAGES | Permission.MENTION_EVERYONE
)


@dataclass(frozen=True)
class Upload:
    """One file part of a multipart request (`files[n]`)."""

    index: int
    filename: str
    content_type: str
    data: bytes


class World:
    """Users, guilds, channels, messages, commands and interactions, with Discord's rules."""

    def __init__(self, *, token: str = "emulator-bot-token", bot_name: str = "UnoBot") -> None:
        self.clock = Clock()
        self.clock.on_advance(self.check_deadlines)
        self.log = Log()
        self.ids = Snowflakes()
        self.token = token
        self.refused_tokens: set[str] = set()
        self.bot = User(id=self._id(), name=bot_name, bot=True)
        self.application_id = self.bot.id
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self._unanswered: set[Interaction] = set()
        self.commands: dict[int | None, list[Command]] = {}
        self.edit_limit = EditRateLimit(self.clock)
        self.global_limit = GlobalRateLimit(self.clock)
        self.invalid_requests = InvalidRequests(self.clock)
        self.emojis = AppEmojis(self.application_id, self.bot, self._id)
        self.base_url = "http://127.0.0.1"  # set by the server once it listens
        self.listeners: list[Listener] = []
        # Called with every message body a message or an edit carried (content, embeds,
        # components), ephemeral ones included: tests read everything a player was shown.
        self.readers: list[Callable[[dict[str, Any]], None]] = []
        self.version = 0
        self._changed: asyncio.Event | None = None

    # -- bookkeeping -------------------------------------------------------------------------

    def _id(self) -> int:
        return self.ids.next(self.clock.now())

    def changed(self) -> None:
        """Wake every `wait_for()`; called on each state change."""
        self.version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def wait_for(
        self, predicate: Callable[[], Any], *, timeout: float = 5.0, poll: float = 0.05
    ) -> Any:
        """Return predicate()'s first truthy value, re-checked on every change.

        It is also re-checked every `poll` seconds, for predicates on the bot's own state
        (its database, its objects) that change without telling the emulator.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (result := predicate()):
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            if self._changed is None:
                self._changed = asyncio.Event()
            try:
                await asyncio.wait_for(self._changed.wait(), min(remaining, poll))
            except TimeoutError:
                continue
        return result

    def violation(self, kind: str, detail: str) -> None:
        self.log.violations.append(Violation(kind=kind, detail=detail, at=self.clock.now()))
        self.changed()

    def dispatch(self, event: str, subject: Any) -> None:
        """Tell the gateway (and any other listener) about an event."""
        for listener in list(self.listeners):
            listener(event, subject)

    # -- the model API tests use -------------------------------------------------------------

    def add_user(
        self,
        name: str,
        *,
        guild: Guild | None = None,
        roles: Iterable[Role] = (),
        bot: bool = False,
        locale: str = "en-US",
    ) -> User:
        """Create a user (or another bot account); with `guild`, make them a member too.

        `locale`: their Discord client's language, sent with each of their interactions."""
        user = User(id=self._id(), name=name, bot=bot, locale=locale)
        self.users[user.id] = user
        if guild is not None:
            self.add_member(guild, user, roles=roles)
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: User | None = None,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """Create a guild with @everyone, an owner, and the bot as a member with its own role.

        `locale`: the server's language (its preferred locale, every interaction's
        guild_locale). `shard`: `(shard_id, shard_count)`, an id that shard carries."""
        guild_id = self.ids.next(self.clock.now(), shard=shard)
        everyone = Role(guild_id, guild_id, "@everyone", int(Permission.everyone_default()))
        owner = owner or self.add_user(f"{name} owner")
        guild = Guild(
            guild_id, name, owner.id, everyone, created_at=self.clock.now(), preferred_locale=locale
        )
        self.guilds[guild_id] = guild
        self.add_member(guild, owner)
        bot_role = self.add_role(guild, self.bot.name, BOT_DEFAULT_PERMISSIONS, managed=True)
        self.add_member(guild, self.bot, roles=[bot_role])
        self.dispatch("GUILD_CREATE", guild)
        return guild

    def add_role(self, guild: Guild, name: str, permissions: int, *, managed: bool = False) -> Role:
        role = Role(self._id(), guild.id, name, int(permissions), len(guild.roles) + 1, managed)
        guild.roles.append(role)
        return role

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        roles: Iterable[Role] = (),
        permissions: int | None = None,
        nick: str | None = None,
    ) -> Member:
        """Add `user` to `guild`; `permissions` gives them a role of their own with those bits."""
        role_list = list(roles)
        if permissions is not None:
            role_list.append(self.add_role(guild, f"{user.name} role", permissions))
        member = Member(user, guild, role_list, nick, joined_at=self.clock.now())
        guild.members[user.id] = member
        return member

    def add_text_channel(self, guild: Guild, name: str = "general") -> Channel:
        channel = Channel(self._id(), guild, name, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        self.dispatch("CHANNEL_CREATE", channel)
        return channel

    def add_thread(self, channel: Channel, name: str) -> Channel:
        """Create a public thread in a text channel (interactions work there too)."""
        thread = Channel(self._id(), channel.guild, name, type=11, parent=channel)
        channel.guild.channels.append(thread)
        self.channels[thread.id] = thread
        self.dispatch("THREAD_CREATE", thread)
        return thread

    def start_thread(
        self, channel_id: int, payload: dict[str, Any], message_id: int | None = None
    ) -> Channel:
        """The bot opens a public thread in a text channel, on one of its messages or not.

        As Discord: Create Public Threads needed, no thread in a thread, one thread
        per message (the thread's id is the message's), a name of 1-100 characters.
        """
        channel = self.channel(channel_id)
        if channel.is_thread:
            raise errors.wrong_channel_type()
        needed = Permission.VIEW_CHANNEL | Permission.CREATE_PUBLIC_THREADS
        if channel.guild.member(self.bot).permissions & needed != needed:
            raise errors.missing_permissions()
        name = payload.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise errors.invalid_form_body(
                {"name": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "1-100"}]}}
            )
        thread_id = self._id()
        if message_id is not None:
            self._channel_message(channel_id, message_id)
            if message_id in self.channels:
                raise errors.thread_exists()
            thread_id = message_id
        thread = Channel(thread_id, channel.guild, name, type=11, parent=channel)
        channel.guild.channels.append(thread)
        self.channels[thread.id] = thread
        self.dispatch("THREAD_CREATE", thread)
        self.changed()
        return thread

    def delete_channel(self, channel: Channel) -> None:
        channel.deleted = True
        self.dispatch("CHANNEL_DELETE", channel)
        self.changed()

    def bot_role(self, guild: Guild) -> Role:
        """Return the bot's own (managed) role in `guild`."""
        return guild.member(self.bot).roles[0]

    def set_role_permissions(self, role: Role, permissions: int) -> None:
        """Change a role's permissions (e.g. take Send Messages from @everyone and the bot)."""
        role.permissions = int(permissions)
        self.dispatch("GUILD_ROLE_UPDATE", role)
        self.changed()

    def visible_messages(self, user: User, channel: Channel) -> list[Message]:
        """Return what `user` sees in `channel`, oldest first: public ones and their ephemerals."""
        return [
            m
            for m in self.messages.values()
            if m.channel is channel and m.visible_to(user) and not m.loading
        ]

    def readable(self, message: Message) -> str:
        """Return `message.text()` with mentions as a Discord client shows them (@alice, #uno)."""

        def name(match: re.Match[str]) -> str:
            kind, snowflake = match.group(1), int(match.group(2))
            if kind == "#":
                channel = self.channels.get(snowflake)
                return f"#{channel.name}" if channel else match.group(0)
            if kind == "@&":
                roles = (r for g in self.guilds.values() for r in g.roles)
                role = next((r for r in roles if r.id == snowflake), None)
                return f"@{role.name}" if role else match.group(0)
            user = self.users.get(snowflake)
            return f"@{user.name}" if user else match.group(0)

        return MENTION.sub(name, message.text())

    # -- channel messages (the bot's REST calls) --------------------------------------------

    def channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None or channel.deleted:
            raise errors.unknown_channel()
        return channel

    def _channel_message(self, channel_id: int, message_id: int) -> Message:
        channel = self.channel(channel_id)
        message = self.messages.get(message_id)
        if message is None or message.channel is not channel or message.deleted:
            raise errors.unknown_message()
        if message.ephemeral:
            # Ephemeral messages live only behind their interaction token.
            raise errors.unknown_message(kind="ephemeral_via_channel")
        return message

    def post_message(
        self, channel_id: int, payload: dict[str, Any], uploads: Sequence[Upload] = ()
    ) -> Message:
        channel = self.channel(channel_id)
        send = (
            Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else Permission.SEND_MESSAGES
        )
        needed = Permission.VIEW_CHANNEL | send
        if channel.guild.member(self.bot).permissions & needed != needed:
            raise errors.missing_permissions()
        validate_message(payload, require_body=True, files=len(uploads))
        return self._new_message(channel, self.bot, payload, uploads)

    def user_message(self, user: User, channel: Channel, content: str) -> Message:
        """Post a plain message as a user (what a person typing in the channel does)."""
        return self._new_message(channel, user, {"content": content}, [])

    def edit_message(
        self, channel_id: int, message_id: int, payload: dict[str, Any], uploads: Sequence[Upload]
    ) -> Message:
        message = self._channel_message(channel_id, message_id)
        if message.author is not self.bot:
            raise errors.cannot_edit_others()
        self.edit_limit.take(message.channel.id)
        validate_message(payload, require_body=False, files=len(uploads))
        self._apply_edit(message, payload, uploads)
        return message

    def delete_message(self, channel_id: int, message_id: int) -> None:
        message = self._channel_message(channel_id, message_id)
        perms = message.channel.guild.member(self.bot).permissions
        if message.author is not self.bot and not perms & Permission.MANAGE_MESSAGES:
            raise errors.missing_permissions()
        self._delete(message)

    def get_message(self, channel_id: int, message_id: int) -> Message:
        return self._channel_message(channel_id, message_id)

    def history(
        self,
        channel_id: int,
        *,
        limit: int = 50,
        before: int | None = None,
        after: int | None = None,
    ) -> list[Message]:
        """Return public messages newest first (or oldest first after `after`), like Discord."""
        channel = self.channel(channel_id)
        found = [
            m
            for m in self.messages.values()
            if m.channel is channel and not m.deleted and not m.ephemeral
        ]
        if before is not None:
            found = [m for m in found if m.id < before]
        if after is not None:
            return sorted((m for m in found if m.id > after), key=lambda m: m.id)[:limit][::-1]
        return sorted(found, key=lambda m: m.id, reverse=True)[:limit]

    # -- message helpers ---------------------------------------------------------------------

    def _attachments(
        self, channel: Channel, payload: dict[str, Any], uploads: Iterable[Upload]
    ) -> list[Attachment]:
        described = {str(a.get("id")): a for a in payload.get("attachments") or []}
        made: list[Attachment] = []
        for upload in uploads:
            meta = described.get(str(upload.index), {})
            attachment_id = self._id()
            filename = meta.get("filename") or upload.filename
            made.append(
                Attachment(
                    id=attachment_id,
                    filename=filename,
                    data=upload.data,
                    content_type=upload.content_type,
                    url=f"{self.base_url}/attachments/{channel.id}/{attachment_id}/{filename}",
                    description=meta.get("description"),
                )
            )
        return made

    def _new_message(
        self,
        channel: Channel,
        author: User,
        payload: dict[str, Any],
        uploads: Iterable[Upload],
        *,
        interaction: Interaction | None = None,
        ephemeral_to: User | None = None,
        flags: int | None = None,
    ) -> Message:
        self.emojis.check_components(payload.get("components"))
        for read in self.readers:
            read(payload)
        kind = 0
        if interaction is not None and interaction.type is InteractionType.APPLICATION_COMMAND:
            kind = 20  # CHAT_INPUT_COMMAND
        message = Message(
            id=self._id(),
            channel=channel,
            author=author,
            created_at=self.clock.now(),
            content=payload.get("content") or "",
            embeds=[{"type": "rich", **e} for e in payload.get("embeds") or []],
            components=list(payload.get("components") or []),
            attachments=self._attachments(channel, payload, uploads),
            flags=int(payload.get("flags") or 0) & MessageFlag.SUPPRESS_EMBEDS
            if flags is None
            else flags,
            type=kind,
            ephemeral_to=ephemeral_to,
            interaction=interaction,
            pinged=_pinged(payload),
        )
        if ephemeral_to is not None:
            message.flags |= MessageFlag.EPHEMERAL
        self.messages[message.id] = message
        channel.last_message_id = message.id
        if not message.ephemeral:
            self.dispatch("MESSAGE_CREATE", message)
        self.changed()
        return message

    def _apply_edit(
        self, message: Message, payload: dict[str, Any], uploads: Iterable[Upload]
    ) -> None:
        self.emojis.check_components(payload.get("components"))
        for read in self.readers:
            read(payload)
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = [{"type": "rich", **e} for e in payload["embeds"] or []]
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if "attachments" in payload:
            keep = {str(a.get("id")) for a in payload["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments += self._attachments(message.channel, payload, uploads)
        if "flags" in payload and payload["flags"] is not None:
            suppress = int(payload["flags"]) & MessageFlag.SUPPRESS_EMBEDS
            message.flags = (message.flags & ~MessageFlag.SUPPRESS_EMBEDS) | suppress
        message.flags &= ~MessageFlag.LOADING
        message.edited_at = self.clock.now()
        message.edits += 1
        if not message.ephemeral:
            self.dispatch("MESSAGE_UPDATE", message)
        self.changed()

    def _delete(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            self.dispatch("MESSAGE_DELETE", message)
        self.changed()

    # -- commands ----------------------------------------------------------------------------

    def sync_commands(
        self, application_id: int, guild_id: int | None, commands: list[dict[str, Any]]
    ) -> list[Command]:
        """Bulk-overwrite the global (guild_id None) or a guild's commands, keeping known ids."""
        self._check_application(application_id)
        if guild_id is not None and guild_id not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild", kind="unknown_guild")
        for data in commands:
            check_command_names(data)
        old = {c.name: c for c in self.commands.get(guild_id, [])}
        synced = []
        for data in commands:
            known = old.get(data["name"])
            command_id = known.id if known else self._id()
            synced.append(Command(command_id, self.application_id, guild_id, data))
        self.commands[guild_id] = synced
        self.changed()
        return synced

    def find_command(self, guild: Guild, name: str) -> Command:
        for command in [*self.commands.get(guild.id, []), *self.commands.get(None, [])]:
            if command.name == name:
                return command
        synced = [c.name for cs in self.commands.values() for c in cs]
        raise LookupError(f"no command /{name} synced (have {synced})")

    def _check_application(self, application_id: int) -> None:
        if application_id != self.application_id:
            raise errors.unknown_webhook(kind="unknown_application")

    # -- interactions ------------------------------------------------------------------------

    def create_interaction(
        self,
        *,
        type: InteractionType,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        name: str,
        message: Message | None = None,
    ) -> Interaction:
        """Record a user's action and send it to the bot as INTERACTION_CREATE."""
        interaction = Interaction(
            id=self._id(),
            application_id=self.application_id,
            token=f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(48)}",
            type=type,
            user=user,
            guild=channel.guild,
            channel=channel,
            data=data,
            created_at=self.clock.now(),
            name=name,
            message=message,
        )
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        self._unanswered.add(interaction)
        self.dispatch("INTERACTION_CREATE", interaction)
        asyncio.get_running_loop().call_later(
            Interaction.RESPONSE_DEADLINE + 0.01, self.check_deadlines
        )
        self.changed()
        return interaction

    def check_deadlines(self) -> None:
        """Mark every interaction unanswered after 3 s as failed, as the user's client does."""
        now = self.clock.now()
        for it in sorted(self._unanswered, key=lambda i: i.id):
            if now > it.created_at + Interaction.RESPONSE_DEADLINE:
                self._unanswered.discard(it)
                it.failed = True
                who = it.user.name
                self.log.failed.append(FailedInteraction(it.id, it.name, who, now))
                self.violation("interaction_failed", f"{it.name} by {who}: no answer within 3 s")

    def still_thinking(self) -> list[Interaction]:
        """Return interactions deferred with "thinking" whose answer never came (a bot bug)."""
        return [
            it
            for it in self.interactions.values()
            if it.original is not None and it.original.loading and not it.original.deleted
        ]

    def interaction_callback(
        self, interaction_id: int, token: str, body: dict[str, Any], uploads: Sequence[Upload]
    ) -> dict[str, Any]:
        """Take the one initial response; return Discord's InteractionCallbackResponse body."""
        it = self.interactions.get(interaction_id)
        if it is None or it.token != token:
            raise errors.unknown_interaction()
        if it.acknowledged:
            raise errors.already_acknowledged()
        if self.clock.now() > it.created_at + Interaction.RESPONSE_DEADLINE:
            self.check_deadlines()
            raise ApiError(404, 10062, "Unknown interaction", kind="late_response")
        kind = _callback_type(body)
        data = body.get("data") or {}
        is_component = it.type in (InteractionType.MESSAGE_COMPONENT, InteractionType.MODAL_SUBMIT)
        updates = (CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE)
        if kind in updates and (not is_component or it.message is None):
            raise ApiError(
                400, 40043, "Interaction response type not allowed", kind="bad_callback_type"
            )
        ephemeral_to = it.user if int(data.get("flags") or 0) & MessageFlag.EPHEMERAL else None
        resource: Message | None = None
        if kind is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
            validate_message(data, require_body=True, files=len(uploads))
            resource = it.original = self._new_message(
                it.channel, self.bot, data, uploads, interaction=it, ephemeral_to=ephemeral_to
            )
        elif kind is CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            it.original = self._new_message(
                it.channel,
                self.bot,
                {},
                [],
                interaction=it,
                ephemeral_to=ephemeral_to,
                flags=MessageFlag.LOADING,
            )
        elif kind is CallbackType.DEFERRED_UPDATE_MESSAGE:
            it.original = it.message
        elif kind is CallbackType.UPDATE_MESSAGE:
            validate_message(data, require_body=False, files=len(uploads))
            assert it.message is not None
            self._apply_edit(it.message, data, uploads)
            resource = it.original = it.message
        elif kind is CallbackType.MODAL:
            validate_modal(data)
            it.modal = data
        it.response_type = kind
        self._unanswered.discard(it)
        it.responded_at = self.clock.now()
        self.changed()
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(it.id),
                "type": int(it.type),
                "response_message_loading": kind
                is CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
                "response_message_ephemeral": it.ephemeral,
            }
        }
        if it.original is not None:
            answer["interaction"]["response_message_id"] = str(it.original.id)
        if resource is not None:
            answer["resource"] = {"type": int(kind), "message": resource.payload()}
        return answer

    def token_interaction(self, application_id: int, token: str) -> Interaction:
        """Return the live interaction behind a webhook token, or Discord's error."""
        self._check_application(application_id)
        it = self._by_token.get(token)
        if it is None:
            raise errors.invalid_webhook_token()
        if self.clock.now() > it.created_at + Interaction.TOKEN_LIFETIME:
            raise errors.invalid_webhook_token(kind="expired_token")
        if not it.acknowledged:
            raise errors.unknown_webhook(kind="webhook_before_response")
        return it

    def followup(
        self, application_id: int, token: str, payload: dict[str, Any], uploads: Sequence[Upload]
    ) -> Message:
        it = self.token_interaction(application_id, token)
        validate_message(payload, require_body=True, files=len(uploads))
        original = it.original
        if original is not None and original.loading:
            # Discord fills the "thinking" placeholder with the first followup.
            self._apply_edit(original, payload, uploads)
            return original
        ephemeral = int(payload.get("flags") or 0) & MessageFlag.EPHEMERAL
        message = self._new_message(
            it.channel,
            self.bot,
            payload,
            uploads,
            interaction=it,
            ephemeral_to=it.user if ephemeral else None,
        )
        it.followups.append(message)
        return message

    def webhook_message(self, application_id: int, token: str, message_id: str) -> Message:
        """Return @original or a followup of this token's interaction."""
        it = self.token_interaction(application_id, token)
        if message_id == "@original":
            message = it.original
        else:
            own = [it.original, *it.followups]
            message = next((m for m in own if m is not None and str(m.id) == message_id), None)
        if message is None or message.deleted:
            raise errors.unknown_message()
        return message

    def edit_webhook_message(
        self,
        application_id: int,
        token: str,
        message_id: str,
        payload: dict[str, Any],
        uploads: Sequence[Upload],
    ) -> Message:
        message = self.webhook_message(application_id, token, message_id)
        if not message.ephemeral:
            self.edit_limit.take(message.channel.id)
        validate_message(payload, require_body=False, files=len(uploads))
        self._apply_edit(message, payload, uploads)
        return message

    def delete_webhook_message(self, application_id: int, token: str, message_id: str) -> None:
        self._delete(self.webhook_message(application_id, token, message_id))


def _callback_type(body: dict[str, Any]) -> CallbackType:
    """The callback's type, refused as Discord refuses an unknown one."""
    try:
        return CallbackType(int(body.get("type", 0)))
    except (TypeError, ValueError):
        raise errors.invalid_form_body(
            {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "Bad type."}]}}
        ) from None


_USER_MENTION = re.compile(r"<@!?(\d+)>")


def _pinged(payload: dict[str, Any]) -> list[int]:
    """The users a new message notifies, as Discord decides from `allowed_mentions`:
    without it every user mention pings; with it, only those it lets through."""
    named = [int(m) for m in _USER_MENTION.findall(payload.get("content") or "")]
    allowed = payload.get("allowed_mentions")
    if not isinstance(allowed, dict):
        return named
    if "users" in (allowed.get("parse") or []):
        return named
    listed = {int(u) for u in allowed.get("users") or []}
    return [u for u in named if u in listed]


# Discord's rule for a command's or option's name, in every language: lowercase letters
# (any script), digits, `-` and `_`, 1 to 32 characters.
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def check_command_names(data: dict[str, Any]) -> None:
    """Refuse a command whose name or description, or an option's, or a translation of
    one, breaks Discord's rules (names as above; descriptions and choices 1-100)."""
    names = [data.get("name", ""), *(data.get("name_localizations") or {}).values()]
    for name in names:
        if not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower():
            _refuse("name", f"bad name {name!r}")
    texts = [data.get("description", ""), *(data.get("description_localizations") or {}).values()]
    for choice in data.get("choices") or []:
        texts += [choice.get("name", ""), *(choice.get("name_localizations") or {}).values()]
    for text in texts:
        if not isinstance(text, str) or not 1 <= len(text) <= 100:
            _refuse("description", f"must be 1-100 characters: {text!r}")
    for option in data.get("options") or []:  # subcommands and parameters alike
        check_command_names(option)


def _refuse(field: str, message: str) -> None:
    problem = {"code": "BASE_TYPE_BAD_LENGTH", "message": message}
    raise errors.invalid_form_body({field: {"_errors": [problem]}})
