"""The /uno commands and the one click router; everything else is a named part."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.uno import answers, ids, payloads, render
from cogs.uno.click_clock import TOO_LATE, ClickClock
from cogs.uno.collector import Collector
from cogs.uno.computers import ComputerSeats
from cogs.uno.history import ids as history_ids
from cogs.uno.history.library import ReplayLibrary
from cogs.uno.history.panels import HistoryPanels
from cogs.uno.history.retention import LogRetention
from cogs.uno.issued import click_data
from cogs.uno.l10n import N_, member_language, server_language, speak, speaking, t, tn
from cogs.uno.lobbies import LobbyManager
from cogs.uno.lobby_clicks import LobbyClicks
from cogs.uno.outcome import Accepted, Refused
from cogs.uno.owed_endings import OwedEndings
from cogs.uno.panels import HandPanels
from cogs.uno.raw_http import close_connections
from cogs.uno.refusals import refusal_words
from cogs.uno.rematches import Rematches
from cogs.uno.render import OPEN_COMMANDS, ButtonSpec
from cogs.uno.scoreboards import Scoreboards
from cogs.uno.server_settings import ServerSettings
from cogs.uno.settings import UnoSettings
from cogs.uno.table import Table
from cogs.uno.table_clicks import TableClicks
from cogs.uno.table_message import TableMessage
from cogs.uno.table_options import TableOptions
from cogs.uno.tables import REMOVE, TableService
from db.database import Database
from db.errors import DatabaseError, MemberPlaying, StorageError
from engine.errors import IllegalAction
from engine.match import Variant

log = logging.getLogger(__name__)

VariantChoice = Literal["duo", "pizza", "classic"]
StrengthChoice = Literal["easy", "normal", "hard"]
AnyBot = commands.Bot | commands.AutoShardedBot  # bot.py's runs shards; tests' need not
UNKNOWN_INTERACTION = 10062  # Discord's code once the 3 s to answer have passed
DUO_TARGET = app_commands.Range[int, 50, 1000]
PIZZA_TARGET = app_commands.Range[int, 50, 1000]
CLASSIC_TARGET = app_commands.Range[int, 50, 1000]
MAX_ID = 2**53  # a match number as Discord's integer options carry it
OUT_OF_DATE = N_("That control is out of date. Press **Hand** on your table for a fresh one.")


SOMETHING_WRONG = N_("Something went wrong on my side; nothing was changed.")


class UserFacingError(Exception):
    """A refusal to show privately to the user who asked."""


class TooLate(app_commands.CheckFailure):
    """The command waited past Discord's 3 s: nobody is left to answer."""


