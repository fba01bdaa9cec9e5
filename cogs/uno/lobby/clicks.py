"""Clicks on a lobby: bound to its message, channel, server and version."""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.uno import ids, render
from cogs.uno.i18n.l10n import N_, server_language, speaking, t
from cogs.uno.lobby.lobby import Lobby
from cogs.uno.lobby.manager import LobbyManager
from cogs.uno.render import OPEN_COMMANDS
from cogs.uno.table.computer_ids import computer_name
from cogs.uno.table.options import TableOptions
from cogs.uno.table.service import TableService
from cogs.uno.transport import answers, channel
from cogs.uno.transport.issued import click_data, issued
from cogs.uno.transport.priority import Priority, priority
from engine.match import Variant

log = logging.getLogger(__name__)

LOBBY_GONE = N_("This lobby has closed. Open a new one with {commands}.")
COMPUTER_DUO_SEAT = 1  # computer_ids.py: ids 1..9 are computers, never members
CHANGED = N_("This lobby changed just now — look at it again and press once more.")


class LobbyClicks:
    """Shows what the lobby manager decided, and starts the table when it is time."""

    def __init__(self, lobbies: LobbyManager, tables: TableService) -> None:
        self.lobbies = lobbies
        self.tables = tables

    async def click(
        self, interaction: discord.Interaction[Any], control: ids.LobbyControl
    ) -> str | None:
        """Answer the click; return a refusal to say privately instead, if any."""
        lobby = self.lobbies.get(control.lobby_id)
        if lobby is None or lobby.starting:
            return t(LOBBY_GONE, commands=t(OPEN_COMMANDS))
        if not _same_place(interaction, lobby):
            return t("That button belongs to a lobby somewhere else.")
        custom_id, values = click_data(interaction)
        if not issued(interaction.message, custom_id, values):
            return t(CHANGED)
        if control.version != lobby.version:
            return t(CHANGED)
        if lobby.message_id is None and interaction.message is not None:
            # Clicked before the bot read its own answer's id: the clicked message is it.
            await self.lobbies.placed(lobby, interaction.message.id)
        value = values[0] if values else ""
        move = self.lobbies.decide(lobby, interaction.user, control.code, value)
        if move.kind == "refuse":
            return move.text
        if move.kind == "close":
            self.lobbies.close(lobby)
            closed = lobby.closed_embed(move.text).to_dict()
            await answers.update(
                interaction, {"content": None, "embeds": [closed], "components": []}
            )
        elif move.kind == "redraw":
            data = {
                "embeds": [lobby.embed().to_dict()],
                "components": self.lobbies.components(lobby),
            }
            await answers.update(interaction, data)
        else:
            await self._start(interaction, lobby)
        return None

    async def open_command(
        self,
        interaction: discord.Interaction[Any],
        variant: Variant,
        *,
        target: int | None,
        opponent: discord.Member | None,
        computer: str | None,
    ) -> str | None:
        """`/uno duo|pizza|classic`: a lobby, or with `computer` (its strength) a Duo
        table against the computer at once; else the refusal that says why not."""
        play = await self._options(interaction, variant, target=target)
        if refusal := self.refuse_open(interaction, None if computer else opponent, play):
            return refusal
        if computer is not None:
            await self.play_computer(interaction, play=play, strength=computer)
        else:
            await self.open(interaction, variant, play=play, opponent=opponent)
        return None

    async def _options(
        self, interaction: discord.Interaction[Any], variant: Variant, *, target: int | None
    ) -> TableOptions:
        """The options a new table here plays with: the server's settings, `target` first."""
        assert interaction.guild_id is not None
        settings = await self.tables.db.settings.get(interaction.guild_id)
        return TableOptions.of(
            settings, variant, target=target, turn_seconds=self.tables.settings.turn_seconds
        )

    def refuse_open(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None,
        play: TableOptions,
    ) -> str | None:
        """Why a command can't open a lobby here now, in words."""
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        user = interaction.user
        if busy := self._busy_channel(interaction.channel_id):
            return busy
        if missing := missing_permissions(interaction, thread=play.thread):
            return t(
                "I can't run a table in this channel: I need {permissions} here. Ask a server "
                "admin to grant it, or open the table in another channel.",
                permissions=missing,
            )
        if where := self.lobbies.seated_elsewhere(user.id):
            return t(
                "You're already at a table in {where}: finish or `/uno leave` it first.",
                where=where,
            )
        if opponent is not None and (refusal := self._refuse_opponent(user.id, opponent)):
            return refusal
        return self.lobbies.refuse_open(
            guild_id=interaction.guild_id,
            host_id=user.id,
            opponent_id=opponent.id if opponent else None,
        )

    def _busy_channel(self, channel_id: int) -> str | None:
        table = self.tables.registry.in_channel(channel_id)
        if table is not None:
            link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.shown.message_id}"
            return t(
                "There's already a game at this table: {link} — one table per channel.", link=link
            )
        if self.lobbies.in_channel(channel_id) is not None:
            return t(
                "There's already a lobby open in this channel: join it, or wait for it to close."
            )
        return None

    def _refuse_opponent(self, user_id: int, opponent: discord.Member) -> str | None:
        name = render.escape_name(opponent.display_name)
        if opponent.bot:
            return t("{player} is a bot and can't play UNO.", player=name)
        if opponent.id == user_id:
            return t("You can't challenge yourself — pick another member.")
        if where := self.lobbies.seated_elsewhere(opponent.id):
            return t("{player} is already at a table in {where}.", player=name, where=where)
        return None

    async def open(
        self,
        interaction: discord.Interaction[Any],
        variant: Variant,
        *,
        play: TableOptions,
        opponent: discord.Member | None,
    ) -> None:
        """Open the lobby as the command's answer (checked by `refuse_open` first)."""
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        user = interaction.user
        quiet = await self.lobbies.db.prefs.without_pings([opponent.id] if opponent else [])
        mention = opponent is not None and opponent.id not in quiet
        lobby_id = await self.lobbies.db.lobbies.open(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id
        )
        lobby = Lobby(
            lobby_id=lobby_id,
            channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
            host_id=user.id,
            variant=variant,
            play=play,
            seats=[(user.id, user.display_name)],
            invited_id=opponent.id if opponent else None,
            invited_name=opponent.display_name if opponent and not mention else None,
            in_thread=_in_thread(interaction),
            language=server_language(interaction),
        )
        await self.lobbies.open(lobby)
        # A challenged member who turned pings off (`/uno pings off`) is named, not mentioned.
        data = {
            "content": opponent.mention if opponent and mention else "",
            "embeds": [lobby.embed().to_dict()],
            "components": self.lobbies.components(lobby),
            "allowed_mentions": {
                "parse": [],
                "users": [str(opponent.id)] if opponent and mention else [],
            },
        }
        message_id = await answers.respond(interaction, data)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.lobbies.placed(lobby, message_id)

    async def play_computer(
        self, interaction: discord.Interaction[Any], *, play: TableOptions, strength: str
    ) -> None:
        """`/uno duo opponent:@me`: a Duo match against the computer, at once (checked
        by `refuse_open` first); the command's answer becomes the table."""
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        user = interaction.user
        computer = computer_name(strength)
        with speaking(server_language(interaction)):  # the table's message: public
            note = t(
                "**{player}** plays {computer}. Dealing…",
                player=render.escape_name(user.display_name),
                computer=render.seat_name(computer),
            )
            title = t("UNO Duo")
        data = {
            "content": "",
            "embeds": [discord.Embed(title=title, description=note).to_dict()],
            "components": [],
            "allowed_mentions": {"parse": []},
        }
        message_id = await answers.respond(interaction, data)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.tables.start(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=user.id,
            variant="duo",
            seats=[(user.id, user.display_name), (COMPUTER_DUO_SEAT, computer)],
            play=play,
            message_id=message_id,
            computers={COMPUTER_DUO_SEAT: strength},
        )

    async def _start(self, interaction: discord.Interaction[Any], lobby: Lobby) -> None:
        self.lobbies.started(lobby)
        await answers.defer(interaction, new_message=False)  # the lobby message becomes the table
        channel_id, message_id = lobby.channel_id, lobby.message_id
        if lobby.play.thread and not lobby.in_thread and message_id is not None:
            thread_id = await self._open_thread(lobby, message_id)
            if thread_id is not None:  # else the table stays in the channel
                channel_id, message_id = thread_id, None
        await self.tables.start(
            guild_id=lobby.guild_id,
            channel_id=channel_id,
            host_id=lobby.host_id,
            variant=lobby.variant,
            seats=lobby.seats,
            play=lobby.play,
            message_id=message_id,
            computers=lobby.computers,
        )

    async def _open_thread(self, lobby: Lobby, message_id: int) -> int | None:
        """A thread on the lobby message for the table; the lobby message points to it."""
        names = " vs ".join(name for _, name in lobby.seats)
        client = self.lobbies.client
        try:
            thread = await channel.start_thread(
                client,
                lobby.channel_id,
                message_id,
                name=f"UNO: {names}"[:100],
                archive_minutes=1440,
            )
        except discord.HTTPException as error:
            log.warning("Could not open a thread for lobby %s: %s", lobby.lobby_id, error)
            return None
        thread_id = int(thread["id"])
        with speaking(lobby.language):
            embed = lobby.closed_embed(t("The game is on in <#{thread}>.", thread=thread_id))
        payload = {"content": None, "embeds": [embed.to_dict()], "components": []}
        try:
            with priority(Priority.MOMENT):  # a lobby edit: a public moment
                await channel.edit(client, lobby.channel_id, message_id, payload)
        except discord.HTTPException as error:
            log.warning("Could not point lobby %s to its thread: %s", lobby.lobby_id, error)
        return thread_id


