"""The one click router: every click and select parsed once and answered once."""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.uno import guide, ids
from cogs.uno.boards.scoreboards import Scoreboards
from cogs.uno.command_errors import SOMETHING_WRONG, UNKNOWN_INTERACTION
from cogs.uno.guide import OUT_OF_DATE
from cogs.uno.history import ids as history_ids
from cogs.uno.history.panels import HistoryPanels
from cogs.uno.i18n.l10n import member_language, speaking, t
from cogs.uno.lobby.clicks import LobbyClicks
from cogs.uno.lobby.rematches import Rematches
from cogs.uno.settings.server import ServerSettings
from cogs.uno.table.clicks import TableClicks
from cogs.uno.table.service import TableService
from cogs.uno.transport import answers
from cogs.uno.transport.click_clock import TOO_LATE, ClickClock
from cogs.uno.transport.issued import click_data
from db.errors import StorageError

log = logging.getLogger(__name__)

CLICKS = (discord.InteractionType.component, discord.InteractionType.modal_submit)


class ClickRouter:
    """Sends each click to the part its custom_id names; a click's failure is answered."""

    def __init__(
        self,
        *,
        tables: TableService,
        table_clicks: TableClicks,
        lobby_clicks: LobbyClicks,
        boards: Scoreboards,
        rematches: Rematches,
        server_settings: ServerSettings,
        past: HistoryPanels,
    ) -> None:
        self.clock = ClickClock()
        self.tables = tables
        self.table_clicks = table_clicks
        self.lobby_clicks = lobby_clicks
        self.boards = boards
        self.rematches = rematches
        self.server_settings = server_settings
        self.past = past

    async def handle(self, interaction: discord.Interaction[Any]) -> None:
        """Private answers in the member's language; public messages say otherwise."""
        if interaction.type not in CLICKS:
            return
        age = self.clock.age(interaction.id)
        if age >= TOO_LATE:
            log.info("Dropped a click that arrived %.1f s after it was made", age)
            return
        custom_id, values = click_data(interaction)
        control = ids.parse_custom_id(custom_id) or history_ids.parse(custom_id)
        with speaking(member_language(interaction)):
            try:
                await self._route(interaction, control, values, age=age)
            except Exception as error:
                await _click_failed(interaction, error)
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
        if isinstance(control, ids.LeaderboardControl):
            await self.boards.turn_page(interaction, control)
        elif isinstance(control, ids.Rematch):
            await self.rematches.click(interaction, control.table_id)
        elif isinstance(control, ids.Share):
            await self.boards.share(interaction, control)
        elif isinstance(control, ids.RulesDetails):
            await guide.show_details(interaction, control.variant)
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


async def _click_failed(interaction: discord.Interaction[Any], error: Exception) -> None:
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
            t("I couldn't save that move just now, so nothing was changed. Try again in a moment."),
        )
        return
    log.error(
        "Click %s by %s failed",
        click_data(interaction)[0],
        interaction.user.id,
        exc_info=error,
    )
    await answers.reply(interaction, t(SOMETHING_WRONG))
