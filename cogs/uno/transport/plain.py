"""The plain path (FAST_PATHS off): a prebuilt answer said through discord.py's public API.

The bot draws every answer as Discord's JSON (payloads.py); here that JSON becomes the
arguments `interaction.response` takes: embeds, a View or a Modal of the same controls.
Clicks are routed by their custom_id (cogs/uno/router.py), so each View and Modal is
stopped before it is sent: discord.py keeps none of them to dispatch.
"""

from __future__ import annotations

from typing import Any

import discord

EPHEMERAL = 1 << 6
BUTTON, STRING_SELECT, TEXT_INPUT = 2, 3, 4
NEW_MESSAGE, THINKING, DEFERRED_UPDATE, UPDATE, MODAL = 4, 5, 6, 7, 9


async def answer(
    interaction: discord.Interaction[Any], kind: int, data: dict[str, Any] | None
) -> discord.InteractionCallbackResponse[Any] | None:
    """Answer with the interaction callback `kind` (Discord's number) and its `data`;
    None where discord.py sends nothing (an update or a deferred one but to a click)."""
    response = interaction.response
    data = data or {}
    if kind == NEW_MESSAGE:
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        return await response.send_message(**message_arguments(data), ephemeral=ephemeral)
    if kind == UPDATE:
        return await response.edit_message(**message_arguments(data))
    if kind in (THINKING, DEFERRED_UPDATE):
        return await response.defer(ephemeral=kind == THINKING, thinking=kind == THINKING)
    if kind == MODAL:
        return await response.send_modal(modal(data))
    raise ValueError(f"no answer of kind {kind}")


async def edit_answer(interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
    """Edit the interaction's own message (its answer, or the acknowledged click's)."""
    await interaction.edit_original_response(**message_arguments(data))


def message_arguments(data: dict[str, Any]) -> dict[str, Any]:
    """A message payload as the keyword arguments of discord.py's send and edit calls;
    what the payload leaves out, an edit leaves as it is."""
    found: dict[str, Any] = {}
    if "content" in data:
        found["content"] = data["content"] or None
    if "embeds" in data:
        found["embeds"] = [discord.Embed.from_dict(embed) for embed in data["embeds"]]
    if "components" in data:
        found["view"] = view(data["components"])
    if "allowed_mentions" in data:
        mentions = data["allowed_mentions"].get("parse", [])
        found["allowed_mentions"] = discord.AllowedMentions(
            everyone="everyone" in mentions, users="users" in mentions, roles="roles" in mentions
        )
    return found


def view(rows: list[dict[str, Any]]) -> discord.ui.View:
    """The rows' controls as a View, each in its row; stopped (never dispatched)."""
    found = discord.ui.View(timeout=None)
    for row, items in enumerate(rows):
        for item in items["components"]:
            found.add_item(_control(item, row))
    found.stop()
    return found


def modal(data: dict[str, Any]) -> discord.ui.Modal:
    """A form's JSON as a Modal of text inputs; stopped (its submission is routed)."""
    found = discord.ui.Modal(title=data["title"], custom_id=data["custom_id"], timeout=None)
    for row, items in enumerate(data["components"]):
        for item in items["components"]:
            found.add_item(_text_input(item, row))
    found.stop()
    return found


def _control(item: dict[str, Any], row: int) -> discord.ui.Item[discord.ui.View]:
    if item["type"] == BUTTON:
        return discord.ui.Button(
            style=discord.ButtonStyle(item["style"]),
            label=item.get("label"),
            custom_id=item.get("custom_id"),
            url=item.get("url"),
            disabled=item.get("disabled", False),
            emoji=_emoji(item.get("emoji")),
            row=row,
        )
    if item["type"] == STRING_SELECT:
        return discord.ui.Select(
            custom_id=item["custom_id"],
            placeholder=item.get("placeholder"),
            min_values=item.get("min_values", 1),
            max_values=item.get("max_values", 1),
            options=[_option(option) for option in item["options"]],
            disabled=item.get("disabled", False),
            row=row,
        )
    raise ValueError(f"no control of type {item['type']}")


def _option(option: dict[str, Any]) -> discord.SelectOption:
    return discord.SelectOption(
        label=option["label"],
        value=option["value"],
        description=option.get("description"),
        emoji=_emoji(option.get("emoji")),
        default=option.get("default", False),
    )


def _text_input(item: dict[str, Any], row: int) -> discord.ui.TextInput[discord.ui.Modal]:
    if item["type"] != TEXT_INPUT:
        raise ValueError(f"no form input of type {item['type']}")
    return discord.ui.TextInput(
        label=item["label"],
        custom_id=item["custom_id"],
        style=discord.TextStyle(item.get("style", 1)),
        placeholder=item.get("placeholder"),
        default=item.get("value"),
        required=item.get("required", True),
        min_length=item.get("min_length"),
        max_length=item.get("max_length"),
        row=row,
    )


def _emoji(data: dict[str, Any] | None) -> discord.PartialEmoji | None:
    return None if data is None else discord.PartialEmoji.from_dict(data)
