"""The /uno commands and the listeners: each delegates to a named part."""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.uno import guide
from cogs.uno.boards.forget import forget
from cogs.uno.command_errors import TooLate, answer_command_error
from cogs.uno.config import UnoSettings
from cogs.uno.i18n.l10n import N_, member_language, speak
from cogs.uno.parts import AnyBot, UnoParts
from cogs.uno.refusal import UserFacingError
from cogs.uno.settings.pings import set_pings
from cogs.uno.transport.click_clock import TOO_LATE
from db.database import Database
from engine.match import Variant

log = logging.getLogger(__name__)

VariantChoice = Literal["duo", "pizza", "classic"]
StrengthChoice = Literal["easy", "normal", "hard"]
TARGET = app_commands.Range[int, 50, 1000]
MAX_ID = 2**53  # a match number as Discord's integer options carry it


class UnoCog(commands.Cog):
    """Tables in channels, hands in ephemeral panels, scoreboards per server."""

    uno = app_commands.Group(
        name="uno", description=N_("Play UNO: Duo, Pocket Pizza Pizza or classic")
    )

    def __init__(self, bot: AnyBot, db: Database, settings: UnoSettings) -> None:
        self.db = db
        self.parts = UnoParts(bot, db, settings)
        self.bot = bot

    async def cog_load(self) -> None:
        await self.parts.start()

    async def cog_unload(self) -> None:
        await self.parts.stop()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        # Needs only the non-privileged guild_messages intent: no content is read.
        table = self.parts.tables.registry.in_channel(message.channel.id)
        self.parts.message.note_channel_message(table, message.author.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.parts.gone(channel_id=channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.parts.gone(channel_id=payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.parts.gone(guild_id=guild.id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await self.parts.router.handle(interaction)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """A command that waited past Discord's 3 s is dropped without work; its private
        answers speak the member's language."""
        speak(member_language(interaction))
        age = self.parts.router.clock.age(interaction.id)
        if age >= TOO_LATE:
            raise TooLate(f"arrived {age:.1f} s after it was made")
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await answer_command_error(interaction, error)

    @uno.command(name="duo", description=N_("Open a UNO Duo table here (2 players)."))
    @app_commands.guild_only()
    @app_commands.describe(
        opponent=N_(
            "Only this member can accept (leave empty: the first to join plays; "
            "name me to play the computer)"
        ),
        target=N_("Points that lose the match (default: this server's setting, else 200)"),
        strength=N_("How well the computer plays, if you play it (default normal)"),
    )
    async def duo(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        target: TARGET | None = None,
        strength: StrengthChoice = "normal",
    ) -> None:
        me = self.bot.user
        computer = opponent is not None and me is not None and opponent.id == me.id
        await self._open(interaction, "duo", target, opponent, strength if computer else None)

    @uno.command(name="pizza", description=N_("Open a UNO Pocket Pizza Pizza lobby (2–5 players)."))
    @app_commands.guild_only()
    @app_commands.describe(
        target=N_("Points that win the match (default: this server's setting, else 250)")
    )
    async def pizza(
        self, interaction: discord.Interaction[Any], target: TARGET | None = None
    ) -> None:
        await self._open(interaction, "pizza", target, None, None)

    @uno.command(name="classic", description=N_("Open a classic UNO lobby (2–10 players)."))
    @app_commands.guild_only()
    @app_commands.describe(
        target=N_("Points that win the match (default: this server's setting, else 500)")
    )
    async def classic(
        self, interaction: discord.Interaction[Any], target: TARGET | None = None
    ) -> None:
        await self._open(interaction, "classic", target, None, None)

    async def _open(
        self,
        interaction: discord.Interaction[Any],
        variant: Variant,
        target: int | None,
        opponent: discord.Member | None,
        computer: str | None,
    ) -> None:
        refusal = await self.parts.lobby_clicks.open_command(
            interaction, variant, target=target, opponent=opponent, computer=computer
        )
        if refusal is not None:
            raise UserFacingError(refusal)

    @uno.command(name="hand", description=N_("Show your cards and your choices (only you see it)."))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        user_id = interaction.user.id
        where = interaction.channel_id or 0
        table = self.parts.whereabouts.table_for(user_id=user_id, channel_id=where)
        await self.parts.table_clicks.show_panel(interaction, table, str(user_id))

    @uno.command(
        name="leave", description=N_("Leave your table (a forfeit once the game has started).")
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self.parts.whereabouts.leave(interaction)

    @uno.command(
        name="end", description=N_("Close the table in this channel (host or Manage Messages).")
    )
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self.parts.whereabouts.end(interaction)

    @uno.command(name="leaderboard", description=N_("This server's UNO leaderboard."))
    @app_commands.guild_only()
    @app_commands.describe(
        variant=N_("Which game (default UNO Duo)"),
        ranking=N_("skill: by skill rating, from 5 matches (default); wins: by matches won"),
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        variant: VariantChoice = "duo",
        ranking: Literal["skill", "wins"] = "skill",
    ) -> None:
        await self.parts.boards.first_page(interaction, variant, by_rating=ranking == "skill")

    @uno.command(name="stats", description=N_("A member's UNO record in this server."))
    @app_commands.guild_only()
    @app_commands.describe(member=N_("Whose record (default: yours)"))
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        await self.parts.boards.record(interaction, member or interaction.user)

    @uno.command(name="forget", description=N_("Erase a member's UNO record in this server."))
    @app_commands.guild_only()
    @app_commands.describe(
        member=N_("Whose record (default: yours; another's needs Manage Server)"),
        user_id=N_("The id of a member who left the server (needs Manage Server)"),
    )
    async def forget(
        self,
        interaction: discord.Interaction[Any],
        member: discord.User | None = None,
        user_id: str | None = None,
    ) -> None:
        await forget(self.db, interaction, member, user_id)
        self.parts.replays.forget()  # kept replays name the member's seat

    @uno.command(name="history", description=N_("A member's finished matches here, to replay."))
    @app_commands.guild_only()
    @app_commands.describe(
        member=N_("Whose matches (default: yours)"),
        variant=N_("Which game (default: every game)"),
    )
    async def history(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        variant: VariantChoice | None = None,
    ) -> None:
        await self.parts.past.history(interaction, member or interaction.user, variant)

    @uno.command(name="replay", description=N_("Step through a finished match (only you see it)."))
    @app_commands.guild_only()
    @app_commands.describe(match=N_("The match's number: under its summary, and in /uno history"))
    async def replay(
        self, interaction: discord.Interaction[Any], match: app_commands.Range[int, 1, MAX_ID]
    ) -> None:
        await self.parts.past.show(interaction, match, step=0, new=True)

    @uno.command(name="settings", description=N_("This server's UNO settings (Manage Server)."))
    @app_commands.guild_only()
    # Discord applies default permissions to a top-level command only, so this one
    # is listed for everyone: the panel itself checks Manage Server on every use.
    @app_commands.default_permissions(manage_guild=True)
    async def settings(self, interaction: discord.Interaction[Any]) -> None:
        await self.parts.server_settings.show(interaction)

    @uno.command(name="pings", description=N_("Whether the bot mentions you (everywhere)."))
    @app_commands.describe(
        state=N_("off: the bot names you without a mention; on: it mentions you")
    )
    async def pings(
        self, interaction: discord.Interaction[Any], state: Literal["off", "on"]
    ) -> None:
        await set_pings(self.db, self.parts.tables, interaction, state)

    @uno.command(name="rules", description=N_("The rules, short and private."))
    @app_commands.describe(variant=N_("Which game"))
    async def rules(
        self, interaction: discord.Interaction[Any], variant: VariantChoice = "duo"
    ) -> None:
        await guide.show_rules(self.db, interaction, variant)


async def install(bot: AnyBot, db: Database, settings: UnoSettings) -> None:
    """Add the UNO cog; it restores the running tables as it loads."""
    await bot.add_cog(UnoCog(bot, db, settings))
