"""The lobby manager: opening, seating, expiring and retiring lobbies."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import UTC, datetime

import aiohttp
import discord

from cogs.uno import render
from cogs.uno.config import UnoSettings
from cogs.uno.i18n.l10n import N_, guild_language, speaking, t, tn
from cogs.uno.lobby.lobby import SEATS, Lobby
from cogs.uno.lobby.move import LobbyMove
from cogs.uno.render import OPEN_COMMANDS
from cogs.uno.table.computer_ids import computer_name, free_computer_id, strength_of
from cogs.uno.table.registry import TableRegistry
from cogs.uno.transport import channel, payloads
from cogs.uno.transport.priority import Priority, priority
from db.database import Database

log = logging.getLogger(__name__)

RETIRED = N_("This lobby closed when I restarted. Open a new one with {commands}.")


class LobbyManager:
    """Every open lobby, by id and by channel; who may do what in one."""

    def __init__(
        self,
        client: discord.Client,
        db: Database,
        settings: UnoSettings,
        tables: TableRegistry,
    ) -> None:
        self.client = client
        self.db = db
        self.settings = settings
        self.tables = tables
        self.lobbies: dict[int, Lobby] = {}
        self._by_channel: dict[int, int] = {}
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._challenged: dict[tuple[int, int], float] = {}  # (host, opponent) -> monotonic
        self._background: set[asyncio.Task[None]] = set()

    # -- lookup --------------------------------------------------------------------

    def get(self, lobby_id: int) -> Lobby | None:
        return self.lobbies.get(lobby_id)

    def in_channel(self, channel_id: int) -> Lobby | None:
        lobby_id = self._by_channel.get(channel_id)
        return None if lobby_id is None else self.lobbies.get(lobby_id)

    def of_member(self, user_id: int) -> Lobby | None:
        return next((lobby for lobby in self.lobbies.values() if lobby.seated(user_id)), None)

    def seated_elsewhere(self, user_id: int) -> str | None:
        """Where the member already sits (a channel mention), or None."""
        table = self.tables.of_player(user_id)
        if table is not None:
            return f"<#{table.channel_id}>"
        lobby = self.of_member(user_id)
        return None if lobby is None else f"<#{lobby.channel_id}>"

    # -- opening -------------------------------------------------------------------

    def refuse_open(self, *, guild_id: int, host_id: int, opponent_id: int | None) -> str | None:
        """Why this member may not open a lobby now (server cap, challenge cooldown)."""
        open_here = sum(1 for lobby in self.lobbies.values() if lobby.guild_id == guild_id)
        if open_here >= self.settings.lobbies_per_server:
            return t(
                "This server already has as many open lobbies as it may ({count}): "
                "join one of them, or wait for one to start or close.",
                count=open_here,
            )
        if opponent_id is None:
            return None
        last = self._challenged.get((host_id, opponent_id))
        wait = 0.0 if last is None else last + self.settings.challenge_cooldown - time.monotonic()
        if wait > 0:
            return tn(
                "You challenged <@{member}> a moment ago. You can challenge them again "
                "in {count} second.",
                "You challenged <@{member}> a moment ago. You can challenge them again "
                "in {count} seconds.",
                int(wait) + 1,
                member=opponent_id,
            )
        return None

    async def open(self, lobby: Lobby) -> None:
        """Hold an open lobby (its id already comes from the database) and arm its expiry."""
        self.lobbies[lobby.lobby_id] = lobby
        self._by_channel[lobby.channel_id] = lobby.lobby_id
        if lobby.invited_id is not None:
            now = time.monotonic()
            if len(self._challenged) > 1000:  # keep only the cooldowns still running
                cutoff = now - self.settings.challenge_cooldown
                self._challenged = {k: t for k, t in self._challenged.items() if t > cutoff}
            self._challenged[(lobby.host_id, lobby.invited_id)] = now
        self._timers[lobby.lobby_id] = asyncio.create_task(self._expire(lobby))

    def started(self, lobby: Lobby) -> None:
        """The lobby became a table: an accepted challenge leaves no cooldown (a rematch)."""
        lobby.starting = True
        if lobby.invited_id is not None:
            self._challenged.pop((lobby.host_id, lobby.invited_id), None)
        self.close(lobby)

    async def placed(self, lobby: Lobby, message_id: int) -> None:
        lobby.message_id = message_id
        await self.db.lobbies.set_message(lobby.lobby_id, message_id)

    def close(self, lobby: Lobby) -> None:
        """Forget the lobby now; its database row goes in the background."""
        self.lobbies.pop(lobby.lobby_id, None)
        if self._by_channel.get(lobby.channel_id) == lobby.lobby_id:
            del self._by_channel[lobby.channel_id]
        timer = self._timers.pop(lobby.lobby_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        task = asyncio.create_task(self._forget_row(lobby.lobby_id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def leave(self, lobby: Lobby, user: discord.abc.User) -> None:
        """`/uno leave` in a lobby: the seat freed, or the lobby closed if it empties."""
        move = self.decide(lobby, user, "leave")
        if move.kind == "close":
            self.close(lobby)
            await self.show_closed(lobby, move.text)
        else:
            await self.show(lobby)

    async def end(self, lobby: Lobby, *, ender: str, language: str) -> None:
        """`/uno end` in a lobby: closed, and its message says by whom (in `language`)."""
        self.close(lobby)
        with speaking(language):
            closed = t("Closed by {player}.", player=ender)
        await self.show_closed(lobby, closed)

    async def _forget_row(self, lobby_id: int) -> None:
        try:
            await self.db.lobbies.close(lobby_id)
        except Exception as error:
            # A row left behind only means one more message retired at the next start.
            log.warning("Could not forget lobby %s: %s", lobby_id, error)

    async def _expire(self, lobby: Lobby) -> None:
        await asyncio.sleep((lobby.expires_at - datetime.now(UTC)).total_seconds())
        if self.lobbies.get(lobby.lobby_id) is not lobby or lobby.starting:
            return
        self.close(lobby)
        with speaking(lobby.language):
            reason = t("This lobby expired before the game started.")
        await self.show_closed(lobby, reason)

    async def show_closed(self, lobby: Lobby, reason: str) -> None:
        if lobby.message_id is not None:
            await self._strip(lobby.channel_id, lobby.message_id, lobby.closed_embed(reason))

    async def show(self, lobby: Lobby) -> None:
        """Redraw the lobby message (a member left it by command)."""
        if lobby.message_id is None:
            return
        payload = {"embeds": [lobby.embed().to_dict()], "components": self.components(lobby)}
        with contextlib.suppress(discord.HTTPException), priority(Priority.MOMENT):
            await channel.edit(self.client, lobby.channel_id, lobby.message_id, payload)

    @staticmethod
    def components(lobby: Lobby) -> payloads.Rows:
        return payloads.rows(lobby.components())

    async def _strip(self, channel_id: int, message_id: int, embed: discord.Embed) -> None:
        payload = {"content": None, "embeds": [embed.to_dict()], "components": []}
        try:
            with priority(Priority.MOMENT):  # a lobby edit: a public moment
                await channel.edit(self.client, channel_id, message_id, payload)
        except (discord.HTTPException, aiohttp.ClientError, RuntimeError) as error:
            # RuntimeError: the HTTP session closed under us while the bot shuts down.
            log.warning("Could not mark the lobby in channel %s closed: %s", channel_id, error)

    async def retire_left_open(self) -> int:
        """At start-up: the lobbies the last run left open lose their buttons."""
        rows = await self.db.lobbies.left_open()
        for row in rows:
            if row.message_id is not None:
                channel = self.client.get_channel(row.channel_id)
                with speaking(guild_language(getattr(channel, "guild", None))):
                    embed = discord.Embed(
                        title=t("UNO lobby closed"),
                        description=t(RETIRED, commands=t(OPEN_COMMANDS)),
                    )
                await self._strip(row.channel_id, row.message_id, embed)
            await self.db.lobbies.close(row.lobby_id)
        return len(rows)

    def drop_where_gone(self, *, channel_id: int = 0, guild_id: int = 0) -> None:
        for lobby in list(self.lobbies.values()):
            if lobby.channel_id == channel_id or lobby.guild_id == guild_id:
                self.close(lobby)

    def shutdown(self) -> None:
        for task in self._timers.values():
            task.cancel()

    # -- clicks ----------------------------------------------------------------------

    def decide(self, lobby: Lobby, user: discord.abc.User, code: str, value: str = "") -> LobbyMove:
        """What a click on the lobby does; seats change here, messages in the cog.

        `value`: the option chosen in a select (the computer's strength)."""
        if code in ("accept", "decline") and user.id != lobby.invited_id:
            return LobbyMove("refuse", t("Only the challenged member can answer this invitation."))
        if code == "join" and lobby.invited_id is not None:
            return LobbyMove(
                "refuse", t("This is a challenge: only the challenged member can accept.")
            )
        if code == "decline":
            with speaking(lobby.language):  # said on the lobby message
                said = t("{player} declined.", player=render.escape_name(user.display_name))
            return LobbyMove("close", said)
        if code == "cancel":
            if user.id != lobby.host_id:
                return LobbyMove("refuse", t("Only the host can cancel this lobby."))
            with speaking(lobby.language):
                return LobbyMove("close", t("The host cancelled the lobby."))
        if code in ("join", "accept"):
            return self._join(lobby, user)
        if code == "leave":
            return self._leave(lobby, user.id)
        if code in ("computer", "addcpu", "strength"):
            return self._computer(lobby, user.id, code, value)
        return self._start(lobby, user.id)

    def _computer(self, lobby: Lobby, user_id: int, code: str, value: str) -> LobbyMove:
        """The host seats a computer (Duo: and starts at once), or picks its strength."""
        if user_id != lobby.host_id:
            return LobbyMove("refuse", t("Only the host can seat computer players."))
        if code == "strength":
            lobby.strength = strength_of(value)
            lobby.version += 1
            return LobbyMove("redraw")
        seat = free_computer_id(lobby.computers)
        if lobby.full or seat is None:
            return LobbyMove("refuse", t("This table is full."))
        lobby.computers[seat] = lobby.strength
        lobby.seats.append((seat, computer_name(lobby.strength)))
        lobby.version += 1
        return LobbyMove("start" if lobby.variant == "duo" else "redraw")

    def _join(self, lobby: Lobby, user: discord.abc.User) -> LobbyMove:
        if lobby.seated(user.id):
            return LobbyMove("refuse", t("You're already seated here."))
        if where := self.seated_elsewhere(user.id):
            return LobbyMove("refuse", t("You're already at a table in {where}.", where=where))
        if lobby.full:
            return LobbyMove("refuse", t("This table is full."))
        lobby.seats.append((user.id, user.display_name))
        lobby.version += 1
        return LobbyMove("start" if lobby.variant == "duo" else "redraw")

    def _leave(self, lobby: Lobby, user_id: int) -> LobbyMove:
        if not lobby.seated(user_id):
            return LobbyMove("refuse", t("You're not seated in this lobby."))
        if user_id == lobby.host_id:
            with speaking(lobby.language):
                return LobbyMove("close", t("The host left; lobby closed."))
        lobby.seats = [seat for seat in lobby.seats if seat[0] != user_id]
        lobby.version += 1
        return LobbyMove("redraw")

    def _start(self, lobby: Lobby, user_id: int) -> LobbyMove:
        if user_id != lobby.host_id:
            return LobbyMove("refuse", t("Only the host can start the game."))
        if not lobby.can_start:
            low = SEATS[lobby.variant][0]
            return LobbyMove(
                "refuse", t("At least {count} players must be seated to start.", count=low)
            )
        return LobbyMove("start")
