"""What the channel's table message shows and is doing; TableMessage alone writes it."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field

from cogs.uno.transport.ticket import Ticket


@dataclass(slots=True)
class ShownMessage:
    """The public table message of one running table: where it is, its coalesced edits
    (the edit in flight and its place in the request budget while it waits, the timer of
    the next one and when it is due, since when it is behind the game, whether a public
    moment waits to be shown), and the turn ping."""

    message_id: int | None = None
    message_posted: float = field(default_factory=time.monotonic)
    messages_below: int = 0  # others' messages since the table was posted
    flusher: asyncio.Task[None] | None = None
    waiting: Ticket | None = None  # the flusher's place in the budget, until granted
    edit_timer: asyncio.TimerHandle | None = None
    edit_due: float = math.inf
    behind_since: float | None = None  # None: it shows the latest state
    prompt_pending: bool = False
    last_edit: float = -math.inf
    notifier: asyncio.Task[None] | None = None
    notify_pending: bool = False
    catch_up: bool = False  # the next refresh brings the waiting panels up to date too
    last_to_act: str | None = None  # whom the turn ping last considered...
    last_missed: int = 0  # ...and how many deadlines in a row they had missed then
    ping_message_id: int | None = None
    warned: set[str] = field(default_factory=set)  # told their time ran out: no more pings
