"""One budget of bot-token requests a second for the whole process.

Discord allows an application 50 bot-token requests a second across every shard and
process (interaction callbacks and interaction-token webhooks are exempt), and a bot
that keeps meeting the limit collects invalid requests towards a ban. Every bot-token
request of this process takes a slot here first: discord.py's (seen in its HTTP
session's request trace, `watch_requests`) and the raw table edits (raw_http.py). The
rate is the REQUEST_BUDGET setting times this process's share of the shards; a sliding
window of a second (and a little slack for a late arrival) never holds more sends than
that, counted from when each leaves (a slot granted and not used yet holds its place),
and they are spaced evenly rather than in bursts.
Waiters are served by priority (priority.py), then by arrival. A global 429 seen
anywhere pauses the whole budget for its retry_after.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import weakref
from collections import deque
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from types import SimpleNamespace

import aiohttp
from discord.http import Route

from cogs.uno.transport.priority import Priority, current
from cogs.uno.transport.ticket import Ticket

DEFAULT_RATE = 40.0  # below Discord's 50: room for a clock's drift and a late answer
WINDOW = 1.0
# Discord counts a request when it arrives, and a send can leave a little after its grant
# (behind a route's bucket, on a busy loop): two processes' evenly spaced 20/s then met
# 41 in one of Discord's seconds. A window this much longer than a second keeps every
# second at Discord within the rate.
ARRIVAL_SLACK = 0.05

# A granted slot whose request has not left holds its place in the window until it
# does (a table's slot waits for the channel's bucket, a raw edit for a connection);
# one never seen leaving (its holder lost, a bug) is let go after this long.
HELD_AT_MOST = 30.0

# A slot taken ahead (a table's, before it renders), spent by the next request made in
# the same context instead of a slot of its own.
_held: ContextVar[Ticket | None] = ContextVar("uno_request_ticket", default=None)


def share_of(per_second: float, shard_ids: int | None, shard_count: int | None) -> float:
    """This process's part of the application's `per_second`: its share of the shards."""
    if shard_ids is None or shard_count is None:
        return per_second
    return per_second * shard_ids / shard_count


class RequestBudget:
    """At most `rate` grants in any second, by priority then arrival; counted."""

    def __init__(self, rate: float = DEFAULT_RATE) -> None:
        if rate <= 0:
            raise ValueError("a request budget needs a rate above 0")
        self.rate = rate
        # Whole sends in a window at least a second long: never more than `rate` in 1 s.
        self._room = max(1, math.floor(rate))
        self._window = max(WINDOW, self._room / rate) + ARRIVAL_SLACK
        # Evenly spaced, not in bursts: a second's sends granted at one instant would
        # reach Discord with the last second's late ones and pass its count.
        self._spacing = self._window / self._room
        self._last = -math.inf
        self._sent: deque[float] = deque()  # when each request in the window left
        self._unsent: dict[Ticket, float] = {}  # granted, not left yet: grant times
        self._waiting: list[Ticket] = []
        self._arrivals = 0
        self._paused_until = -math.inf
        self._timer: asyncio.TimerHandle | None = None
        self.sent = dict.fromkeys(Priority, 0)
        self.waited_ms = dict.fromkeys(Priority, 0.0)
        self.paused = 0  # global 429s that paused it

    # -- asking ----------------------------------------------------------------------

    def ticket(self, level: Priority | None = None) -> Ticket:
        """A place in the queue at `level` (the context's priority by default)."""
        loop = asyncio.get_running_loop()
        self._arrivals += 1
        ticket = Ticket(
            current() if level is None else level, self._arrivals, loop.create_future(), loop.time()
        )
        self._waiting.append(ticket)
        self._serve()
        return ticket

    async def take(self, level: Priority | None = None) -> Ticket:
        """Wait for a slot and spend it; the slot. The caller says `leaving(slot)` as its
        request is written, or `settle(slot)` if none is."""
        held = _held.get()
        if held is not None and not held.spent and held.granted.done():
            held.spent = True
            return held
        ticket = self.ticket(level)
        try:
            await ticket.wait()
        except asyncio.CancelledError:
            self.forget(ticket)
            raise
        ticket.spent = True
        return ticket

    def leaving(self, ticket: Ticket) -> None:
        """`ticket`'s request is being written now: the window counts it from now. Until
        then it held its place, however long it waited after its grant (for a route's
        bucket, a connection, a render): counted from its grant, it could leave the
        window before it left the bot, and reach Discord in the same second as the
        grants made in its place."""
        if self._unsent.pop(ticket, None) is None:
            return  # counted already
        now = asyncio.get_running_loop().time()
        self._sent.append(now)  # nothing in the window left later than now: in order
        ticket.counted_at = now
        self._serve()

    def settle(self, ticket: Ticket) -> None:
        """Its holder is done with `ticket`: if no request was seen leaving with it (none
        was made, or it failed on the way), it counts from now, as if one had left."""
        self.leaving(ticket)

    @contextlib.contextmanager
    def spending(self, ticket: Ticket) -> Iterator[None]:
        """The first request made inside spends `ticket` (granted) instead of a slot."""
        token = _held.set(ticket)
        try:
            yield
        finally:
            _held.reset(token)

    def forget(self, ticket: Ticket) -> None:
        """`ticket` is no longer wanted (its table closed while it waited)."""
        if ticket in self._waiting:
            self._waiting.remove(ticket)
        if not ticket.granted.done():
            ticket.granted.cancel()
        elif self._unsent.pop(ticket, None) is not None:  # granted, never used: given back
            if ticket.counted_at == self._last:  # nothing went: the next need not wait
                self._last = -math.inf
            self._serve()

    # -- what it knows ----------------------------------------------------------------

    def load(self) -> float:
        """The part of the rate used over the last window (may pass 1 with waiters)."""
        now = asyncio.get_running_loop().time()
        self._expire(now)
        return (self._places_taken() + len(self._waiting)) / self._room

    def pause(self, seconds: float) -> None:
        """A global 429: nothing goes for `seconds`."""
        loop = asyncio.get_running_loop()
        self._paused_until = max(self._paused_until, loop.time() + seconds)
        self.paused += 1
        self._rearm(loop)

    def counted(self) -> int:
        return sum(self.sent.values())

    # -- serving ----------------------------------------------------------------------

    def _expire(self, now: float) -> None:
        while self._sent and self._sent[0] + self._window <= now:
            self._sent.popleft()
        for ticket, granted in list(self._unsent.items()):  # oldest grant first
            if granted + HELD_AT_MOST > now:
                break
            del self._unsent[ticket]

    def _places_taken(self) -> int:
        """The places taken in the window: sent within it, or granted and not sent."""
        return len(self._sent) + len(self._unsent)

    def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._expire(now)
        while self._waiting and self._free(now):
            ticket = min(self._waiting, key=_place)
            self._waiting.remove(ticket)
            if ticket.granted.done():  # cancelled meanwhile
                continue
            self._unsent[ticket] = now
            ticket.counted_at = now
            self._last = now
            self.sent[ticket.priority] += 1
            self.waited_ms[ticket.priority] += (now - ticket.asked) * 1000
            ticket.granted.set_result(None)
        self._rearm(loop)

    def _free(self, now: float) -> bool:
        return (
            now >= self._paused_until
            and now >= self._last + self._spacing
            and self._places_taken() < self._room
        )

    def _rearm(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._waiting:
            return
        when = max(self._paused_until, self._last + self._spacing)
        if self._places_taken() >= self._room:  # full: the first place to come free
            frees = [self._sent[0] + self._window] if self._sent else []
            if self._unsent:
                frees.append(next(iter(self._unsent.values())) + HELD_AT_MOST)
            when = max(when, min(frees))
        self._timer = loop.call_at(max(when, loop.time()), self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._serve()


def summary() -> str:
    """The running loop's budget in one line, for the log."""
    used = budget()
    parts = ", ".join(
        f"{level.name.lower()}s {used.sent[level]} (waited {used.waited_ms[level] / 1000:.1f} s)"
        for level in Priority
    )
    return (
        f"Request budget: {used.counted()} bot-token requests at {used.rate:g}/s: {parts}; "
        f"paused by {used.paused} global 429s"
    )


def global_limit_met(headers: Mapping[str, str]) -> float | None:
    """The seconds a global 429's headers ask every request to wait; None for another."""
    named = {name.lower(): value for name, value in headers.items()}
    if named.get("x-ratelimit-global", "").lower() != "true" and (
        named.get("x-ratelimit-scope") != "global"
    ):
        return None
    try:
        return max(float(named.get("retry-after", "1")), 0.0)
    except ValueError:
        return 1.0


def watch_requests() -> aiohttp.TraceConfig:
    """For the client's HTTP session: each bot-token request takes its slot just before it
    leaves, after discord.py waited for its route's bucket (a slot taken earlier would let
    it reach Discord bunched with later ones); a global 429 pauses the budget."""

    async def starting(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if _bot_token(str(params.url)):
            context.slot = await budget().take()

    async def sent(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestHeadersSentParams,
    ) -> None:
        slot = getattr(context, "slot", None)
        if slot is not None:  # it waited for a connection, maybe: counted from now
            budget().leaving(slot)

    async def failed(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        slot = getattr(context, "slot", None)
        if slot is not None:  # it may have left before it failed: counted from now
            budget().settle(slot)

    async def ended(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        slot = getattr(context, "slot", None)
        if slot is not None:
            budget().settle(slot)
        if params.response.status == 429:
            seconds = global_limit_met(params.response.headers)
            if seconds is not None:
                budget().pause(seconds)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(starting)
    trace.on_request_headers_sent.append(sent)
    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace


# Requests made with an interaction's token, outside Discord's global limit.
_INTERACTION_TOKEN = re.compile(r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+")


def _bot_token(url: str) -> bool:
    """A request to Discord's API made with the bot token (not the gateway's connection,
    an attachment's download or an interaction's answer)."""
    return url.startswith(Route.BASE) and _INTERACTION_TOKEN.search(url) is None


def _place(ticket: Ticket) -> tuple[int, int]:
    return ticket.priority, ticket.order


_RATE = DEFAULT_RATE
_BUDGETS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RequestBudget] = (
    weakref.WeakKeyDictionary()
)


def configure(rate: float) -> None:
    """The process's rate (bot.py, before the bot starts): budgets made after use it."""
    global _RATE
    if rate <= 0:
        raise ValueError("a request budget needs a rate above 0")
    _RATE = rate


def budget() -> RequestBudget:
    """The running loop's budget (the bot has one loop; the tests, one per test)."""
    loop = asyncio.get_running_loop()
    found = _BUDGETS.get(loop)
    if found is None:
        found = _BUDGETS[loop] = RequestBudget(_RATE)
    return found
