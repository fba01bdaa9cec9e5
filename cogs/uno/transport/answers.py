"""Answering interactions with prebuilt payloads: no View, no Message parsed back.

discord.py's `InteractionResponse` wants a `discord.ui.View` and parses
Discord's answer into a Message; under load both were a large share of the
bot's CPU per click. With the fast paths on, these helpers send the same JSON
straight through the client's HTTP session (raw_http.py; discord.py's webhook adapter
when Discord asks to wait or try again) and mark the interaction answered, so
`is_done()` stays true. Off (the FAST_PATHS setting), the answer goes through
`interaction.response` itself (plain.py).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable
from typing import Any

import aiohttp
import discord

from cogs.uno.transport import internals, plain, raw_http
from cogs.uno.transport.payloads import Rows
from cogs.uno.transport.raw_http import send_json

log = logging.getLogger(__name__)

EPHEMERAL = 1 << 6
NO_PINGS: dict[str, Any] = {"parse": []}
_TYPES = {
    4: discord.InteractionResponseType.channel_message,
    5: discord.InteractionResponseType.deferred_channel_message,
    6: discord.InteractionResponseType.deferred_message_update,
    7: discord.InteractionResponseType.message_update,
    9: discord.InteractionResponseType.modal,
}


# Off (the FAST_PATHS setting): answers go through discord.py's public API (plain.py).
_fast = True


def use_fast_paths(on: bool) -> None:
    """Answer and edit through the fast paths (`on`), or through discord.py's own ways."""
    global _fast
    _fast = on
    raw_http.use_pool(on)


def message_data(
    *, content: str | None, embed: discord.Embed | None, components: Rows
) -> dict[str, Any]:
    return {
        "content": content[:2000] if content else "",
        "embeds": [] if embed is None else [embed.to_dict()],
        "components": components,
        "allowed_mentions": NO_PINGS,
    }


async def _callback(
    interaction: discord.Interaction[Any], kind: int, data: dict[str, Any] | None
) -> None:
    """Answer the interaction; Discord's answer is not asked for (nothing reads it)."""
    if not _fast:
        await plain.answer(interaction, kind, data)
        return
    payload: dict[str, Any] = {"type": kind}
    if data is not None:
        payload["data"] = data
    http = interaction.client.http

    def again() -> Awaitable[Any]:
        return internals.create_response(interaction, payload)

    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    session = internals.session_of(interaction)
    await send_json(session, "POST", path, payload, http=http, again=again)
    internals.mark_answered(interaction, _TYPES[kind])


async def respond(interaction: discord.Interaction[Any], data: dict[str, Any]) -> int | None:
    """A new public message as the interaction's answer; its id when Discord says it."""
    if not _fast:
        callback = await plain.answer(interaction, 4, data)
        return None if callback is None else callback.message_id
    answer = await internals.create_response(interaction, {"type": 4, "data": data})
    internals.mark_answered(interaction, _TYPES[4])
    try:
        return int(answer["resource"]["message"]["id"])
    except (KeyError, TypeError, ValueError):
        return None


async def send_private(interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
    """A new ephemeral message as the interaction's answer."""
    await _callback(interaction, 4, {**data, "flags": EPHEMERAL})


async def update(interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
    """Edit the message the clicked control is on, as the interaction's answer."""
    await _callback(interaction, 7, data)


async def modal(interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
    """Open a form (a modal) as the interaction's answer."""
    await _callback(interaction, 9, data)


async def defer(interaction: discord.Interaction[Any], *, new_message: bool) -> None:
    """Acknowledge now, while the 3 s last; `edit_original` fills the answer in later.

    `new_message`: the answer will be a new private message (type 5, "thinking");
    otherwise the clicked message itself is edited (type 6, a deferred update).
    """
    if new_message:
        await _callback(interaction, 5, {"flags": EPHEMERAL})
    else:
        await _callback(interaction, 6, None)


async def edit_answer(interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
    """Edit the interaction's own message: the answer of an acknowledged click."""
    if not _fast:
        await plain.edit_answer(interaction, data)
        return
    await edit_original(interaction.client, interaction.token, data)


async def edit_original(client: discord.Client, token: str, data: dict[str, Any]) -> None:
    """Edit an interaction's own message through its token (valid 15 minutes)."""
    assert client.application_id is not None
    application_id = client.application_id
    http = client.http
    session = _session(client, token)

    def again() -> Awaitable[Any]:
        return internals.edit_original_response(client, token, session, data)

    path = f"/webhooks/{application_id}/{token}/messages/@original"
    await send_json(session, "PATCH", path, data, http=http, again=again)


_SESSIONS: weakref.WeakKeyDictionary[discord.Client, aiohttp.ClientSession] = (
    weakref.WeakKeyDictionary()
)


def _session(client: discord.Client, token: str) -> aiohttp.ClientSession:
    """The client's HTTP session, kept from one panel edit to the next while it is open."""
    session = _SESSIONS.get(client)
    if session is None or session.closed:
        assert client.application_id is not None
        # A partial webhook is the public way to reach the client's HTTP session.
        webhook = discord.Webhook.partial(client.application_id, token, client=client)
        session = _SESSIONS[client] = webhook.session
    return session


def release(interaction: discord.Interaction[Any]) -> None:
    """Once a click is handled, unlink what points back at its interaction.

    An Interaction and its `response` (and its original message, once fetched) refer
    to each other, so every click left a cycle, the parsed message with its embed,
    buttons and member included (about 35 objects), that only the collector frees:
    it was most of the garbage a full collection scanned, and whatever was frozen in
    flight stayed for good. Unlinked, the click is freed as soon as it is done. Only
    for clicks whose handling is over: a later `response` would be a new one that
    does not know the click was answered. With the fast paths off, left to the collector.
    """
    if _fast:
        internals.unlink(interaction)


async def reply(interaction: discord.Interaction[Any], content: str) -> None:
    """Say something privately, whether or not the interaction was answered yet."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content[:2000], ephemeral=True)
        else:
            await interaction.response.send_message(content[:2000], ephemeral=True)
    except (discord.HTTPException, aiohttp.ClientError, RuntimeError) as error:
        # RuntimeError: the HTTP session closed under us while the bot shuts down.
        log.warning("Could not answer interaction %s: %s", interaction.id, error)
