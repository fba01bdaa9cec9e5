"""Where a member plays, for `/uno hand`, `/uno leave` and `/uno end`."""

from __future__ import annotations

from typing import Any

import discord

from cogs.uno import render
from cogs.uno.i18n.l10n import server_language, speaking, t
from cogs.uno.lobby.manager import LobbyManager
from cogs.uno.refusal import UserFacingError
from cogs.uno.render import OPEN_COMMANDS
from cogs.uno.table.running import LiveTable
from cogs.uno.table.service import TableService
from cogs.uno.transport import answers


class Whereabouts:
    """Finds a member's lobby or table and lets them leave it, or its host end it."""

    def __init__(self, lobbies: LobbyManager, tables: TableService) -> None:
        self.lobbies = lobbies
        self.tables = tables

    def table_for(self, *, user_id: int, channel_id: int) -> LiveTable:
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

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Leave a lobby, or a table (a forfeit once it started)."""
        user_id = interaction.user.id
        lobby = self.lobbies.of_member(user_id)
        if lobby is not None:
            await self.lobbies.leave(lobby, interaction.user)
            await answers.reply(interaction, t("You left the lobby."))
            return
        table = self.table_for(user_id=user_id, channel_id=interaction.channel_id or 0)
        await self.tables.leave(table, str(user_id))
        await answers.reply(interaction, t("You left the table; that counts as a forfeit."))

    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """Close this channel's lobby or table: its host, or Manage Messages."""
        channel_id = interaction.channel_id or 0
        may_manage = interaction.permissions.manage_messages
        ender = render.escape_name(interaction.user.display_name)
        public = server_language(interaction)  # the lobby, the table and the answer: public
        lobby = self.lobbies.in_channel(channel_id)
        if lobby is not None:
            if interaction.user.id != lobby.host_id and not may_manage:
                raise UserFacingError(
                    t("Only the host or a member with Manage Messages can end this lobby.")
                )
            await self.lobbies.end(lobby, ender=ender, language=public)
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
            said = "🛑 " + t(
                "{player} ended the game; the unfinished match is not scored.", player=ender
            )
        await self.tables.end_by(table, ender=ender, language=public)
        await interaction.edit_original_response(content=said)
