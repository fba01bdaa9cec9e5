"""Channel messages as JSON, through discord.py's HTTP client: post, edit, strip."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord.http import MultipartParameters


def _params(payload: dict[str, Any]) -> MultipartParameters:
    return MultipartParameters(payload=payload, multipart=None, files=None)


async def post(client: discord.Client, channel_id: int, payload: dict[str, Any]) -> Any:
    """A new message in the channel; Discord's answer (the message, decoded)."""
    return await client.http.send_message(channel_id, params=_params(payload))


async def edit(
    client: discord.Client, channel_id: int, message_id: int, payload: dict[str, Any]
) -> Any:
    """Edit a message of the bot's; Discord's answer (the message, decoded)."""
    return await client.http.edit_message(channel_id, message_id, params=_params(payload))


async def delete(client: discord.Client, channel_id: int, message_id: int) -> None:
    await client.http.delete_message(channel_id, message_id)


async def start_thread(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    *,
    name: str,
    archive_minutes: Literal[60, 1440, 4320, 10080],
) -> Any:
    """A public thread on a message; Discord's answer (the thread, decoded)."""
    return await client.http.start_thread_with_message(
        channel_id, message_id, name=name, auto_archive_duration=archive_minutes
    )
