"""How the table message follows the game: every change of turn within 1.5 s under half
the request budget, ordinary edits spaced out above it, never two edits closer than the
interval, each drawn once it has its slot; waiting players' panels follow it."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import cast

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.uno.table.message import (
    TABLE_EDIT_INTERVAL,
    TABLE_EDIT_INTERVAL_FULL,
    TABLE_GATHER,
    TABLE_RECHECK,
    TableMessage,
    _due,
    edit_interval,
)
from cogs.uno.table.open_panel import Panel
from cogs.uno.table.panels import HandPanels
from cogs.uno.table.running import LiveTable
from cogs.uno.transport.budget import budget
from cogs.uno.transport.priority import Priority
from db.database import Database
from engine.match import PizzaOptions, new_match
from tests.cogs.table.test_tables import ALICE, BOB, CAROL, pizza_table

SHOWN_WITHIN = 1.5  # seconds from a change of turn to the table showing it, under half load


def shown_at(moves: list[float], *, load: float = 0.0) -> list[float]:
    """When the scheduler's edits show each move: an edit goes at its due time and shows
    every move made before it."""
    last, due, edits = -1e9, None, []
    for move in sorted(moves):
        while due is not None and due <= move:
            edits.append(due)
            last, due = due, None
        asked = _due("calm", now=move, last=last, load=load)
        due = asked if due is None else min(due, asked)
    if due is not None:
        edits.append(due)
    return [next(edit for edit in edits if edit >= move) for move in moves]


@settings(max_examples=200)
@given(st.lists(st.floats(min_value=0.0, max_value=60.0, allow_nan=False), min_size=1))
def test_under_half_the_budget_a_change_of_turn_is_shown_within_1_5_s(moves: list[float]) -> None:
    for load in (0.0, 0.3, 0.5):
        shown = shown_at(moves, load=load)
        assert all(when - move <= SHOWN_WITHIN for move, when in zip(moves, shown, strict=True))
        edits = sorted(set(shown))
        # ...and a channel's 5 edits per 5 s are never exceeded by one table's edits.
        assert all(b - a >= TABLE_EDIT_INTERVAL - 1e-9 for a, b in itertools.pairwise(edits))


def test_above_half_the_budget_ordinary_edits_wait_longer_but_moments_do_not() -> None:
    assert edit_interval(0.5) == TABLE_EDIT_INTERVAL
    assert TABLE_EDIT_INTERVAL < edit_interval(0.75) < TABLE_EDIT_INTERVAL_FULL
    assert edit_interval(1.0) == edit_interval(3.0) == TABLE_EDIT_INTERVAL_FULL
    assert _due("calm", now=100.0, last=99.5, load=1.0) == 99.5 + TABLE_EDIT_INTERVAL_FULL
    assert _due("prompt", now=100.0, last=99.5, load=1.0) == 99.5 + TABLE_EDIT_INTERVAL
    assert _due("prompt", now=100.0, last=0.0, load=1.0) == 100.0 + TABLE_GATHER
    assert _due("now", now=100.0, last=99.5) == 100.0


def _message() -> TableMessage:
    client = discord.Client(intents=discord.Intents.none())
    return TableMessage(client, HandPanels(client), cast(Database, None))  # never edits here


async def test_the_scheduler_puts_a_move_on_the_loops_clock_and_later_moves_never_put_it_off() -> (
    None
):
    message, table = _message(), pizza_table()
    loop = asyncio.get_running_loop()
    try:
        table.shown.last_edit = loop.time() - 1.0  # just edited
        message.request(table, pace="calm")
        first = table.shown.edit_due
        assert table.shown.behind_since is not None
        assert first <= loop.time() + SHOWN_WITHIN
        assert first >= table.shown.last_edit + TABLE_EDIT_INTERVAL
        message.request(table, pace="calm")  # another move: it does not put the edit off
        assert table.shown.edit_due == first
        assert table.shown.edit_timer is not None
        assert table.shown.edit_timer.when() == first
    finally:
        message.stop_edits(table)
    assert table.shown.edit_timer is None


async def test_an_edit_put_off_by_a_full_budget_goes_sooner_once_it_eases(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    message, table = _message(), pizza_table()
    loop = asyncio.get_running_loop()
    shared = budget()
    try:
        table.shown.last_edit = loop.time() - 0.1
        monkeypatch.setattr(shared, "load", lambda: 1.0)  # a burst fills the budget
        message.request(table, pace="calm")
        assert table.shown.edit_due == table.shown.last_edit + TABLE_EDIT_INTERVAL_FULL
        timer = table.shown.edit_timer
        assert timer is not None
        assert timer.when() == pytest.approx(loop.time() + TABLE_RECHECK, abs=0.05)
        monkeypatch.setattr(shared, "load", lambda: 0.1)  # the burst is over
        timer.cancel()
        message._edit_due(table)  # the timer's look again
        assert table.shown.edit_due == table.shown.last_edit + TABLE_EDIT_INTERVAL
        assert table.shown.edit_timer is not None
        assert table.shown.edit_timer.when() == table.shown.edit_due
    finally:
        message.stop_edits(table)


async def test_an_edit_is_drawn_once_it_has_its_slot_and_a_moment_raises_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    message, table = _message(), pizza_table()
    drawn: list[int] = []
    moves = [0]

    async def render_now(table: LiveTable, *, ended: str | None) -> None:
        drawn.append(moves[0])  # what the table shows: the moves made so far

    monkeypatch.setattr(message, "render_now", render_now)
    shared = budget()
    for _ in range(int(shared.rate)):  # the second's budget is used up
        shared.leaving(await shared.take())
    try:
        message.request(table, pace="now")
        for _ in range(100):  # the timer fires at once, its task asks for the slot
            if table.shown.waiting is not None:
                break
            await asyncio.sleep(0)
        assert table.shown.waiting is not None
        moves[0] += 1
        message.request(table, pace="calm")  # made while the edit waits: it rides along
        message.request(table, pace="prompt")  # a moment: the edit goes ahead of edits
        assert table.shown.waiting.priority == Priority.MOMENT
        flusher = table.shown.flusher
        assert flusher is not None
        await asyncio.wait_for(asyncio.shield(flusher), timeout=5)
    finally:
        message.stop_edits(table)
    assert drawn == [1]
    assert table.shown.behind_since is None


async def test_a_waiting_player_with_nothing_to_decide_is_left_for_the_table_edit() -> None:
    """Refreshes go to players who can act; a player whose options are still none is
    left behind (their panel follows the next table edit), and nothing is sent."""
    match = new_match(
        "pizza", players=[str(ALICE), str(BOB), str(CAROL)], seed=7, options=PizzaOptions()
    )
    table: LiveTable = pizza_table()
    table.match = match
    panels = HandPanels(discord.Client(intents=discord.Intents.none()))
    (to_act,) = match.waiting_for()
    idle = next(p for p in match.players if p != to_act and not match.legal_actions(p))
    # The idle player's panel was drawn for another hand: only their cards changed.
    signature = panels.signature(table, idle)
    table.panels.by_player[idle] = Panel(
        token="t", opened=time.monotonic(), signature=((), *signature[1:])
    )
    await panels.refresh_others(table)  # would raise on the client: nothing is sent
    assert table.panels.behind
    assert table.panels.by_player[idle].signature != signature
