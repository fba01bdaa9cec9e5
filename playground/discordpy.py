"""Run an unmodified discord.py client in this process against the emulator."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator

import discord
import yarl
from discord.asset import Asset
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import Emulator


@contextlib.contextmanager
def pointed_at(emulator: Emulator) -> Iterator[None]:
    """Point discord.py's API base, default gateway and CDN at the emulator, then restore them.

    discord.py 2.7's plain `Client` connects to `DiscordWebSocket.DEFAULT_GATEWAY` and never
    asks `GET /gateway/bot`, so a bot must set both (bot.py: see playground/README.md).
    Emoji and other asset URLs start with `Asset.BASE`, the CDN, which the emulator serves.
    """
    old = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE
    Route.BASE = emulator.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(emulator.gateway_url)
    Asset.BASE = emulator.base_url
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE = old


@contextlib.asynccontextmanager
async def running(
    client: discord.Client, emulator: Emulator, *, token: str | None = None
) -> AsyncIterator[discord.Client]:
    """Start `client` against `emulator`, wait for its ready event, close it on exit."""
    with pointed_at(emulator):
        task = asyncio.create_task(client.start(token or emulator.token))
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            await asyncio.wait({task, ready}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                task.result()  # raises the login or connection error
            if not ready.done():
                raise TimeoutError("the client did not become ready within 10 s")
            yield client
        finally:
            ready.cancel()
            await client.close()
            with contextlib.suppress(asyncio.CancelledError, discord.DiscordException):
                await task
