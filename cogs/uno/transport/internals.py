"""Every name of discord.py's that is not public, used in this one module.

The bot answers clicks with prebuilt JSON, so it sends an interaction's answer
through discord.py's webhook adapter and marks the interaction answered itself;
it unlinks a handled click so it is freed without the collector. With the fast
paths on (the FAST_PATHS setting) it also drops the gateway events it never reads
before discord.py parses them, and cancels discord.py's ready tasks when it closes
during the first seconds. `missing()` lists what a discord.py upgrade took away;
tests/cogs/transport/test_internals.py fails with that list.

With the fast paths off, a click's answer goes through `interaction.response` and
`interaction.edit_original_response` (plain.py) and a handled click is left to the
collector; only `edit_original_response` here remains in use: a hand panel is
refreshed later through its token alone (a kept Interaction would keep its whole
message), and discord.py's public API reaches an interaction's own message only from
the Interaction. tests/cogs/transport/test_plain_answers.py counts the calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord.http import MultipartParameters
from discord.state import AutoShardedConnectionState, ConnectionState
from discord.webhook import async_ as webhook_async

from cogs.uno import ids

Parser = Callable[[Any], None]
COMPONENT = 3  # an interaction's type for a click


def missing() -> list[str]:
    """The private names used here that this discord.py no longer has."""
    state = inspect.getsource(ConnectionState)
    sharded = inspect.getsource(AutoShardedConnectionState)
    checks = {
        "Interaction._session": "_session" in discord.Interaction.__slots__,
        "Interaction._original_response": "_original_response" in discord.Interaction.__slots__,
        "Interaction._cs_response": "_cs_response" in discord.Interaction.__slots__,
        "InteractionResponse._response_type": "_response_type"
        in discord.InteractionResponse.__slots__,
        "ConnectionState.parsers": "self.parsers" in state,
        "ConnectionState._ready_task": "self._ready_task" in state,
        "AutoShardedConnectionState._ready_tasks": "self._ready_tasks" in sharded,
        "webhook.async_.async_context": hasattr(webhook_async, "async_context"),
        "parse_interaction_create": "def parse_interaction_create" in state,
        "parse_message_update": "def parse_message_update" in state,
    }
    return [name for name, found in checks.items() if not found]


def session_of(interaction: discord.Interaction[Any]) -> aiohttp.ClientSession:
    return interaction._session


def mark_answered(
    interaction: discord.Interaction[Any], kind: discord.InteractionResponseType
) -> None:
    """What `interaction.response.send_message` and its kin would have noted."""
    interaction.response._response_type = kind


async def create_response(interaction: discord.Interaction[Any], payload: dict[str, Any]) -> Any:
    """POST an interaction's answer through discord.py's webhook adapter (it waits
    and retries as Discord asks); Discord's answer, decoded."""
    http = interaction.client.http
    return await webhook_async.async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=MultipartParameters(payload=payload, multipart=None, files=None),
    )


async def edit_original_response(
    client: discord.Client, token: str, session: aiohttp.ClientSession, data: dict[str, Any]
) -> Any:
    """PATCH an interaction's own message through discord.py's webhook adapter."""
    http = client.http
    assert client.application_id is not None
    return await webhook_async.async_context.get().edit_original_interaction_response(
        client.application_id,
        token,
        session=session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=data,
    )


def unlink(interaction: discord.Interaction[Any]) -> None:
    """Drop the references an Interaction and its `response` keep to each other."""
    with contextlib.suppress(AttributeError):  # discord.py caches `response` in this slot
        delattr(interaction, "_cs_response")
    interaction._original_response = None


def filter_gateway(client: discord.Client) -> None:
    """Skip MESSAGE_UPDATE, and the embed of a clicked table control's message."""
    parsers: dict[str, Parser] = client._connection.parsers
    parsers["MESSAGE_UPDATE"] = _ignore_event
    parsers["INTERACTION_CREATE"] = _without_table_embeds(parsers["INTERACTION_CREATE"])


def cancel_ready_tasks(client: discord.Client) -> None:
    """A close within discord.py's 2 s wait for the servers would leave its ready
    tasks (each shard's, and the whole bot's) dispatching on a closed client (a
    traceback): nothing is ready any more."""
    state = client._connection
    shards: dict[int, asyncio.Task[None]] = getattr(state, "_ready_tasks", {})
    for ready in [state._ready_task, *shards.values()]:
        if ready is not None and not ready.done():
            ready.cancel()


def _ignore_event(data: object) -> None:
    """A gateway event the bot has no use for, dropped before discord.py parses it."""


def _without_table_embeds(parse: Parser) -> Parser:
    """discord.py's INTERACTION_CREATE parser, minus the embed of a clicked table
    control's message.

    Every click carries the message it was made on, which discord.py parses whole. The
    embed of a hand panel or of the table message is the largest part of it, and no
    table click reads it: it is checked against the message's components, id and flags
    only (cogs/uno/transport/issued.py, cogs/uno/table/clicks.py).
    """

    def parse_interaction_create(data: Any) -> None:
        message = data.get("message") if data.get("type") == COMPONENT else None
        if isinstance(message, dict) and isinstance(
            ids.parse_custom_id((data.get("data") or {}).get("custom_id")), ids.TableControl
        ):
            message["embeds"] = []
        parse(data)

    return parse_interaction_create
