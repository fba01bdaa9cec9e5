"""The /uno command group and the one entry point for every click."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime
from typing import Any, Literal

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from cogs.uno import boards, ids, render
from cogs.uno.lobby import SEATS, Lobby
from cogs.uno.tables import Table, TableManager
from cogs.uno.views import DYNAMIC_ITEMS, build_view
from db.database import Database
from db.errors import StorageError
from db.models import LeaderboardPage, Variant
from engine.actions import Action, CallUno, CatchUno
from engine.errors import IllegalAction

log = logging.getLogger(__name__)

VariantChoice = Literal["duo", "pizza"]
VARIANTS: dict[str, Variant] = {"duo": "duo", "pizza": "pizza"}  # a custom_id's text, checked
UNKNOWN_INTERACTION = 10062  # Discord's code once the 3 s to answer have passed
LATE_CLICK = 2.5  # seconds a click may wait for its table before it is dropped
DUO_TARGET = app_commands.Range[int, 50, 1000]
PIZZA_TARGET = app_commands.Range[int, 50, 1000]


class UserFacingError(Exception):
    """A refusal to show privately to the user who asked."""


THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def missing_permissions(interaction: discord.Interaction[Any]) -> str:
    """The permissions a table needs that the bot lacks in this channel, in words.

    The lobby itself is the interaction's answer, which needs none of them; the
    table, summaries and turn pings are ordinary channel messages with embeds.
    """
    granted = interaction.app_permissions
    in_thread = interaction.channel is not None and interaction.channel.type in THREADS
    needed = {
        "view_channel": "View Channel",
        "send_messages_in_threads" if in_thread else "send_messages": (
            "Send Messages in Threads" if in_thread else "Send Messages"
        ),
        "embed_links": "Embed Links",
    }
    lacking = [f"**{name}**" for flag, name in needed.items() if not getattr(granted, flag)]
    return " and ".join(", ".join(lacking).rsplit(", ", 1)) if lacking else ""


class UnoCog(commands.Cog):
    """Tables in channels, hands in ephemeral panels, scoreboards per server."""

    uno = app_commands.Group(name="uno", description="Play UNO Duo or UNO Pocket Pizza Pizza")

    def __init__(self, bot: commands.Bot, db: Database) -> None:
        self.bot = bot
        self.db = db
        settings = getattr(bot, "settings", None)
        self.tables = TableManager(
            bot,
            db,
            turn_seconds=getattr(settings, "turn_seconds", 90),
            table_seed=getattr(settings, "table_seed", None),
        )
        self.lobbies: dict[int, Lobby] = {}
        self._lobby_timers: dict[int, asyncio.Task[None]] = {}

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        restored = await self.tables.restore_all()
        log.info("Restored %d running tables", restored)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        await self.tables.shutdown()
        for task in self._lobby_timers.values():
            task.cancel()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        # Needs only the non-privileged guild_messages intent: no content is read.
        self.tables.note_channel_message(message.channel.id, message.author.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(channel_id=channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._gone(channel_id=payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self._gone(guild_id=guild.id)

    async def _gone(self, *, channel_id: int = 0, guild_id: int = 0) -> None:
        """A table or lobby whose channel (or server) vanished must not hold its players."""
        for lobby in list(self.lobbies.values()):
            if lobby.channel_id == channel_id or lobby.guild_id == guild_id:
                self._close_lobby(lobby)
        await self.tables.close_where_gone(channel_id=channel_id, guild_id=guild_id)

    # -- errors: one handler ------------------------------------------------------

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserFacingError | IllegalAction):
            await reply(interaction, str(original))
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await reply(interaction, "UNO tables live in server channels: use this in a server.")
            return
        log.error(
            "Command %s failed in channel %s",
            interaction.command.qualified_name if interaction.command else "?",
            interaction.channel_id,
            exc_info=original,
        )
        await reply(interaction, "Something went wrong on my side; nothing was changed.")

    # -- opening tables -----------------------------------------------------------

    def _busy_channel(self, channel_id: int) -> str | None:
        table = self.tables.in_channel(channel_id)
        if table is not None:
            link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"
            return f"There's already a game at this table: {link} — one table per channel."
        if channel_id in self.lobbies:
            return "There's already a lobby open in this channel: join it, or wait for it to close."
        return None

    def _seated_elsewhere(self, user_id: int) -> str | None:
        table = self.tables.of_player(user_id)
        if table is not None:
            return f"<#{table.channel_id}>"
        for lobby in self.lobbies.values():
            if lobby.seated(user_id):
                return f"<#{lobby.channel_id}>"
        return None

    @uno.command(name="duo", description="Open a UNO Duo table here (2 players).")
    @app_commands.guild_only()
    @app_commands.describe(
        opponent="Only this member can accept (leave empty: the first to join plays)",
        target="Points that lose the match (default 200)",
    )
    async def duo(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        target: DUO_TARGET = 200,
    ) -> None:
        await self._open_lobby(interaction, "duo", target=target, opponent=opponent)

    @uno.command(name="pizza", description="Open a UNO Pocket Pizza Pizza lobby (2–5 players).")
    @app_commands.guild_only()
    @app_commands.describe(target="Points that win the match (default 250)")
    async def pizza(
        self, interaction: discord.Interaction[Any], target: PIZZA_TARGET = 250
    ) -> None:
        await self._open_lobby(interaction, "pizza", target=target, opponent=None)

    async def _open_lobby(
        self,
        interaction: discord.Interaction[Any],
        variant: VariantChoice,
        *,
        target: int,
        opponent: discord.Member | None,
    ) -> None:
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        user = interaction.user
        if busy := self._busy_channel(interaction.channel_id):
            raise UserFacingError(busy)
        if missing := missing_permissions(interaction):
            raise UserFacingError(
                f"I can't run a table in this channel: I need {missing} here. Ask a server "
                "admin to grant it, or open the table in another channel."
            )
        if where := self._seated_elsewhere(user.id):
            raise UserFacingError(
                f"You're already at a table in {where}: finish or `/uno leave` it first."
            )
        if opponent is not None:
            if opponent.bot:
                raise UserFacingError(
                    f"{render.escape_name(opponent.display_name)} is a bot and can't play UNO."
                )
            if opponent.id == user.id:
                raise UserFacingError("You can't challenge yourself — pick another member.")
            if where := self._seated_elsewhere(opponent.id):
                raise UserFacingError(
                    f"{render.escape_name(opponent.display_name)} is already at a table in {where}."
                )
        lobby = Lobby(
            channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
            host_id=user.id,
            variant=variant,
            target=target,
            seats=[(user.id, user.display_name)],
            invited_id=opponent.id if opponent else None,
        )
        self.lobbies[lobby.channel_id] = lobby
        mentions = discord.AllowedMentions(users=[opponent] if opponent else False)
        await interaction.response.send_message(
            content=opponent.mention if opponent else None,
            embed=lobby.embed(),
            view=build_view(lobby.components()),
            allowed_mentions=mentions,
        )
        message = await interaction.original_response()
        lobby.message_id = message.id
        self._lobby_timers[lobby.channel_id] = asyncio.create_task(self._expire_lobby(lobby))

    async def _expire_lobby(self, lobby: Lobby) -> None:
        await asyncio.sleep((lobby.expires_at - datetime.now(UTC)).total_seconds())
        if self.lobbies.get(lobby.channel_id) is not lobby or lobby.starting:
            return
        del self.lobbies[lobby.channel_id]
        self._lobby_timers.pop(lobby.channel_id, None)
        if lobby.message_id is not None:
            channel = self.bot.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
            try:
                await channel.get_partial_message(lobby.message_id).edit(
                    content=None,
                    embed=lobby.closed_embed("This lobby expired before the game started."),
                    view=None,
                )
            except discord.HTTPException:
                log.warning("Could not mark lobby in channel %s expired", lobby.channel_id)

    def _close_lobby(self, lobby: Lobby) -> None:
        self.lobbies.pop(lobby.channel_id, None)
        timer = self._lobby_timers.pop(lobby.channel_id, None)
        if timer is not None:
            timer.cancel()

    async def _on_lobby(
        self, interaction: discord.Interaction[Any], code: str, channel_id: int
    ) -> None:
        lobby = self.lobbies.get(channel_id)
        if lobby is None or lobby.starting:
            await reply(
                interaction, "This lobby is closed. Open a new one with `/uno duo` or `/uno pizza`."
            )
            return
        user = interaction.user
        host = user.id == lobby.host_id
        if code in ("accept", "decline") and user.id != lobby.invited_id:
            await reply(interaction, "Only the challenged member can answer this invitation.")
            return
        if code == "decline":
            self._close_lobby(lobby)
            await interaction.response.edit_message(
                content=None,
                embed=lobby.closed_embed(f"{render.escape_name(user.display_name)} declined."),
                view=None,
            )
            return
        if code == "cancel":
            if not host:
                await reply(interaction, "Only the host can cancel this lobby.")
                return
            self._close_lobby(lobby)
            await interaction.response.edit_message(
                content=None, embed=lobby.closed_embed("The host cancelled the lobby."), view=None
            )
            return
        if code in ("join", "accept"):
            if lobby.seated(user.id):
                await reply(interaction, "You're already seated here.")
                return
            if where := self._seated_elsewhere(user.id):
                await reply(interaction, f"You're already at a table in {where}.")
                return
            if lobby.full:
                await reply(interaction, "This table is full.")
                return
            lobby.seats.append((user.id, user.display_name))
            if lobby.variant == "duo":
                await self._start_lobby(interaction, lobby)
                return
            await interaction.response.edit_message(
                embed=lobby.embed(), view=build_view(lobby.components())
            )
            return
        if code == "leave":
            if not lobby.seated(user.id):
                await reply(interaction, "You're not seated in this lobby.")
                return
            if host:
                self._close_lobby(lobby)
                await interaction.response.edit_message(
                    content=None,
                    embed=lobby.closed_embed("The host left; lobby closed."),
                    view=None,
                )
                return
            lobby.seats = [seat for seat in lobby.seats if seat[0] != user.id]
            await interaction.response.edit_message(
                embed=lobby.embed(), view=build_view(lobby.components())
            )
            return
        if code == "start":
            if not host:
                await reply(interaction, "Only the host can start the game.")
                return
            if not lobby.can_start:
                low = SEATS[lobby.variant][0]
                await reply(interaction, f"At least {low} players must be seated to start.")
                return
            await self._start_lobby(interaction, lobby)

    async def _start_lobby(self, interaction: discord.Interaction[Any], lobby: Lobby) -> None:
        lobby.starting = True
        self._close_lobby(lobby)
        await interaction.response.defer()  # the lobby message becomes the table below
        assert interaction.message is not None
        await self.tables.start(
            guild_id=lobby.guild_id,
            channel_id=lobby.channel_id,
            host_id=lobby.host_id,
            variant=lobby.variant,
            seats=lobby.seats,
            target=lobby.target,
            message=interaction.message,
        )

    # -- every click ----------------------------------------------------------------

    async def on_control(
        self,
        interaction: discord.Interaction[Any],
        control: ids.ParsedId | None,
        *,
        values: tuple[str, ...],
    ) -> None:
        """Route a click; always answer, privately when it is a refusal."""
        received = time.monotonic()
        try:
            await self._route(interaction, control, values, received=received)
        except Exception as error:
            if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
                # Discord gave up on this click (3 s passed): nobody is left to answer.
                log.warning("Click by %s answered too late", interaction.user.id)
                return
            if isinstance(error, StorageError):
                # The file is locked by another program, full or failing: the error names
                # the operation and SQLite's reason; a traceback would add nothing.
                log.error(
                    "Click by %s in channel %s not saved: %s",
                    interaction.user.id,
                    interaction.channel_id,
                    error,
                )
                await reply(
                    interaction,
                    "I couldn't save that move just now, so nothing was changed. "
                    "Try again in a moment.",
                )
                return
            log.exception(
                "Click %s by %s failed",
                interaction.data.get("custom_id") if interaction.data else "?",
                interaction.user.id,
            )
            await reply(interaction, "Something went wrong on my side; nothing was changed.")

    async def _route(
        self,
        interaction: discord.Interaction[Any],
        control: ids.ParsedId | None,
        values: tuple[str, ...],
        *,
        received: float,
    ) -> None:
        if not isinstance(control, ids.TableControl):
            await reply(interaction, "That button is no longer valid.")
            return
        if self.tables.closing:
            await reply(interaction, "I'm restarting; every game is saved. Try again in a minute.")
            return
        if control.code in ids.LOBBY_CODES:
            await self._on_lobby(interaction, control.code, control.table_id)
            return
        table = self.tables.tables.get(control.table_id)
        if table is None or table.closed:
            await reply(
                interaction, "This game is over. Start a new one with `/uno duo` or `/uno pizza`."
            )
            return
        player = str(interaction.user.id)
        if not table.seated(interaction.user.id):
            await reply(
                interaction,
                "You're not playing at this table. Start your own with `/uno duo` or `/uno pizza`.",
            )
            return
        if control.code == ids.HAND:
            await self.send_panel(interaction, table, player)
            return
        if control.code == ids.UNO:
            await self._press_uno(interaction, table, player)
            return
        if control.page is not None:
            await self.update_panel(interaction, table, player, page=control.page)
            return
        action = control.action
        if control.is_select:
            action = ids.decode_action(values[0]) if values else None
        if action is None:
            await self.send_panel(
                interaction, table, player, note="That control is no longer valid."
            )
            return
        await self._act(
            interaction, table, player, action, version=control.version, received=received
        )

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        player: str,
        action: Action,
        *,
        version: int,
        received: float,
    ) -> None:
        async with table.lock:
            waited = time.monotonic() - received
            if waited > LATE_CLICK:
                # Discord has told the player this click failed: don't play it behind
                # their back. Their panel still offers the same choice.
                log.warning(
                    "Dropped a click that waited %.1f s at table %s", waited, table.match_id
                )
                return
            if table.closed or self.tables.closing:
                await reply(interaction, "This game is over or I'm restarting; nothing changed.")
                return
            if version != table.match.version:
                await self.update_panel(
                    interaction,
                    table,
                    player,
                    note="⌛ That button was out of date — here is your hand now.",
                )
                return
            try:
                table.match.check(player, action)
            except IllegalAction as refusal:
                await self.update_panel(interaction, table, player, note=f"⚠️ {refusal.message}")
                return

            async def respond() -> None:
                await self.update_panel(interaction, table, player)

            await self.tables.apply(table, player, action, respond=respond)

    async def _press_uno(
        self, interaction: discord.Interaction[Any], table: Table, player: str
    ) -> None:
        async with table.lock:
            legal = table.match.legal_actions(player)
            action: Action
            if CallUno() in legal:
                action, said = CallUno(), "📣 You called **UNO!**"
            elif CatchUno() in legal:
                action, said = CatchUno(), "🎯 Caught! They draw 2 cards."
            else:
                await reply(interaction, "Nobody needs to call UNO right now, so nothing happened.")
                return

            async def respond() -> None:
                await interaction.response.send_message(said, ephemeral=True)

            await self.tables.apply(table, player, action, respond=respond)

    # -- hand panels -------------------------------------------------------------------

    async def send_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        player: str,
        *,
        note: str | None = None,
    ) -> None:
        """A new ephemeral hand panel; its token lets the bot update it for 15 minutes."""
        hand = self.tables.panel_for(table, player)
        content = f"{note}\n{hand.content}" if note else hand.content
        await interaction.response.send_message(
            content=content[:2000],
            embed=discord.utils.MISSING if hand.embed is None else hand.embed,
            view=build_view(hand.components),
            ephemeral=True,
        )
        self.tables.remember_panel(table, player, interaction)

    async def update_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        player: str,
        *,
        note: str | None = None,
        page: int = 0,
    ) -> None:
        """Redraw the panel the click came from (or send one for clicks elsewhere)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            await self.send_panel(interaction, table, player, note=note)
            return
        hand = self.tables.panel_for(table, player, page=page)
        content = f"{note}\n{hand.content}" if note else hand.content
        await interaction.response.edit_message(
            content=content[:2000], embed=hand.embed, view=build_view(hand.components)
        )
        self.tables.remember_panel(table, player, interaction)

    # -- the other commands ----------------------------------------------------------------

    @uno.command(name="hand", description="Show your cards and your choices (only you see it).")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        user_id = interaction.user.id
        table = self._table_for(user_id=user_id, channel_id=interaction.channel_id or 0)
        await self.send_panel(interaction, table, str(user_id))

    def _table_for(self, *, user_id: int, channel_id: int) -> Table:
        """The caller's table, this channel's first; else a refusal that says why."""
        here = self.tables.in_channel(channel_id)
        if here is not None and here.seated(user_id):
            return here
        anywhere = self.tables.of_player(user_id)
        if anywhere is not None:
            return anywhere
        for lobby in self.lobbies.values():
            if lobby.seated(user_id):
                # Telling them to start a table would send them to a refusal: they sit in one.
                raise UserFacingError(
                    f"The game in <#{lobby.channel_id}> hasn't started yet: "
                    "your hand comes once it does."
                )
        raise UserFacingError(
            "You're not playing at any table. Start one with `/uno duo` or `/uno pizza`."
        )

    @uno.command(
        name="leave", description="Leave your table (a forfeit once the game has started)."
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        user_id = interaction.user.id
        for lobby in list(self.lobbies.values()):
            if lobby.seated(user_id):
                if user_id == lobby.host_id:
                    self._close_lobby(lobby)
                    await self._edit_lobby_message(
                        lobby, lobby.closed_embed("The host left; lobby closed.")
                    )
                else:
                    lobby.seats = [s for s in lobby.seats if s[0] != user_id]
                    await self._edit_lobby_message(lobby, lobby.embed(), keep_buttons=True)
                await reply(interaction, "You left the lobby.")
                return
        table = self._table_for(user_id=user_id, channel_id=interaction.channel_id or 0)
        async with table.lock:
            if table.closed:
                raise UserFacingError("That game is already over.")

            async def respond() -> None:
                await reply(interaction, "You left the table; that counts as a forfeit (X3).")

            await self.tables.apply(table, str(user_id), None, respond=respond)

    async def _edit_lobby_message(
        self, lobby: Lobby, embed: discord.Embed, *, keep_buttons: bool = False
    ) -> None:
        if lobby.message_id is None:
            return
        channel = self.bot.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
        view = build_view(lobby.components()) if keep_buttons else None
        try:
            await channel.get_partial_message(lobby.message_id).edit(
                content=None, embed=embed, view=view
            )
        except discord.HTTPException:
            log.warning("Could not update the lobby message in channel %s", lobby.channel_id)

    @uno.command(
        name="end", description="Close the table in this channel (host or Manage Messages)."
    )
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        channel_id = interaction.channel_id or 0
        permissions = interaction.permissions
        lobby = self.lobbies.get(channel_id)
        if lobby is not None:
            if interaction.user.id != lobby.host_id and not permissions.manage_messages:
                raise UserFacingError(
                    "Only the host or a member with Manage Messages can end this lobby."
                )
            self._close_lobby(lobby)
            await self._edit_lobby_message(
                lobby,
                lobby.closed_embed(
                    f"Closed by {render.escape_name(interaction.user.display_name)}."
                ),
            )
            await reply(interaction, "Lobby closed.")
            return
        table = self.tables.in_channel(channel_id)
        if table is None:
            raise UserFacingError("There's no table in this channel.")
        if interaction.user.id != table.host_id and not permissions.manage_messages:
            raise UserFacingError(
                "Only the host or a member with Manage Messages can end this table."
            )
        ender = render.escape_name(interaction.user.display_name)
        # Closing edits the table message, which a rate limit may delay: answer first.
        await interaction.response.defer(thinking=True)
        async with table.lock:
            await self.tables.close(table, reason=f"Ended by {ender}; not scored.")
        await interaction.edit_original_response(
            content=f"🛑 {ender} ended the game; the unfinished match is not scored."
        )

    @uno.command(name="leaderboard", description="This server's UNO leaderboard.")
    @app_commands.guild_only()
    @app_commands.describe(variant="Which game (default UNO Duo)")
    async def leaderboard(
        self, interaction: discord.Interaction[Any], variant: VariantChoice = "duo"
    ) -> None:
        assert interaction.guild_id is not None
        page = await self.db.scores.leaderboard(
            guild_id=interaction.guild_id, variant=variant, page=1
        )
        embed, specs = boards.leaderboard(
            page, guild_name=interaction.guild.name if interaction.guild else ""
        )
        await interaction.response.send_message(embed=embed, view=build_view(specs))

    async def on_leaderboard_page(
        self, interaction: discord.Interaction[Any], control: ids.ParsedId | None
    ) -> None:
        try:
            variant = (
                VARIANTS.get(control.variant) if isinstance(control, ids.LeaderboardPage) else None
            )
            if not isinstance(control, ids.LeaderboardPage) or variant is None:
                await reply(interaction, "That button is no longer valid.")
                return
            assert interaction.guild_id is not None
            page = await board_page(
                self.db, guild_id=interaction.guild_id, variant=variant, page=control.page
            )
            embed, specs = boards.leaderboard(
                page, guild_name=interaction.guild.name if interaction.guild else ""
            )
            await interaction.response.edit_message(embed=embed, view=build_view(specs))
        except Exception:
            log.exception("Leaderboard page failed")
            await reply(interaction, "Something went wrong on my side.")

    @uno.command(name="stats", description="A member's UNO record in this server.")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        who = member or interaction.user
        records = {
            variant: await self.db.scores.member_stats(
                guild_id=interaction.guild_id, user_id=who.id, variant=variant
            )
            for variant in ("duo", "pizza")
        }
        await interaction.response.send_message(
            embed=boards.stats(who.display_name, records), ephemeral=True
        )

    @uno.command(name="rules", description="The rules, short and private.")
    @app_commands.describe(variant="Which game")
    async def rules(
        self, interaction: discord.Interaction[Any], variant: VariantChoice = "duo"
    ) -> None:
        await interaction.response.send_message(render.rules_text(variant)[:2000], ephemeral=True)


async def board_page(
    db: Database, *, guild_id: int, variant: Variant, page: int
) -> LeaderboardPage:
    """Page `page` of the board; its last page if the board shrank since the button was drawn."""
    board = await db.scores.leaderboard(guild_id=guild_id, variant=variant, page=page)
    if board.page > board.pages:
        board = await db.scores.leaderboard(guild_id=guild_id, variant=variant, page=board.pages)
    return board


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
