"""Rematch: the finished table's button; once every player has pressed it, the same
players sit down again with the same options, at a new table in the same channel."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Final

import discord

from cogs.uno import answers, ids, payloads, render
from cogs.uno.l10n import N_, server_language, speaking, t
from cogs.uno.lobbies import LobbyManager
from cogs.uno.render import ButtonSpec
from cogs.uno.table import Table
from cogs.uno.table_options import TableOptions
from cogs.uno.tables import TableService

KEPT: Final = 200  # offers remembered (the newest finished matches); older ones expire
EXPIRED = N_("This rematch offer has expired. Start a new game with `/uno duo` or `/uno pizza`.")
NOT_A_PLAYER = N_("Only this match's players can take the rematch: start your own with `/uno duo`.")


@dataclass
class Offer:
    """A finished match's players and options, and who has said yes."""

    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: Any
    play: TableOptions
    seats: list[tuple[int, str]]
    accepted: set[int] = field(default_factory=set)

    def button(self) -> ButtonSpec:
        if self.accepted:
            label = t("Rematch ({count}/{seats})", count=len(self.accepted), seats=len(self.seats))
        else:
            label = t("Rematch")
        return ButtonSpec(
            label=label,
            custom_id=ids.rematch_custom_id(self.table_id),
            style=discord.ButtonStyle.success,
            emoji="🔁",
        )


class Rematches:
    """Offers for the finished matches, and the clicks that accept them."""

    def __init__(self, tables: TableService, lobbies: LobbyManager) -> None:
        self.tables = tables
        self.lobbies = lobbies
        self.offers: OrderedDict[int, Offer] = OrderedDict()

    def offer(self, table: Table) -> list[ButtonSpec]:
        """Called as a finished match is shown for the last time: its Rematch button."""
        known = self.offers.get(table.match_id)
        if known is not None:
            return [known.button()]
        seated = [s.player for s in table.public().seats if s.seated]
        if len(seated) < 2 or table.play is None:
            return []
        offer = Offer(
            table_id=table.match_id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=table.host_id,
            variant=table.variant,
            play=table.play,
            seats=[(int(p), table.names.get(p, "Player")) for p in seated],
        )
        self.offers[table.match_id] = offer
        while len(self.offers) > KEPT:
            self.offers.popitem(last=False)
        return [offer.button()]

    async def click(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        offer = self.offers.get(table_id)
        if offer is None or interaction.channel_id != offer.channel_id:
            await answers.reply(interaction, t(EXPIRED))
            return
        user = interaction.user.id
        if user not in {uid for uid, _ in offer.seats}:
            await answers.reply(interaction, t(NOT_A_PLAYER))
            return
        if refusal := self._refusal(offer):
            await answers.reply(interaction, refusal)
            return
        offer.accepted.add(user)
        if len(offer.accepted) < len(offer.seats):
            with speaking(server_language(interaction)):  # the table message: public
                rows = payloads.rows([offer.button()])
            await answers.update(interaction, {"components": rows})
            return
        del self.offers[table_id]
        await answers.update(interaction, {"components": []})
        await self.tables.start(
            guild_id=offer.guild_id,
            channel_id=offer.channel_id,
            host_id=offer.host_id,
            variant=offer.variant,
            seats=offer.seats,
            play=offer.play,
            message_id=None,  # a new table message below
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