def _same_place(interaction: discord.Interaction[Any], lobby: Lobby) -> bool:
    """The lobby's server and channel, and its message once the bot has read that id: a
    click can come in the moment between the lobby's answer and the bot reading it."""
    message = interaction.message
    return (
        interaction.guild_id == lobby.guild_id
        and interaction.channel_id == lobby.channel_id
        and message is not None
        and lobby.message_id in (None, message.id)
    )


THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def _in_thread(interaction: discord.Interaction[Any]) -> bool:
    return interaction.channel is not None and interaction.channel.type in THREADS


def missing_permissions(interaction: discord.Interaction[Any], *, thread: bool = False) -> str:
    """The permissions a table needs that the bot lacks in this channel, in words.

    The lobby itself is the interaction's answer, which needs none of them; the
    table, summaries and turn pings are ordinary channel messages with embeds.
    `thread`: the server opens each table in a thread of this channel.
    """
    granted = interaction.app_permissions
    in_thread = _in_thread(interaction)
    needed = {
        "view_channel": N_("View Channel"),
        "send_messages_in_threads" if in_thread else "send_messages": (
            N_("Send Messages in Threads") if in_thread else N_("Send Messages")
        ),
        "embed_links": N_("Embed Links"),
    }
    if thread and not in_thread:
        needed["create_public_threads"] = N_("Create Public Threads")
        needed["send_messages_in_threads"] = N_("Send Messages in Threads")
    lacking = [f"**{t(name)}**" for flag, name in needed.items() if not getattr(granted, flag)]
    if len(lacking) <= 1:
        return "".join(lacking)
    # Translators: a list's last two items, "A, B and C".
    return t("{items} and {last}", items=", ".join(lacking[:-1]), last=lacking[-1])
