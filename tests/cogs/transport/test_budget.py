"""RequestBudget on a loop whose clock jumps to its next timer when idle: never more than
the rate in any second, waiters by priority then arrival, a raised waiter, the shard
share, a global pause."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.uno.transport.budget import ARRIVAL_SLACK, RequestBudget, share_of
from cogs.uno.transport.priority import Priority, priority
from cogs.uno.transport.ticket import Ticket


class JumpingLoop(asyncio.SelectorEventLoop):
    """Seconds pass only when nothing is ready: the clock jumps to the next timer."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 1000.0

    def time(self) -> float:
        return self.now

    def _run_once(self) -> None:
        ready: Any = self._ready  # type: ignore[attr-defined]
        scheduled: Any = self._scheduled  # type: ignore[attr-defined]
        if not ready and scheduled:
            self.now = max(self.now, min(h.when() for h in scheduled if not h.cancelled()))
        super()._run_once()  # type: ignore[misc]


def jumping(test: Callable[[], Awaitable[None]]) -> None:
    loop = JumpingLoop()
    try:
        loop.run_until_complete(test())
    finally:
        loop.close()


@dataclass
class Sent:
    asked: float
    order: int
    level: Priority
    granted: float = -1.0
    turn: int = -1  # its place among all grants


async def run(budget: RequestBudget, arrivals: list[tuple[float, Priority]]) -> list[Sent]:
    loop = asyncio.get_running_loop()
    start = loop.time()
    sent: list[Sent] = []
    turns = iter(range(len(arrivals)))

    async def one(at: float, level: Priority) -> None:
        await asyncio.sleep(at)
        item = Sent(loop.time(), len(sent), level)
        sent.append(item)

        def grant(_: object) -> None:  # in the order the budget granted them
            item.granted, item.turn = loop.time(), next(turns)

        ticket = budget.ticket(level)
        ticket.granted.add_done_callback(grant)
        await ticket.wait()
        budget.leaving(ticket)  # its request goes at once
        await asyncio.sleep(0)  # its callback ran

    await asyncio.gather(*(one(at, level) for at, level in arrivals))
    assert all(item.granted >= start for item in sent)
    return sent


arrival = st.tuples(
    st.floats(min_value=0.0, max_value=3.0, allow_nan=False), st.sampled_from(list(Priority))
)


async def send(budget: RequestBudget, level: Priority | None = None) -> Ticket:
    """A request that leaves as soon as it has its slot."""
    slot = await budget.take(level)
    budget.leaving(slot)
    return slot


@settings(max_examples=60, deadline=None)
@given(st.lists(arrival, max_size=60), st.sampled_from([1.0, 2.5, 4.0, 13.3]))
def test_never_more_than_the_rate_in_any_second_and_best_waiter_first(
    arrivals: list[tuple[float, Priority]], rate: float
) -> None:
    budget = RequestBudget(rate)
    sent: list[Sent] = []

    async def play() -> None:
        sent.extend(await run(budget, arrivals))

    jumping(play)
    times = sorted(item.granted for item in sent)
    room = int(rate)
    assert all(later - first >= 1.0 for first, later in zip(times, times[room:], strict=False))
    for first in sent:
        for later in sent:
            waiting = later.asked < first.granted or later.order < first.order
            if later.turn > first.turn and waiting:
                assert (first.level, first.order) < (later.level, later.order)
    assert budget.counted() == len(arrivals)


def test_posts_then_moments_then_edits_then_by_arrival() -> None:
    budget = RequestBudget(1.0)
    order: list[str] = []

    async def play() -> None:
        await send(budget)  # fills the second

        async def ask(name: str, level: Priority) -> None:
            with priority(level):  # the caller's context says what it sends
                await send(budget)
            order.append(name)

        await asyncio.gather(
            ask("edit 1", Priority.EDIT),
            ask("moment", Priority.MOMENT),
            ask("edit 2", Priority.EDIT),
            ask("post", Priority.POST),
        )

    jumping(play)
    assert order == ["post", "moment", "edit 1", "edit 2"]
    assert budget.sent == {Priority.POST: 2, Priority.MOMENT: 1, Priority.EDIT: 2}
    window_ms = (1.0 + ARRIVAL_SLACK) * 1000  # one grant a window at a rate of 1
    assert budget.waited_ms[Priority.EDIT] == pytest.approx(3 * window_ms + 4 * window_ms)


def test_a_waiting_edit_raised_to_a_moment_goes_ahead_of_edits() -> None:
    budget = RequestBudget(1.0)
    order: list[str] = []

    async def play() -> None:
        await send(budget)
        early = budget.ticket(Priority.EDIT)
        late = budget.ticket(Priority.EDIT)
        late.raise_to(Priority.MOMENT)
        late.granted.add_done_callback(lambda _: order.append("raised"))
        early.granted.add_done_callback(lambda _: order.append("early"))
        await asyncio.gather(early.wait(), late.wait())

    jumping(play)
    assert order == ["raised", "early"]


def test_sends_are_spaced_evenly_not_granted_in_bursts() -> None:
    budget = RequestBudget(4.0)
    granted: list[float] = []

    async def play() -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        for _ in range(6):
            await send(budget)
            granted.append(loop.time() - start)

    jumping(play)
    # A quarter of the window (a second and the arrival slack) apart.
    spacing = (1.0 + ARRIVAL_SLACK) / 4
    assert granted == pytest.approx([k * spacing for k in range(6)])


