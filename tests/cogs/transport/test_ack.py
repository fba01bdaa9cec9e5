"""The click watchdog (cogs/uno/transport/ack.py): one timer for every click in flight; a click
answered in time is forgotten, one that is not is acknowledged at its 2 s."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord

from cogs.uno.transport import ack as ack_module
from cogs.uno.transport.ack import ACK_AT, Ack


class Recorded(Ack):
    """An Ack whose acknowledgement is only written down (no Discord here)."""

    fired: list[Recorded]

    def fire(self) -> None:
        self.fired.append(self)


def _ack(fired: list[Recorded]) -> Recorded:
    made = Recorded(cast(discord.Interaction[Any], None), new_message=False)
    made.fired = fired
    return made


async def test_a_click_not_answered_in_time_is_acknowledged_and_an_answered_one_is_not() -> None:
    fired: list[Recorded] = []
    late, answered, young = _ack(fired), _ack(fired), _ack(fired)
    late.arm(ACK_AT - 0.1)  # made 1.9 s ago: due in 0.1 s
    answered.arm(ACK_AT - 0.1)
    young.arm(0.0)  # due in 2 s
    answered.cancel()
    await asyncio.sleep(0.6)
    assert fired == [late]
    assert list(ack_module._WATCH.pending) == [young]
    young.cancel()
    assert not ack_module._WATCH.pending


async def test_answered_clicks_leave_nothing_behind() -> None:
    fired: list[Recorded] = []
    for _ in range(100):
        made = _ack(fired)
        made.arm(0.0)
        made.cancel()
    assert not ack_module._WATCH.pending
    await asyncio.sleep(0)
    assert fired == []


async def test_a_click_that_arrives_old_is_acknowledged_before_younger_ones_armed_first() -> None:
    fired: list[Recorded] = []
    young, old = _ack(fired), _ack(fired)
    young.arm(0.0)  # made just now: due in 2 s
    old.arm(ACK_AT - 0.1)  # waited in a backlog, made 1.9 s ago: due in 0.1 s
    await asyncio.sleep(0.6)
    assert fired == [old]
    assert list(ack_module._WATCH.pending) == [young]
    young.cancel()
