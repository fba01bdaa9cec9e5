"""A tiny discord.py bot for the emulator's own tests: real app commands, views and selects.

Each callback calls the bot's `handlers[name]` when a test set one, else a default
behaviour, and keeps any exception in the bot's `errors` so a test can assert on Discord's
answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.http import MultipartParameters, Route
from discord.webhook.async_ import async_context

Handler = Callable[..., Awaitable[None]]


class ProbeView(discord.ui.View):
    """A Join button and a Pick select whose callbacks defer to the bot's handlers."""

    def __init__(self, bot: TinyBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Join", custom_id="probe:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await self.bot.handle("join", interaction)

    @discord.ui.select(
        custom_id="probe:pick",
        options=[discord.SelectOption(label=f"Card {i}", value=str(i)) for i in range(3)],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await self.bot.handle("pick", interaction, values=select.values)


class TinyBot(discord.Client):
    """`/uno duo [opponent] [target]`, `/uno admin reset`, `/probe [text]`, `/sweep`, ProbeView."""

    def __init__(
        self, *, guild_id: int, intents: discord.Intents | None = None, **options: Any
    ) -> None:
        """`options`: more of discord.Client's, e.g. `shard_id` and `shard_count`."""
        super().__init__(
            intents=intents or discord.Intents.default(), guild_ready_timeout=0.05, **options
        )
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.handlers: dict[str, Handler] = {}
        self.errors: list[BaseException] = []
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.interactions: list[discord.Interaction] = []
        self._build_commands()

    def _build_commands(self) -> None:
        uno = app_commands.Group(name="uno", description="Play UNO")
        admin = app_commands.Group(name="admin", description="Admin tools", parent=uno)

        @uno.command(name="duo", description="Open a UNO Duo table")
        async def duo(
            interaction: discord.Interaction,
            opponent: discord.Member | None = None,
            target: app_commands.Range[int, 100, 1000] = 500,
        ) -> None:
            await self.handle("duo", interaction, opponent=opponent, target=target)

        @admin.command(name="reset", description="Reset this server's scores")
        async def reset(interaction: discord.Interaction) -> None:
            await self.handle("reset", interaction)

        @app_commands.command(name="probe", description="Whatever the test needs")
        async def probe(interaction: discord.Interaction, text: str = "probe") -> None:
            await self.handle("probe", interaction, text=text)

        @app_commands.command(name="sweep", description="Moderators only")
        @app_commands.default_permissions(manage_messages=True)
        async def sweep(interaction: discord.Interaction) -> None:
            await self.handle("sweep", interaction)

        self.tree.add_command(uno, guild=discord.Object(self.guild_id))
        self.tree.add_command(probe)
        self.tree.add_command(sweep)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=discord.Object(self.guild_id))
        await self.tree.sync()

    async def handle(self, name: str, interaction: discord.Interaction, **kwargs: Any) -> None:
        self.calls.append((name, kwargs))
        self.interactions.append(interaction)
        handler = self.handlers.get(name) or getattr(self, f"default_{name}")
        try:
            await handler(interaction, **kwargs)
        except Exception as error:
            self.errors.append(error)

    async def default_duo(
        self, interaction: discord.Interaction, *, opponent: discord.Member | None, target: int
    ) -> None:
        who = opponent.mention if opponent else "anyone"
        await interaction.response.send_message(
            f"Duo table to {target} vs {who}", view=ProbeView(self)
        )

    async def default_reset(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Scores reset", ephemeral=True)

    async def default_probe(self, interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message(text)

    async def default_sweep(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Swept", ephemeral=True)

    async def default_join(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} joined")

    async def default_pick(self, interaction: discord.Interaction, *, values: list[str]) -> None:
        await interaction.response.send_message(f"picked {','.join(values)}", ephemeral=True)

    # -- raw calls, past discord.py's own client-side checks ---------------------------------

    async def respond_raw(
        self, interaction: discord.Interaction, kind: int, data: dict[str, Any] | None = None
    ) -> Any:
        """POST an interaction callback as given (discord.py would refuse a second one)."""
        payload: dict[str, Any] = {"type": kind}
        if data is not None:
            payload["data"] = data
        params = MultipartParameters(payload=payload, multipart=None, files=None)
        return await async_context.get().create_interaction_response(
            interaction.id,
            interaction.token,
            session=interaction._session,
            params=params,
        )

    async def post_raw(self, channel_id: int, payload: dict[str, Any]) -> Any:
        """POST a channel message payload as given."""
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        return await self.http.request(route, json=payload)
