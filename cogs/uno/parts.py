"""The cog's named parts, built and wired once; started and stopped with the cog."""

from __future__ import annotations

import asyncio
import logging

from discord.ext import commands

from cogs.uno.boards.scoreboards import Scoreboards
from cogs.uno.collector import Collector
from cogs.uno.config import UnoSettings
from cogs.uno.history.library import ReplayLibrary
from cogs.uno.history.panels import HistoryPanels
from cogs.uno.history.render import replay_button
from cogs.uno.history.retention import LogRetention
from cogs.uno.lobby.clicks import LobbyClicks
from cogs.uno.lobby.manager import LobbyManager
from cogs.uno.lobby.rematches import Rematches
from cogs.uno.router import ClickRouter
from cogs.uno.settings.server import ServerSettings
from cogs.uno.table.clicks import TableClicks
from cogs.uno.table.computers import ComputerSeats
from cogs.uno.table.message import TableMessage
from cogs.uno.table.owed_endings import OwedEndings
from cogs.uno.table.panels import HandPanels
from cogs.uno.table.service import TableService
from cogs.uno.transport.raw_http import close_connections
from cogs.uno.whereabouts import Whereabouts
from db.database import Database
from db.errors import DatabaseError

log = logging.getLogger(__name__)

AnyBot = commands.Bot | commands.AutoShardedBot  # bot.py's runs shards; tests' need not


class UnoParts:
    """Every part of the cog, each given the others it works with."""

    def __init__(self, bot: AnyBot, db: Database, settings: UnoSettings) -> None:
        self.bot = bot
        self.db = db
        self.panels = HandPanels(bot)
        self.message = TableMessage(bot, self.panels, db)
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
        self.message.summary_buttons = lambda match_id: [replay_button(match_id)]
        self.owed = OwedEndings(self.tables, self.message)
        self.whereabouts = Whereabouts(self.lobbies, self.tables)
        self.replays = ReplayLibrary(db, turn_seconds=settings.turn_seconds)
        self.past = HistoryPanels(db, self.replays)
        self.retention = LogRetention(db, days=settings.replay_days)
        self.router = ClickRouter(
            tables=self.tables,
            table_clicks=self.table_clicks,
            lobby_clicks=self.lobby_clicks,
            boards=self.boards,
            rematches=self.rematches,
            server_settings=self.server_settings,
            past=self.past,
        )
        self._once_ready_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Bring back what the last run left: tables, lobbies, offers, owed endings."""
        # Before the tables are back: their re-posts would race the look for old messages.
        replaced = await self.message.retire_replaced()
        restored = await self.tables.restore_all()
        lobbies = await self.lobbies.retire_left_open()
        ended = await self.message.retire_ended()
        offers = await self.rematches.restore()
        log.info(
            "Restored %d running tables and %d rematch offers; took the buttons off %d "
            "lobbies and %d ended tables, removed %d replaced table messages",
            *(restored, offers, lobbies, ended, replaced),
        )
        self._once_ready_task = asyncio.create_task(self._once_ready(), name="uno-once-ready")
        self.retention.start()
        self.collector.freeze()

    async def _once_ready(self) -> None:
        """Once the servers (and so their languages) are known: the restored tables are
        shown anew, and the ends the last run committed but did not show are shown."""
        await self.bot.wait_until_ready()
        self.tables.draw_restored()
        try:
            shown = await self.owed.show_all()
        except DatabaseError as error:
            log.warning("Could not show the ends owed from before the restart: %s", error)
            return
        if shown:
            log.info("Showed the end of %d matches that ended before the restart", shown)

    async def gone(self, *, channel_id: int = 0, guild_id: int = 0) -> None:
        """A table or lobby whose channel (or server) vanished must not hold its players."""
        self.lobbies.drop_where_gone(channel_id=channel_id, guild_id=guild_id)
        await self.tables.close_where_gone(channel_id=channel_id, guild_id=guild_id)

    async def stop(self) -> None:
        """Stop every timer and task; the tables' last moves are saved first."""
        self.collector.close()
        await self.retention.stop()
        self.computers.shutdown()
        if self._once_ready_task is not None:
            self._once_ready_task.cancel()
        await self.tables.shutdown()
        self.lobbies.shutdown()
        close_connections()  # no answer or panel edit is sent after this
