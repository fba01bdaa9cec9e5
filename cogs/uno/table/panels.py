"""Hand panels: each player's private message, drawn once per state, kept fresh."""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

import aiohttp
import discord

from cogs.uno import render
from cogs.uno.i18n.l10n import N_, language, speaking, t
from cogs.uno.table.open_panel import Panel
from cogs.uno.table.running import LiveTable
from cogs.uno.transport import answers, payloads

log = logging.getLogger(__name__)

# A notice that can't reach a panel is let go: the token died, the message is gone, or
# (RuntimeError) the HTTP session closed under it while the bot shuts down.
_UNDELIVERED = (discord.HTTPException, aiohttp.ClientError, RuntimeError)
# What the panel of a player who is no longer seated says (marked for the catalogue).
REMOVED = N_(
    "You're no longer playing at this table: leaving, or missing {limit} turns in a row, "
    "is a forfeit. Start a new game with `/uno duo`, `/uno pizza` or `/uno classic`."
)


class HandPanels:
    """Draws panels (on demand, from the cached views) and edits open ones through their token."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def data(
        self,
        table: LiveTable,
        player: str,
        *,
        page: int = 0,
        note: str | None = None,
        tip: str = "",
    ) -> dict[str, Any]:
        """The panel's message payload for the current state.

        Drawn on demand and not kept: a panel is almost always drawn once per viewer
        and state (the click's answer, or the refresh of a player whose options
        changed), and a kept payload would cost every table a few KiB while its
        players think.
        """
        hand = render.hand_panel(
            table.private(player),
            table.public(),
            names=table.names,
            table_id=table.match_id,
            version=table.match.version,
            page=page,
            order=table.dump_order(player),
            shared=self._table_fields(table),
        )
        built = answers.message_data(
            content=hand.content, embed=hand.embed, components=payloads.rows(hand.components)
        )
        missed = table.timeouts.get(player, 0)
        if missed:  # a default move was made for them: say so until they act
            late = "⏱️ " + t(
                "Your time ran out: you missed {count} of {limit} turns in a row and a default "
                "move was made. At {limit} you leave the match.",
                count=missed,
                limit=render.MAX_MISSED,
            )
            note = f"{note}\n{late}" if note else late
        if tip:  # kept on every redraw of the panel it opened with, not only the first
            note = f"{note}\n{tip}" if note else tip
        if note:
            return {**built, "content": f"{note}\n{built['content']}"[:2000]}
        return built

    @staticmethod
    def _table_fields(table: LiveTable) -> render.TableFields:
        """The seats and last moves every panel of this state shows, in this language."""
        cache = table.cached()
        key = ("table-fields", language())
        found = cache.get(key)
        if not isinstance(found, tuple):
            found = cache[key] = render.table_fields(table.public(), table.names)
        return found

    def signature(self, table: LiveTable, player: str) -> tuple[Any, ...]:
        """What the player can see and do: their panel changes only when this does."""
        cache = table.cached()
        key = ("signature", player)
        found = cache.get(key)
        if not isinstance(found, tuple):
            private = table.private(player)
            found = (
                private.hand,
                private.legal,
                private.drawn,
                private.looking_at,
                private.received,
            )
            cache[key] = found
        return found

    def answering(self, table: LiveTable, player: str) -> None:
        """The player's own click answer will show this state: no refresh for them."""
        panel = table.panels.by_player.get(player)
        if panel is not None:
            panel.signature = self.signature(table, player)

    def remember(
        self,
        table: LiveTable,
        player: str,
        token: str,
        *,
        shown: tuple[Any, ...] | None = None,
        tip: str = "",
    ) -> bool:
        """Keep the panel's token; `shown`: the signature of the state the answer drew
        (else the current one). True when the table has moved on since it was drawn: a
        refresh sent meanwhile was overwritten by this answer, so the panel needs another.
        """
        now = self.signature(table, player)
        signature, speaks = now if shown is None else shown, language()
        panel = table.panels.by_player.get(player)
        if panel is None:
            table.panels.by_player[player] = Panel(token, time.monotonic(), signature, speaks, tip)
            return signature != now
        # The same object, not a new one per click: it outlives young collections, and
        # each new one would be scanned by the full ones until the next freeze.
        panel.token, panel.opened, panel.signature, panel.language, panel.tip = (
            token,
            time.monotonic(),
            signature,
            speaks,
            tip,
        )
        return signature != now

    async def refresh_others(self, table: LiveTable, *, everyone: bool = False) -> None:
        """Edit the open panels of players whose options changed, and only those.

        A waiting player with nothing to decide before and after (only their hand or a
        notice changed: a card drawn on them, a card received) is left for later
        (`table.panels.behind`) unless `everyone`: the table message's next edit brings
        them up to date, or their turn does. A player who can act now is told at once.
        """
        behind = False
        # Only with a panel open: the public view is not worked out for nothing.
        seated = (
            {s.player for s in table.public().seats if s.seated}
            if table.panels.by_player
            else set()
        )
        for player, panel in list(table.panels.by_player.items()):
            if not panel.alive or table.closed:
                continue
            if player not in seated:
                await self._farewell(table, player, panel)
                continue
            signature = self.signature(table, player)
            if signature == panel.signature:
                continue
            if not everyone and _nothing_to_decide(panel.signature, signature):
                behind = True
                continue
            panel.signature = signature
            with speaking(panel.language):
                data = self.data(table, player, tip=panel.tip)
            try:
                await answers.edit_original(self.client, panel.token, data)
            except discord.HTTPException:
                table.panels.by_player.pop(player, None)  # token dead or message gone: ping instead
        table.panels.behind = behind and not table.closed

    async def _farewell(self, table: LiveTable, player: str, panel: Panel) -> None:
        """A removed player's panel (they left, or missed too many turns) loses its
        buttons and says why, once."""
        table.panels.by_player.pop(player, None)
        with speaking(panel.language):
            text = "🚪 " + t(REMOVED, limit=render.MAX_MISSED)
        notice = answers.message_data(content=text, embed=None, components=[])
        with contextlib.suppress(*_UNDELIVERED):
            await answers.edit_original(self.client, panel.token, notice)

    async def tell(self, table: LiveTable, message: str, **values: object) -> None:
        """Replace every open hand panel of the table with a notice (`message`, marked
        for the catalogue, in each player's language)."""
        for panel in table.panels.by_player.values():
            if not panel.alive:
                continue
            with speaking(panel.language):
                text = t(message, **values)
            notice = answers.message_data(content=text, embed=None, components=[])
            with contextlib.suppress(*_UNDELIVERED):
                await answers.edit_original(self.client, panel.token, notice)
        table.panels.by_player.clear()


def _nothing_to_decide(shown: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    """Whether a panel's player had no decision offered and still has none."""
    legal = 1  # the legal actions' place in a signature
    return not now[legal] and (not shown or not shown[legal])
