"""Clicks at a running table: check where they come from, act, and show the outcome."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from typing import Any

import aiohttp
import discord

from cogs.uno import ids, render
from cogs.uno.i18n.l10n import N_, t
from cogs.uno.render import OPEN_COMMANDS
from cogs.uno.table.outcome import Accepted, Outcome, Refused, Stale
from cogs.uno.table.panels import HandPanels
from cogs.uno.table.running import LiveTable
from cogs.uno.table.service import TableService
from cogs.uno.transport import answers, channel
from cogs.uno.transport.ack import Ack
from cogs.uno.transport.click_clock import ClickClock
from cogs.uno.transport.issued import click_data, issued
from db.errors import DatabaseError
from engine.actions import Action, CallUno, CatchUno, Dump, JumpIn, KeepCard
from engine.cards import Card

log = logging.getLogger(__name__)

# Marked for the catalogue; each is said through `t` where it is answered.
ENDED = N_("This game has ended. Start a new one with {commands}.")
NOT_YOURS = N_("You're not playing at this table. Start your own with {commands}.")
OUT_OF_DATE = N_("⌛ That control is out of date — here is your hand now.")
STALE = N_("⌛ That button was out of date — here is your hand now.")
BUSY = N_("The table is busy with another move — try again in a moment; nothing changed.")
CLOSED = N_("This game is over or I'm restarting; nothing changed.")
WATCHING = N_(
    "👀 You're watching this game: here is the table as everyone sees it. To play, "
    "start your own table with {commands}, or join the next one opened here."
)
TIP = N_(
    "💡 **First game here?** This panel is yours alone: your cards and your choices. Press "
    "**Hand** on the table to bring it back any time. Down to one card, play it with "
    "**· UNO!** (or press **Call UNO**). You have {seconds} s per turn; miss 3 turns in a "
    "row and you leave the match."
)
MOVED = N_("This table moved further down the channel: use the newest table message.")


class TableClicks:
    """One click on a table control, from its arrival to its one answer."""

    def __init__(self, service: TableService, panels: HandPanels) -> None:
        self.service = service
        self.panels = panels
        self._background: set[asyncio.Task[None]] = set()

    async def click(
        self,
        interaction: discord.Interaction[Any],
        control: ids.TableControl,
        values: tuple[str, ...],
        *,
        age: float,
    ) -> None:
        table = self.service.registry.get(control.table_id)
        if table is None or table.closed:
            await self.ended(interaction)
            return
        if not _same_place(interaction, table):
            await self._elsewhere(interaction, table)
            return
        # The registry, not the table's public view: that view is let go once a state's
        # panels are drawn (LiveTable.trim_cache), and would be drawn again for this alone.
        if not self.service.registry.seats(table, interaction.user.id):
            if control.code == ids.HAND:
                await self._spectator(interaction, table)
            else:
                await answers.reply(interaction, t(NOT_YOURS, commands=t(OPEN_COMMANDS)))
            return
        player = str(interaction.user.id)
        custom_id, _ = click_data(interaction)
        if not issued(interaction.message, custom_id, values):
            await self.show_panel(interaction, table, player, note=t(OUT_OF_DATE))
            return
        await self._dispatch(interaction, table, player, control, values, age=age)

    async def _dispatch(
        self,
        interaction: discord.Interaction[Any],
        table: LiveTable,
        player: str,
        control: ids.TableControl,
        values: tuple[str, ...],
        *,
        age: float,
    ) -> None:
        if control.code == ids.HAND:
            await self._open_hand(interaction, table, player, age=age)
            return
        if control.code == ids.UNO:
            await self._press_uno(interaction, table, player, age=age)
            return
        if control.page is not None:
            await self.show_panel(interaction, table, player, page=control.page)
            return
        code = control.code if not control.is_select else (values[0] if len(values) == 1 else "")
        if code == ids.ORDER_RESTART or ids.order_card(code) is not None:
            await self._order(interaction, table, player, control, code, age=age)
            return
        action = control.action
        rest = control.code == ids.KEEP_REST  # the later picks are kept as the table moves on
        if rest:
            action = KeepCard()
        if control.is_select:
            action = _chosen(values)
        if action is None:
            await self.show_panel(interaction, table, player, note=t(OUT_OF_DATE))
            return
        # H3: a jump-in races the table; the engine judges it on the card on top now.
        version = None if isinstance(action, JumpIn) else control.version
        await self._act(interaction, table, player, action, version, age=age, rest=rest)

    async def _order(
        self,
        interaction: discord.Interaction[Any],
        table: LiveTable,
        player: str,
        control: ids.TableControl,
        code: str,
        *,
        age: float,
    ) -> None:
        """A dump laid card by card: remember each pick; the last one lays them all."""
        if control.version != table.match.version:
            await self.show_panel(interaction, table, player, note=t(STALE))
            return
        if code == ids.ORDER_RESTART:
            table.dumps.chosen.pop(player, None)
            await self.show_panel(interaction, table, player)
            return
        action = _dump_in_order(table, player, ids.order_card(code))
        if action is None:  # more than one kind of card left to order: ask for the next
            await self.show_panel(interaction, table, player)
            return
        table.dumps.chosen.pop(player, None)
        await self._act(interaction, table, player, action, control.version, age=age)

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        table: LiveTable,
        player: str,
        action: Action,
        version: int | None,
        *,
        age: float,
        rest: bool = False,
    ) -> None:
        ack = Ack(interaction, new_message=not _on_panel(interaction))
        ack.arm(age)
        try:
            outcome = await self.service.act(
                table, player, action, version, wait=ClickClock.budget(age), rest=rest
            )
            async with table.answer_order(player).turn(outcome.ticket):
                deferred = await ack.settle()
                await self._show_outcome(interaction, table, player, outcome, deferred=deferred)
        finally:
            ack.cancel()

    async def _open_hand(
        self, interaction: discord.Interaction[Any], table: LiveTable, player: str, *, age: float
    ) -> None:
        """The Hand button: a new private panel, with the tip the first time. The tip is
        read and marked in the database, which can wait behind a busy server's moves, so
        the click is watched like a move (acknowledged first if its time runs short)."""
        ack = Ack(interaction, new_message=True)
        ack.arm(age)
        try:
            note = await self._first_tip(player, table)
            deferred = await ack.settle()
        finally:
            ack.cancel()
        await self.show_panel(interaction, table, player, tip=note or "", deferred=deferred)

    async def _first_tip(self, player: str, table: LiveTable) -> str | None:
        """The tip, once per member ever: on the first hand panel they open. It quotes
        this table's turn time (the server's setting), not the bot's default."""
        prefs = self.service.db.prefs
        try:
            if (await prefs.get(int(player))).tipped:
                return None
            await prefs.update(int(player), tipped=True)
        except DatabaseError:
            return None  # a tip is not worth failing a click for
        seconds = (
            self.service.settings.turn_seconds if table.play is None else table.play.turn_seconds
        )
        return t(TIP, seconds=seconds)

    async def _spectator(self, interaction: discord.Interaction[Any], table: LiveTable) -> None:
        """Someone watching presses Hand: the table as everyone sees it, and how to play."""
        embed = render.table_embed(
            table.public(), names=table.names, table_id=table.match_id, deadline=table.deadline
        )
        data = answers.message_data(
            content=t(WATCHING, commands=t(OPEN_COMMANDS)), embed=embed, components=[]
        )
        await answers.send_private(interaction, data)

    async def _press_uno(
        self, interaction: discord.Interaction[Any], table: LiveTable, player: str, *, age: float
    ) -> None:
        legal = table.match.legal_actions(player)
        action: Action
        if CallUno() in legal:
            action, said = CallUno(), "📣 " + t("You called **UNO!**")
        elif CatchUno() in legal:
            action, said = CatchUno(), "🎯 " + t("Caught! They draw 2 cards.")
        else:
            await answers.reply(
                interaction, t("Nobody needs to call UNO right now, so nothing happened.")
            )
            return
        ack = Ack(interaction, new_message=True)
        ack.arm(age)
        try:
            outcome = await self.service.act(
                table, player, action, None, wait=ClickClock.budget(age)
            )
            deferred = await ack.settle()
        finally:
            ack.cancel()
        text = said if isinstance(outcome, Accepted) else _refusal_words(outcome)
        await _say(interaction, text, deferred=deferred)

    async def _show_outcome(
        self,
        interaction: discord.Interaction[Any],
        table: LiveTable,
        player: str,
        outcome: Outcome,
        *,
        deferred: bool,
    ) -> None:
        match outcome:
            case Accepted():
                note = None
            case Stale():
                note = t(STALE)
            case Refused(kind="illegal", reason=reason):
                note = f"⚠️ {reason}"
            case Refused():
                await _say(interaction, _refusal_words(outcome), deferred=deferred)
                return
        await self.show_panel(interaction, table, player, note=note, deferred=deferred)

    async def show_panel(
        self,
        interaction: discord.Interaction[Any],
        table: LiveTable,
        player: str,
        *,
        note: str | None = None,
        page: int = 0,
        deferred: bool = False,
        tip: str = "",
    ) -> None:
        """The player's panel as this click's answer: the clicked panel redrawn, or a new one.

        `tip`: the first-game tip of a new panel; a click on a panel keeps the tip it has.
        """
        panel = table.panels.by_player.get(player)
        if not tip and panel is not None and _on_panel(interaction):
            tip = panel.tip
        data = self.panels.data(table, player, page=page, note=note, tip=tip)
        shown = self.panels.signature(table, player)
        if deferred:
            await answers.edit_answer(interaction, data)
        elif _on_panel(interaction):
            await answers.update(interaction, data)
        else:
            await answers.send_private(interaction, data)
        if self.panels.remember(table, player, interaction.token, shown=shown, tip=tip):
            # The table moved while this answer was on its way (a computer playing at
            # once): a refresh sent meanwhile was overwritten, so the panel needs another.
            self.service.message.notify(table)

    async def _elsewhere(self, interaction: discord.Interaction[Any], table: LiveTable) -> None:
        """From another server or channel: refused. From an old table message (re-posted
        since): pointed to the new one, and the old one loses its buttons."""
        here = (interaction.guild_id, interaction.channel_id) == (table.guild_id, table.channel_id)
        if not here:
            await answers.reply(interaction, t("That control belongs to a table somewhere else."))
            return
        await self.ended(interaction, text=t(MOVED))

    async def ended(
        self, interaction: discord.Interaction[Any], *, text: str | None = None
    ) -> None:
        """A control of a game that is over: say so, and take the buttons off its message."""
        await answers.reply(interaction, text or t(ENDED, commands=t(OPEN_COMMANDS)))
        message = interaction.message
        if message is None or message.flags.ephemeral or interaction.channel_id is None:
            return
        custom_id, values = click_data(interaction)
        if not issued(message, custom_id, values):
            return  # a forged id says nothing about the message it was sent from
        client = interaction.client
        if client.user is None or message.author.id != client.user.id:
            return
        task = asyncio.create_task(_strip(client, interaction.channel_id, message.id))
        self._background.add(task)
        task.add_done_callback(self._background.discard)