def test_load_is_the_part_of_the_rate_used_in_the_last_second() -> None:
    budget = RequestBudget(4.0)
    loads: list[float] = []

    async def play() -> None:
        loads.append(budget.load())
        await send(budget)
        await send(budget)
        loads.append(budget.load())
        await asyncio.sleep(1.0 + ARRIVAL_SLACK)  # the window: a second and the slack
        loads.append(budget.load())

    jumping(play)
    assert loads == [0.0, 0.5, 0.0]


def test_a_process_takes_its_share_of_the_shards() -> None:
    assert share_of(40.0, None, None) == 40.0
    assert share_of(40.0, 2, 4) == 20.0
    assert share_of(40.0, 1, 3) == pytest.approx(13.333, abs=0.001)
    assert share_of(40.0, None, 4) == 40.0  # every shard in this process


def test_a_global_429_pauses_every_waiter_for_its_retry_after() -> None:
    budget = RequestBudget(10.0)
    granted: list[float] = []

    async def play() -> None:
        loop = asyncio.get_running_loop()
        await send(budget)
        start = loop.time()
        budget.pause(2.5)
        for level in (Priority.POST, Priority.EDIT):
            await send(budget, level)
            granted.append(loop.time() - start)

    jumping(play)
    spacing = (1.0 + ARRIVAL_SLACK) / 10  # then a tenth of the window apart, as ever
    assert granted == pytest.approx([2.5, 2.5 + spacing])
    assert budget.paused == 1


def test_a_cancelled_waiter_leaves_the_queue() -> None:
    budget = RequestBudget(1.0)

    async def play() -> None:
        await send(budget)
        waiter = asyncio.create_task(send(budget, Priority.EDIT))
        await asyncio.sleep(0.1)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        assert budget.load() == 1.0  # the one sent; nobody waits
        await send(budget)

    jumping(play)
    assert budget.counted() == 2


def test_a_rate_must_be_above_zero() -> None:
    with pytest.raises(ValueError, match="above 0"):
        RequestBudget(0)


held = st.tuples(
    st.floats(min_value=0.0, max_value=3.0, allow_nan=False),
    st.floats(min_value=0.0, max_value=2.5, allow_nan=False),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(held, max_size=40), st.sampled_from([1.0, 2.5, 4.0]))
def test_requests_leaving_late_after_their_grant_never_pass_the_rate_in_a_second(
    asks: list[tuple[float, float]], rate: float
) -> None:
    """A slot may wait after its grant (a channel's bucket, a connection) before its
    request leaves; Discord counts the request when it arrives, so it is the leaving
    times that must never hold more than the rate in a second."""
    budget = RequestBudget(rate)
    left: list[float] = []

    async def one(at: float, hold: float) -> None:
        await asyncio.sleep(at)
        slot = await budget.take()
        await asyncio.sleep(hold)
        budget.leaving(slot)
        left.append(asyncio.get_running_loop().time())

    async def play() -> None:
        await asyncio.gather(*(one(at, hold) for at, hold in asks))

    jumping(play)
    times = sorted(left)
    room = int(rate)
    assert all(later - first >= 1.0 for first, later in zip(times, times[room:], strict=False))


@pytest.mark.parametrize("leaves_at", [0.9, 1.2])
def test_a_granted_slot_holds_its_place_until_its_request_leaves(leaves_at: float) -> None:
    """Granted at 0, its request leaves only at `leaves_at` (its connection came free
    then): it counts from then. The next grant waits for the window to hold room past
    the sends, not for its grant to expire (at 1.05 s, before or after it left: counted
    from its grant, it would meet the next one in one of Discord's seconds)."""
    budget = RequestBudget(2.0)
    granted: list[float] = []

    async def play() -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        late = await budget.take()
        await send(budget)  # the window's second slot, half a window later
        waiting = asyncio.ensure_future(budget.take())
        await asyncio.sleep(leaves_at - (loop.time() - start))
        assert not waiting.done()
        budget.leaving(late)
        budget.leaving(await waiting)
        granted.append(loop.time() - start)

    jumping(play)
    window = 1.0 + ARRIVAL_SLACK
    # The second slot's send (at half a window) is the first to leave the window.
    assert granted == pytest.approx([window / 2 + window])


def test_a_slot_used_for_nothing_counts_from_when_it_is_settled_or_is_given_back() -> None:
    budget = RequestBudget(1.0)
    granted: list[float] = []

    async def play() -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        unused = await budget.take()
        await asyncio.sleep(0.5)
        budget.settle(unused)  # no request seen leaving with it: counted from 0.5 s
        budget.leaving(await budget.take())
        granted.append(loop.time() - start)
        forgotten = await budget.take()
        budget.forget(forgotten)  # granted, never used: its place is given back at once
        budget.leaving(await budget.take())
        granted.append(loop.time() - start)

    jumping(play)
    window = 1.0 + ARRIVAL_SLACK
    assert granted == pytest.approx([0.5 + window, 0.5 + 2 * window])
