"""What the web page is sent: the server, the commands and messages, as one member sees them.

Privacy is decided here, on the server: a member is sent a message only if Discord would
show it to them (`Message.visible_to`), so another member's ephemeral never leaves.
"""

from __future__ import annotations

from typing import Any

from .models import Channel, Command, Guild, InteractionType, Message, User

Json = dict[str, Any]


def user_json(user: User) -> Json:
    return {"id": str(user.id), "name": user.name, "bot": user.bot}


def channel_json(channel: Channel) -> Json:
    parent = None if channel.parent is None else str(channel.parent.id)
    return {"id": str(channel.id), "name": channel.name, "parent": parent}


def channel_list(guild: Guild) -> list[Json]:
    """The server's channels as the sidebar lists them: each with its threads under it."""
    live = [c for c in guild.channels if not c.deleted]
    ordered: list[Json] = []
    for channel in live:
        if channel.parent is None:
            ordered.append(channel_json(channel))
            ordered += [channel_json(t) for t in live if t.parent is channel]
    return ordered


def hello(guild: Guild, me: User, *, members: list[User], bot: User, cdn: str) -> Json:
    """The first frame: who I am, the server, its channels, members and roles."""
    return {
        "t": "hello",
        "me": user_json(me),
        "bot": user_json(bot),
        "cdn": cdn,
        "guild": {"id": str(guild.id), "name": guild.name, "owner": str(guild.owner_id)},
        "channels": channel_list(guild),
        "members": [user_json(u) for u in members],
        "roles": [{"id": str(r.id), "name": r.name} for r in guild.roles],
    }


def visible_commands(commands: list[Command], guild: Guild, user: User) -> list[Json]:
    """The commands this member's client would offer (Discord hides those they may not use)."""
    permissions = guild.member(user).permissions
    shown = []
    for command in commands:
        data = command.payload()
        required = int(data.get("default_member_permissions") or 0)
        if permissions & required == required:
            shown.append(data)
    return shown


def message_json(message: Message) -> Json:
    """A message as the page draws it (embeds and components exactly as the bot sent them)."""
    it = message.interaction
    command = None
    if it is not None and it.type is InteractionType.APPLICATION_COMMAND:
        command = {"user": user_json(it.user), "name": it.name}
    return {
        "id": str(message.id),
        "channel_id": str(message.channel.id),
        "author": user_json(message.author),
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
        "attachments": [
            {"url": a.url, "filename": a.filename, "content_type": a.content_type}
            for a in message.attachments
        ],
        "timestamp": message.created_at * 1000,
        "edited": message.edited_at is not None,
        "edits": message.edits,
        "ephemeral": message.ephemeral,
        "loading": message.loading,
        "command": command,
    }


TEXT_INPUT, LABEL = 4, 18


def modal_json(modal: Json) -> Json:
    """A form the bot opened, as the page draws it: its title and each text input with its
    label and limits (an action row around the input, or a label component)."""
    inputs = []
    for row in modal.get("components") or []:
        if row.get("type") == LABEL:
            inner = row.get("component") or {}
            label, note = row.get("label"), row.get("description")
        else:
            inner = (row.get("components") or [{}])[0]
            label, note = inner.get("label"), None
        if inner.get("type") != TEXT_INPUT:
            continue
        inputs.append(
            {
                "custom_id": inner["custom_id"],
                "label": label or "",
                "description": note or "",
                "paragraph": inner.get("style") == 2,
                "min_length": inner.get("min_length", 0),
                "max_length": inner.get("max_length", 4000),
                "required": inner.get("required", True),
                "placeholder": inner.get("placeholder") or "",
                "value": inner.get("value") or "",
            }
        )
    return {"title": modal.get("title") or "", "inputs": inputs}


def form_problem(form: Json, values: dict[str, str]) -> str:
    """What Discord's client says before it sends a form with this input, or ""."""
    for spec in form["inputs"]:
        value = values.get(spec["custom_id"], "")
        if not value:
            if spec["required"]:
                return f"{spec['label']}: This field is required"
            continue
        if len(value) < spec["min_length"]:
            return f"{spec['label']}: Must be at least {spec['min_length']} characters long"
        if len(value) > spec["max_length"]:
            return f"{spec['label']}: Must be {spec['max_length']} or fewer characters long"
    return ""
