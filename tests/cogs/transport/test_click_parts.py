"""The small parts of a click's path: its age, whether it was issued, answer order."""

from __future__ import annotations

import asyncio
import gc
import time
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.uno.transport import answers
from cogs.uno.transport.answer_order import AnswerOrder
from cogs.uno.transport.click_clock import TOO_LATE, ClickClock
from cogs.uno.transport.issued import issued


def snowflake(seconds_ago: float, *, skew: float = 0.0) -> int:
    """An id Discord made `seconds_ago` on a clock `skew` seconds ahead of ours."""
    created = time.time() - seconds_ago + skew
    return discord.utils.time_snowflake(datetime.fromtimestamp(created, tz=UTC))


def test_a_fresh_click_is_young_and_an_old_one_is_too_late() -> None:
    clock = ClickClock()
    assert clock.age(snowflake(0.0)) < 0.2
    assert clock.age(snowflake(4.0)) > TOO_LATE


@pytest.mark.parametrize("skew", [-5.0, 5.0, 30.0])
def test_a_skewed_host_clock_does_not_make_clicks_look_late(skew: float) -> None:
    clock = ClickClock()
    # The first clicks arrive at once: they set the host clock's offset.
    for _ in range(3):
        assert clock.age(snowflake(0.0, skew=skew)) < 0.2
    assert 2.5 < clock.age(snowflake(3.0, skew=skew)) < 3.5


def test_the_lock_budget_shrinks_with_age() -> None:
    assert ClickClock.budget(0.0) > ClickClock.budget(1.0) > 0
    assert ClickClock.budget(TOO_LATE) == 0


def message(*children: Any) -> Any:
    return SimpleNamespace(components=[SimpleNamespace(children=list(children))])


def test_issued_means_on_the_message_enabled_and_offered() -> None:
    button = SimpleNamespace(custom_id="uno:1:2:d", disabled=False)
    off = SimpleNamespace(custom_id="uno:1:2:kd", disabled=True)
    pick = SimpleNamespace(
        custom_id="uno:1:2:sel", disabled=False, options=[SimpleNamespace(value="p.R5")]
    )
    drawn = message(button, off, pick)
    assert issued(drawn, "uno:1:2:d", ())
    assert not issued(drawn, "uno:1:2:kd", ())  # disabled
    assert not issued(drawn, "uno:1:2:p.R5", ())  # not on the message
    assert not issued(drawn, "uno:1:2:d", ("p.R5",))  # a button sends no value
    assert issued(drawn, "uno:1:2:sel", ("p.R5",))
    assert not issued(drawn, "uno:1:2:sel", ("p.R6",))  # not offered
    assert not issued(drawn, "uno:1:2:sel", ("p.R5", "p.R5"))
    assert not issued(drawn, "uno:1:2:sel", ())
    assert not issued(None, "uno:1:2:d", ())


async def test_answers_leave_in_ticket_order_however_the_work_finishes() -> None:
    order = AnswerOrder()
    first, second = order.ticket(), order.ticket()
    said: list[int] = []

    async def answer(ticket: int, work: float) -> None:
        await asyncio.sleep(work)
        async with order.turn(ticket):
            said.append(ticket)

    await asyncio.gather(answer(second, 0.0), answer(first, 0.05))
    assert said == [first, second]


async def test_a_lost_answer_holds_the_next_one_only_briefly() -> None:
    order = AnswerOrder()
    order.ticket()  # answered never
    second = order.ticket()
    said = []
    async with asyncio.timeout(30), order.turn(second):  # a guard against hanging, no timing
        said.append(second)
    assert said == [second]


def _alive(kind: type) -> list[object]:
    return [o for o in gc.get_objects() if type(o) is kind]


def test_a_handled_click_is_freed_without_the_collector() -> None:
    """An Interaction and its cached `response` point at each other; `release` unlinks
    them, so a handled click is freed at once rather than left for a full collection."""
    gc.collect()
    gc.disable()
    try:
        kept = discord.Interaction.__new__(discord.Interaction)
        kept._original_response = None
        assert kept.response.is_done() is False  # the response, cached: the cycle is made
        released = discord.Interaction.__new__(discord.Interaction)
        released._original_response = None
        assert released.response.is_done() is False
        answers.release(released)
        del kept, released
        # the unreleased one lingers until a collection; the released one is gone
        assert len(_alive(discord.InteractionResponse)) == 1
    finally:
        gc.enable()
        gc.collect()
    assert _alive(discord.InteractionResponse) == []