class UnoCog(commands.Cog):
    """Tables in channels, hands in ephemeral panels, scoreboards per server."""

    uno = app_commands.Group(
        name="uno", description=N_("Play UNO: Duo, Pocket Pizza Pizza or classic")
    )

    def __init__(self, bot: AnyBot, db: Database, settings: UnoSettings) -> None:
        self.bot = bot
        self.db = db
        self.clock = ClickClock()
        self.panels = HandPanels(bot)
        self.message = TableMessage(bot, self.panels, db, quiet=settings.table_quiet)
        self.tables = TableService(db, settings, self.message)
        self.lobbies = LobbyManager(bot, db, settings, self.tables.registry)
        self.table_clicks = TableClicks(self.tables, self.panels)
        self.lobby_clicks = LobbyClicks(self.lobbies, self.tables)
        self.boards = Scoreboards(db)
        self.server_settings = ServerSettings(db, default_seconds=settings.turn_seconds)
        self.collector = Collector()
        self.computers = ComputerSeats(
            self.tables, delay=settings.computer_delay, seed=settings.table_seed
        )
        self.tables.on_moved = self.computers.wake
        self.rematches = Rematches(self.tables, self.lobbies, db)
        self.message.final_buttons = self.rematches.offer
        self.owed = OwedEndings(self.tables, self.message)
        self._owed_task: asyncio.Task[None] | None = None
        self.replays = ReplayLibrary(db, turn_seconds=settings.turn_seconds)
        self.past = HistoryPanels(db, self.replays)
        self.retention = LogRetention(db, days=settings.replay_days)

    async def cog_load(self) -> None:
        # Before the tables are back: their re-posts would race the look for old messages.
        replaced = await self.message.retire_replaced()
        restored = await self.tables.restore_all()
        lobbies = await self.lobbies.retire_left_open()
        ended = await self.message.retire_ended()
        offers = await self.rematches.restore()
        log.info(
            "Restored %d running tables and %d rematch offers; took the buttons off %d "
            "lobbies and %d ended tables, removed %d replaced table messages",
            restored,
            offers,
            lobbies,
            ended,
            replaced,
        )
        self._owed_task = asyncio.create_task(self._show_owed(), name="uno-owed-endings")
        self.retention.start()
        self.collector.freeze()

    async def _show_owed(self) -> None:
        """Ends the last run committed but did not show, once the servers (and so their
        languages) are known."""
        await self.bot.wait_until_ready()
        try:
            shown = await self.owed.show_all()
        except DatabaseError as error:
            log.warning("Could not show the ends owed from before the restart: %s", error)
            return
        if shown:
            log.info("Showed the end of %d matches that ended before the restart", shown)

    async def cog_unload(self) -> None:
        self.collector.close()
        await self.retention.stop()
        self.computers.shutdown()
        if self._owed_task is not None:
            self._owed_task.cancel()
        await self.tables.shutdown()
        self.lobbies.shutdown()
        close_connections()  # no answer or panel edit is sent after this

    # -- listeners ---------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        # Needs only the non-privileged guild_messages intent: no content is read.
        table = self.tables.registry.in_channel(message.channel.id)
        self.message.note_channel_message(table, message.author.id)

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
        self.lobbies.drop_where_gone(channel_id=channel_id, guild_id=guild_id)
        await self.tables.close_where_gone(channel_id=channel_id, guild_id=guild_id)

    # -- the one click router ---------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click and select: parsed once, answered once, privately when refused."""
        if interaction.type not in (
            discord.InteractionType.component,
            discord.InteractionType.modal_submit,
        ):
            return
        age = self.clock.age(interaction.id)
        if age >= TOO_LATE:
            log.info("Dropped a click that arrived %.1f s after it was made", age)
            return
        custom_id, values = click_data(interaction)
        control = ids.parse_custom_id(custom_id) or history_ids.parse(custom_id)
        with speaking(member_language(interaction)):  # public messages say otherwise
            try:
                await self._route(interaction, control, values, age=age)
            except Exception as error:
                await self._click_failed(interaction, error)
            finally:
                answers.release(interaction)

    async def _route(
        self,
        interaction: discord.Interaction[Any],
        control: ids.ParsedId | history_ids.HistoryClick | None,
        values: tuple[str, ...],
        *,
        age: float,
    ) -> None:
        if isinstance(control, ids.LeaderboardPage):
            await self.boards.turn_page(interaction, control)
        elif isinstance(control, ids.Rematch):
            await self.rematches.click(interaction, control.table_id)
        elif isinstance(control, ids.Share):
            await self.boards.share(interaction, control)
        elif isinstance(control, ids.RulesDetails):
            await _rules_details(interaction, control.variant)
        elif isinstance(control, ids.SettingsControl):
            await self.server_settings.click(interaction, control)
        elif isinstance(control, history_ids.HistoryClick):
            await self.past.click(interaction, control)
        elif self.tables.closing:
            await answers.reply(
                interaction, t("I'm restarting; every game is saved. Try again in a minute.")
            )
        elif isinstance(control, ids.TableControl):
            await self.table_clicks.click(interaction, control, values, age=age)
        elif isinstance(control, ids.LobbyControl):
            refusal = await self.lobby_clicks.click(interaction, control)
            if refusal is not None:
                await answers.reply(interaction, refusal)
        else:
            await answers.reply(interaction, t(OUT_OF_DATE))

    async def _click_failed(self, interaction: discord.Interaction[Any], error: Exception) -> None:
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
            await answers.reply(
                interaction,
                t(
                    "I couldn't save that move just now, so nothing was changed. "
                    "Try again in a moment."
                ),
            )
            return
        log.error(
            "Click %s by %s failed",
            click_data(interaction)[0],
            interaction.user.id,
            exc_info=error,
        )
        await answers.reply(interaction, t(SOMETHING_WRONG))

    # -- errors of commands: one handler ------------------------------------------------

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """A command that waited past Discord's 3 s is dropped without work.

        Also sets the language of the command's private answers: the member's.
        """
        speak(member_language(interaction))
        age = self.clock.age(interaction.id)
        if age >= TOO_LATE:
            raise TooLate(f"arrived {age:.1f} s after it was made")
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(error, TooLate):
            log.info("Dropped a command: %s", error)
        elif isinstance(original, IllegalAction):
            await answers.reply(interaction, refusal_words(original))
        elif isinstance(original, UserFacingError):
            await answers.reply(interaction, str(original))
        elif isinstance(error, app_commands.NoPrivateMessage):
            await answers.reply(
                interaction, t("UNO tables live in server channels: use this in a server.")
            )
        elif isinstance(original, discord.NotFound) and original.code == UNKNOWN_INTERACTION:
            # Answered after Discord's 3 s (an overloaded machine): like a late click, not
            # a bug, and nobody is left to tell.
            log.warning("Command by %s answered too late", interaction.user.id)
        else:
            log.error(
                "Command %s failed in channel %s",
                interaction.command.qualified_name if interaction.command else "?",
                interaction.channel_id,
                exc_info=original,
            )
            await answers.reply(interaction, t(SOMETHING_WRONG))

    # -- opening tables -------------------------------------------------------------------

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
        target: DUO_TARGET | None = None,
        strength: StrengthChoice = "normal",
    ) -> None:
        me = self.bot.user
        if opponent is not None and me is not None and opponent.id == me.id:
            play = await self._table_options(interaction, "duo", target=target)
            if refusal := self.lobby_clicks.refuse_open(interaction, None, play):
                raise UserFacingError(refusal)
            await self.lobby_clicks.play_computer(interaction, play=play, strength=strength)
            return
        await self._open_lobby(interaction, "duo", target=target, opponent=opponent)

    @uno.command(name="pizza", description=N_("Open a UNO Pocket Pizza Pizza lobby (2–5 players)."))
    @app_commands.guild_only()
    @app_commands.describe(
        target=N_("Points that win the match (default: this server's setting, else 250)")
    )
    async def pizza(
        self, interaction: discord.Interaction[Any], target: PIZZA_TARGET | None = None
    ) -> None:
        await self._open_lobby(interaction, "pizza", target=target, opponent=None)

    @uno.command(name="classic", description=N_("Open a classic UNO lobby (2–10 players)."))
    @app_commands.guild_only()
    @app_commands.describe(
        target=N_("Points that win the match (default: this server's setting, else 500)")
    )
    async def classic(
        self, interaction: discord.Interaction[Any], target: CLASSIC_TARGET | None = None
    ) -> None:
        await self._open_lobby(interaction, "classic", target=target, opponent=None)

    async def _open_lobby(
        self,
        interaction: discord.Interaction[Any],
        variant: Variant,
        *,
        target: int | None,
        opponent: discord.Member | None,
    ) -> None:
        play = await self._table_options(interaction, variant, target=target)
        if refusal := self.lobby_clicks.refuse_open(interaction, opponent, play):
            raise UserFacingError(refusal)
        await self.lobby_clicks.open(interaction, variant, play=play, opponent=opponent)

    async def _table_options(
        self, interaction: discord.Interaction[Any], variant: Variant, *, target: int | None
    ) -> TableOptions:
        """The options a new table here plays with: the server's settings, `target` first."""
        assert interaction.guild_id is not None
        settings = await self.db.settings.get(interaction.guild_id)
        return TableOptions.of(
            settings, variant, target=target, turn_seconds=self.tables.settings.turn_seconds
        )

    # -- the other commands ------------------------------------------------------------------

    @uno.command(name="hand", description=N_("Show your cards and your choices (only you see it)."))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        user_id = interaction.user.id
        table = self._table_for(user_id=user_id, channel_id=interaction.channel_id or 0)
        await self.table_clicks.show_panel(interaction, table, str(user_id))

    def _table_for(self, *, user_id: int, channel_id: int) -> Table:
        """The caller's table, this channel's first; else a refusal that says why."""
        here = self.tables.registry.in_channel(channel_id)
        if here is not None and here.seated(user_id):
            return here
        anywhere = self.tables.registry.of_player(user_id)
        if anywhere is not None:
            return anywhere
        lobby = self.lobbies.of_member(user_id)
        if lobby is not None:
            # Telling them to start a table would send them to a refusal: they sit in one.
            raise UserFacingError(
                t(
                    "The game in <#{channel}> hasn't started yet: your hand comes once it does.",
                    channel=lobby.channel_id,
                )
            )
        raise UserFacingError(
            t(
                "You're not playing at any table. Start one with {commands}.",
                commands=t(OPEN_COMMANDS),
            )
        )

    @uno.command(
        name="leave", description=N_("Leave your table (a forfeit once the game has started).")
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        user_id = interaction.user.id
        lobby = self.lobbies.of_member(user_id)
        if lobby is not None:
            move = self.lobbies.decide(lobby, interaction.user, "leave")
            if move.kind == "close":
                self.lobbies.close(lobby)
                await self.lobbies.show_closed(lobby, move.text)
            else:
                await self.lobbies.show(lobby)
            await answers.reply(interaction, t("You left the lobby."))
            return
        table = self._table_for(user_id=user_id, channel_id=interaction.channel_id or 0)
        outcome = await self.tables.act(table, str(user_id), REMOVE, None)
        if isinstance(outcome, Refused) and outcome.kind == "busy":
            raise UserFacingError(t("The table is busy with a move — try again in a moment."))
        if not isinstance(outcome, Accepted):
            raise UserFacingError(t("That game is already over."))
        await answers.reply(interaction, t("You left the table; that counts as a forfeit."))

    @uno.command(
        name="end", description=N_("Close the table in this channel (host or Manage Messages).")
    )
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        channel_id = interaction.channel_id or 0
        may_manage = interaction.permissions.manage_messages
        ender = render.escape_name(interaction.user.display_name)
        lobby = self.lobbies.in_channel(channel_id)
        public = server_language(interaction)  # the lobby, the table and the answer: public
        if lobby is not None:
            if interaction.user.id != lobby.host_id and not may_manage:
                raise UserFacingError(
                    t("Only the host or a member with Manage Messages can end this lobby.")
                )
            self.lobbies.close(lobby)
            with speaking(public):
                closed = t("Closed by {player}.", player=ender)
            await self.lobbies.show_closed(lobby, closed)
            await answers.reply(interaction, t("Lobby closed."))
            return
        table = self.tables.registry.in_channel(channel_id)
        if table is None:
            raise UserFacingError(t("There's no table in this channel."))
        if interaction.user.id != table.host_id and not may_manage:
            raise UserFacingError(
                t("Only the host or a member with Manage Messages can end this table.")
            )
        await interaction.response.defer(thinking=True)
        with speaking(public):
            reason = t("Ended by {player}; not scored.", player=ender)
            said = "🛑 " + t(
                "{player} ended the game; the unfinished match is not scored.", player=ender
            )
        await self.tables.end(table, reason=reason)
        await interaction.edit_original_response(content=said)

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
        await self.boards.first_page(interaction, variant, by_rating=ranking == "skill")

    @uno.command(name="stats", description=N_("A member's UNO record in this server."))
    @app_commands.guild_only()
    @app_commands.describe(member=N_("Whose record (default: yours)"))
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        await self.boards.record(interaction, member or interaction.user)

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
        await self.past.history(interaction, member or interaction.user, variant)

    @uno.command(name="replay", description=N_("Step through a finished match (only you see it)."))
    @app_commands.guild_only()
    @app_commands.describe(match=N_("The match's number: under its summary, and in /uno history"))
    async def replay(
        self, interaction: discord.Interaction[Any], match: app_commands.Range[int, 1, MAX_ID]
    ) -> None:
        await self.past.show(interaction, match, step=0, new=True)

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
        assert interaction.guild_id is not None
        who = _whose(interaction, member, user_id)
        if who != interaction.user.id and not interaction.permissions.manage_guild:
            raise UserFacingError(
                t("Only a member with Manage Server can erase another member's record.")
            )
        try:
            touched = await self.db.scores.forget_member(who, guild_id=interaction.guild_id)
        except MemberPlaying:
            raise UserFacingError(
                t("That member is playing here right now: erase the record once the game is over.")
            ) from None
        self.replays.forget()  # kept replays name the member's seat
        await answers.reply(interaction, _forgotten(interaction.user.id, who, touched))

    @uno.command(name="settings", description=N_("This server's UNO settings (Manage Server)."))
    @app_commands.guild_only()
    # Discord applies default permissions to a top-level command only, so this one
    # is listed for everyone: the panel itself checks Manage Server on every use.
    @app_commands.default_permissions(manage_guild=True)
    async def settings(self, interaction: discord.Interaction[Any]) -> None:
        await self.server_settings.show(interaction)

    @uno.command(name="pings", description=N_("Whether the bot mentions you (everywhere)."))
    @app_commands.describe(
        state=N_("off: the bot names you without a mention; on: it mentions you")
    )
    async def pings(
        self, interaction: discord.Interaction[Any], state: Literal["off", "on"]
    ) -> None:
        user_id = interaction.user.id
        await self.db.prefs.update(user_id, pings=state == "on")
        table = self.tables.registry.of_player(user_id)
        if table is not None:  # a table in play follows the change at once
            if state == "on":
                table.quiet.discard(str(user_id))
            else:
                table.quiet.add(str(user_id))
        await answers.reply(
            interaction,
            t("Done: the bot mentions you again when it's your turn or you're challenged.")
            if state == "on"
            else t(
                "Done: the bot won't mention you any more, in any server. "
                "It names you instead; `/uno pings on` undoes this."
            ),
        )

    @uno.command(name="rules", description=N_("The rules, short and private."))
    @app_commands.describe(variant=N_("Which game"))
    async def rules(
        self, interaction: discord.Interaction[Any], variant: VariantChoice = "duo"
    ) -> None:
        details = ButtonSpec(
            label=t("Details"),
            custom_id=ids.rules_custom_id(variant),
            style=discord.ButtonStyle.secondary,
            emoji="📖",
        )
        # Duo's challenge as this server plays it, in the settings panel's words.
        classic = False
        if interaction.guild_id is not None and variant == "duo":
            settings = await self.db.settings.get(interaction.guild_id)
            classic = settings.duo_classic_challenge
        guide = render.rules_guide(variant, classic_challenge=classic)
        data = answers.message_data(content=guide, embed=None, components=payloads.rows([details]))
        await answers.send_private(interaction, data)


async def _rules_details(interaction: discord.Interaction[Any], variant: str) -> None:
    try:
        text = render.rules_details(variant)
    except ValueError:
        await answers.reply(interaction, t(OUT_OF_DATE))
        return
    await answers.send_private(
        interaction, answers.message_data(content=text, embed=None, components=[])
    )


def _whose(
    interaction: discord.Interaction[Any], member: discord.User | None, user_id: str | None
) -> int:
    """The member `/uno forget` means: the one named, the id given, or the caller."""
    if member is not None:
        return member.id
    if user_id is None:
        return interaction.user.id
    text = user_id.strip().removeprefix("<@").removesuffix(">")
    if not (text.isascii() and text.isdigit() and 15 <= len(text) <= 20):
        raise UserFacingError(
            t("That isn't a member id: copy it from their profile (Copy User ID).")
        )
    return int(text)


def _forgotten(caller: int, who: int, touched: int) -> str:
    """What `/uno forget` says it erased."""
    if who == caller:
        return tn(
            "Your record in this server is erased: {count} past game now shows a deleted "
            "member, and the boards leave them out.",
            "Your record in this server is erased: {count} past games now show a deleted "
            "member, and the boards leave them out.",
            touched,
        )
    return tn(
        "<@{member}>'s record in this server is erased: {count} past game now shows a "
        "deleted member, and the boards leave them out.",
        "<@{member}>'s record in this server is erased: {count} past games now show a "
        "deleted member, and the boards leave them out.",
        touched,
        member=who,
    )


async def install(bot: AnyBot, db: Database, settings: UnoSettings) -> None:
    """Add the UNO cog; it restores the running tables as it loads."""
    await bot.add_cog(UnoCog(bot, db, settings))
