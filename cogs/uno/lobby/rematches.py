"""Rematch: the finished table's button; once every player has pressed it, the same
players sit down again with the same options, at a new table in the same channel.

Offers are kept in the database (`db.rematches`) as well as here, so the button of a
match that ended before a restart still works after it.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final

import discord

from cogs.uno import ids, render
from cogs.uno.i18n.l10n import server_language, speaking, t
from cogs.uno.lobby.manager import LobbyManager
from cogs.uno.render import ButtonSpec
from cogs.uno.table.computer_ids import is_computer, strength_of, table_strengths
from cogs.uno.table.options import TableOptions
from cogs.uno.table.running import LiveTable
from cogs.uno.table.service import TableService
from cogs.uno.transport import answers, payloads
from db.database import Database
from db.errors import DatabaseError
from db.rematches import RematchRow
from engine.match import Variant

log = logging.getLogger(__name__)

KEPT: Final = 200  # offers remembered (the newest finished matches); older ones expire
VARIANTS: Final[dict[str, Variant]] = {"duo": "duo", "pizza": "pizza", "classic": "classic"}


@dataclass
class Offer:
    """A finished match's players and options, and who has said yes."""

    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: Variant
    play: TableOptions
    seats: list[tuple[int, str]]
    computers: dict[int, str] = field(default_factory=dict)  # seat -> strength
    accepted: set[int] = field(default_factory=set)

    @property
    def humans(self) -> set[int]:
        """Who must press Rematch: every seat but the computers'."""
        return {uid for uid, _ in self.seats if not is_computer(uid)}

    def button(self) -> ButtonSpec:
        if self.accepted:
            label = t("Rematch ({count}/{seats})", count=len(self.accepted), seats=len(self.humans))
        else:
            label = t("Rematch")
        return ButtonSpec(
            label=label,
            custom_id=ids.rematch_custom_id(self.table_id),
            style=discord.ButtonStyle.success,
            emoji="🔁",
        )

    def row(self) -> RematchRow:
        return RematchRow(
            table_id=self.table_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            variant=self.variant,
            options={
                **self.play.data(),
                "computers": {str(u): s for u, s in self.computers.items()},
            },
            seats=tuple(self.seats),
            accepted=frozenset(self.accepted),
        )

    @classmethod
    def of_row(cls, row: RematchRow, *, turn_seconds: int) -> Offer | None:
        variant = VARIANTS.get(row.variant)
        if variant is None:
            return None
        return cls(
            table_id=row.table_id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            variant=variant,
            play=TableOptions.from_data(row.options, turn_seconds=turn_seconds),
            seats=list(row.seats),
            computers={int(u): s for u, s in table_strengths(row.options).items()},
            accepted=set(row.accepted),
        )


class Rematches:
    """Offers for the finished matches, and the clicks that accept them."""

    def __init__(self, tables: TableService, lobbies: LobbyManager, db: Database) -> None:
        self.tables = tables
        self.lobbies = lobbies
        self.db = db
        self.offers: OrderedDict[int, Offer] = OrderedDict()

    async def restore(self) -> int:
        """At start-up: the offers the last run left open."""
        turn_seconds = self.tables.settings.turn_seconds
        for row in await self.db.rematches.open_offers():
            offer = Offer.of_row(row, turn_seconds=turn_seconds)
            if offer is not None:
                self.offers[offer.table_id] = offer
        return len(self.offers)

    async def offer(self, table: LiveTable) -> list[ButtonSpec]:
        """Called as a finished match is shown for the last time: its Rematch button,
        once the offer is stored (a restart after the match's end keeps it)."""
        known = self.offers.get(table.match_id)
        if known is not None:
            return [known.button()]
        seated = [s.player for s in table.public().seats if s.seated]
        if len(seated) < 2 or table.play is None:
            return []
        strengths = table_strengths(table.options)
        offer = Offer(
            table_id=table.match_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=table.host_id,
            variant=table.variant,
            play=table.play,
            seats=[(int(p), table.names.get(p, "Player")) for p in seated],
            computers={int(p): strength_of(strengths.get(p)) for p in seated if is_computer(p)},
        )
        if not offer.humans:
            return []
        self.offers[table.match_id] = offer
        while len(self.offers) > KEPT:
            self.offers.popitem(last=False)
        await self._store(offer)
        return [offer.button()]

    async def _store(self, offer: Offer) -> None:
        try:
            await self.db.rematches.offer(offer.row(), keep=KEPT)
        except DatabaseError as error:
            log.warning("Could not store the rematch offer of table %s: %s", offer.table_id, error)

    async def click(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        offer = self.offers.get(table_id)
        if offer is None or interaction.channel_id != offer.channel_id:
            await answers.reply(interaction, expired())
            return
        user = interaction.user.id
        if user not in offer.humans:
            await answers.reply(interaction, not_a_player())
            return
        if refusal := self._refusal(offer):
            await answers.reply(interaction, refusal)
            return
        offer.accepted.add(user)
        if offer.accepted < offer.humans:
            await self.db.rematches.accept(table_id, offer.accepted)
            with speaking(server_language(interaction)):  # the table message: public
                rows = payloads.rows([offer.button()])
            await answers.update(interaction, {"components": rows})
            return
        del self.offers[table_id]
        await self.db.rematches.withdraw(table_id)
        await answers.update(interaction, {"components": []})
        await self.tables.start(
            guild_id=offer.guild_id,
            channel_id=offer.channel_id,
            host_id=offer.host_id,
            variant=offer.variant,
            seats=offer.seats,
            play=offer.play,
            message_id=None,  # a new table message below
            computers={uid: strength_of(s) for uid, s in offer.computers.items()} or None,
        )

    def _refusal(self, offer: Offer) -> str | None:
        if self.tables.registry.in_channel(offer.channel_id) is not None:
            return t("There's already a game at this table's channel: one table per channel.")
        if self.lobbies.in_channel(offer.channel_id) is not None:
            return t("A lobby is open in this channel now: join it instead.")
        for uid, name in offer.seats:
            if where := self.lobbies.seated_elsewhere(uid):
                return t(
                    "{player} is already at a table in {where}.",
                    player=render.escape_name(name),
                    where=where,
                )
        return None


def expired() -> str:
    return t(
        "This rematch offer has expired. Start a new game here with `/uno duo`, "
        "`/uno pizza` or `/uno classic`."
    )


def not_a_player() -> str:
    return t(
        "Only this match's players can take the rematch: start your own game with "
        "`/uno duo`, `/uno pizza` or `/uno classic`."
    )
