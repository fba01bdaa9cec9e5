"""A no-op discord.py bot: the baseline for bench/bot_load.py.

`/noop` answers with one message carrying a button `noop:{n}`; a click on that button
is answered with a type-6 deferred update (`interaction.response.defer()`) and nothing
else. The button is a `DynamicItem`, dispatched the same way as the UNO bot's controls,
with the same intents (guilds only), so the difference in latency is the bot's own work.

Run by bench/bot_load.py as `python bench/noop_bot.py` with DISCORD_TOKEN,
DISCORD_API_BASE (the emulator) and DEV_GUILD_ID in the environment.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from typing import Any

import discord
import yarl
from discord import app_commands


class NoopButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"noop:(?P<n>\d+)"):
    """Any `noop:{n}` button: acknowledge, change nothing."""

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> NoopButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()  # type 6: DEFERRED_UPDATE_MESSAGE


class NoopBot(discord.Client):
    def __init__(self, *, guild_id: int, api_base: str) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents)
        self.guild_id = guild_id
        self.api_base = api_base
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="noop", description="Post a button that does nothing")
        async def noop(interaction: discord.Interaction[Any]) -> None:
            view = discord.ui.View(timeout=None)
            button: discord.ui.Button[Any] = discord.ui.Button(label="Noop", custom_id="noop:1")
            view.add_item(NoopButton(button))
            await interaction.response.send_message("noop", view=view)

    async def setup_hook(self) -> None:
        _, url, _ = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.add_dynamic_items(NoopButton)
        guild = discord.Object(id=self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def main() -> int:
    api_base = os.environ["DISCORD_API_BASE"].rstrip("/")
    discord.http.Route.BASE = api_base
    bot = NoopBot(guild_id=int(os.environ["DEV_GUILD_ID"]), api_base=api_base)
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])
    return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        sys.exit(0)
