"""One running match in one channel, and what is cached for its current state."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cogs.uno.table.dump_orders import DumpOrders
from cogs.uno.table.open_panels import OpenPanels
from cogs.uno.table.options import TableOptions
from cogs.uno.table.shown import ShownMessage
from cogs.uno.transport.answer_order import AnswerOrder
from engine.cards import Card
from engine.match import Match, Variant
from engine.views import PrivateView, PublicView


@dataclass(slots=True)
class LiveTable:
    """One running match in one channel.

    `cache` holds what was worked out for the current state (the public view,
    each player's panel signature); it is emptied whenever the state changes,
    so those are built at most once per state version, and once the state's panels
    are drawn (`trim_cache`), so an idle table does not keep them.
    """

    match_id: int
    guild_id: int
    channel_id: int
    host_id: int
    match: Match
    names: dict[str, str]
    options: dict[str, Any]
    play: TableOptions | None = None  # None: a table of a test, with the bot's defaults
    quiet: set[str] = field(default_factory=set)  # players who turned pings off
    deadline: datetime | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    answers: dict[str, AnswerOrder] = field(default_factory=dict)
    timeouts: dict[str, int] = field(default_factory=dict)
    keeping: set[str] = field(default_factory=set)  # pressed "Keep the rest" this draft
    dumps: DumpOrders = field(default_factory=DumpOrders)  # clicks.py's alone
    panels: OpenPanels = field(default_factory=OpenPanels)  # panels.py's alone
    timer: asyncio.TimerHandle | None = None  # the turn's deadline (timers.py)
    shown: ShownMessage = field(default_factory=ShownMessage)  # message.py's alone
    closed: bool = False
    cache: dict[Any, Any] = field(default_factory=dict)
    cached_version: int = -1

    @property
    def variant(self) -> Variant:
        return self.match.variant

    def cached(self) -> dict[Any, Any]:
        """The cache of the current state (emptied when the version moved)."""
        if self.cached_version != self.match.version:
            self.cache.clear()
            self.cached_version = self.match.version
        return self.cache

    def answer_order(self, player: str) -> AnswerOrder:
        """The order of one player's answers (their clicks may land on the same panel)."""
        order = self.answers.get(player)
        if order is None:
            order = self.answers[player] = AnswerOrder()
        return order

    def dump_order(self, player: str) -> list[Card]:
        """The cards `player` has chosen to lay first in the dump now asked of them."""
        return self.dumps.of(player, self.match.version)

    def trim_cache(self) -> None:
        """Keep nothing worked out for the current state (it is worked out again if asked)."""
        self.cache.clear()

    def forget_cache(self) -> None:
        """After the match object was replaced (a reload): its versions may repeat."""
        self.cache.clear()
        self.cached_version = -1

    def public(self) -> PublicView:
        cache = self.cached()
        view = cache.get("public")
        if not isinstance(view, PublicView):
            view = self.match.public_view()
            cache["public"] = view
        return view

    def private(self, player: str) -> PrivateView:
        """`player`'s view of the current state: their panel and its signature share it."""
        cache = self.cached()
        key = ("private", player)
        view = cache.get(key)
        if not isinstance(view, PrivateView):
            view = cache[key] = self.match.private_view(player)
        return view

    def seated(self, user_id: int) -> bool:
        """Whether the member still plays here; one who left or was removed (X3) does not."""
        player = str(user_id)
        return any(seat.player == player and seat.seated for seat in self.public().seats)