def _same_place(interaction: discord.Interaction[Any], table: LiveTable) -> bool:
    """The click comes from the table's server and channel, and (unless it is on a
    private panel) from the table message itself."""
    if interaction.guild_id != table.guild_id or interaction.channel_id != table.channel_id:
        return False
    message = interaction.message
    return message is not None and (message.flags.ephemeral or message.id == table.shown.message_id)


async def _say(interaction: discord.Interaction[Any], text: str, *, deferred: bool) -> None:
    """A private sentence; after a "thinking" acknowledgement, in place of it."""
    if deferred and not _on_panel(interaction):
        data = answers.message_data(content=text, embed=None, components=[])
        await answers.edit_answer(interaction, data)
    else:
        await answers.reply(interaction, text)


def _on_panel(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _dump_in_order(table: LiveTable, player: str, card: Card | None) -> Action | None:
    """Add `card` to the player's dump order; the whole Dump once one kind of card is left
    (those go last), else None (the pick is remembered: ask for the next)."""
    legal = table.match.legal_actions(player)
    dumps = [a for a in legal if isinstance(a, Dump)]
    order = table.dump_order(player)
    if card is None or not dumps:
        return None
    left = Counter(c for c in table.match.private_view(player).hand if c.colour is card.colour)
    left.subtract(order)
    if card.colour is not dumps[0].last.colour or left[card] <= 0:
        return None
    order.append(card)
    left[card] -= 1
    if len([c for c in left if left[c] > 0]) >= 2:
        table.dumps.chosen[player] = (table.match.version, order)
        return None
    order += list(left.elements())
    uno = Dump(order[-1], uno=True) in legal
    return Dump(order[-1], uno=uno, order=tuple(order))


def _chosen(values: tuple[str, ...]) -> Action | None:
    """The action a select's one chosen value names; None for anything else."""
    if len(values) != 1:
        return None
    try:
        return ids.decode_action(values[0])
    except ValueError:
        return None


def _refusal_words(outcome: Outcome) -> str:
    if isinstance(outcome, Refused) and outcome.kind == "busy":
        return t(BUSY)
    if isinstance(outcome, Refused) and outcome.kind == "illegal":
        return f"⚠️ {outcome.reason}"
    if isinstance(outcome, Stale):
        return t(
            "That changed just now; nothing happened. Look at your hand again and choose once more."
        )
    return t(CLOSED)


async def _strip(client: discord.Client, channel_id: int, message_id: int) -> None:
    # RuntimeError: the HTTP session closed under us while the bot shuts down.
    with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, RuntimeError):
        await channel.edit(client, channel_id, message_id, {"components": []})
