"""How the table message follows the game: public moments promptly, ordinary moves
coalesced, never two edits closer than the interval; waiting players' panels follow it."""

from __future__ import annotations

import asyncio
import time
from typing import cast

import discord

from cogs.uno.table.message import (
    TABLE_EDIT_DELAY,
    TABLE_EDIT_INTERVAL,
    TABLE_IDLE,
    TABLE_LAG_MAX,
    TABLE_QUIET,
    TableMessage,
    _due,
)
from cogs.uno.table.open_panel import Panel
from cogs.uno.table.panels import HandPanels
from cogs.uno.table.running import LiveTable
from db.database import Database
from engine.match import PizzaOptions, new_match
from tests.cogs.table.test_tables import ALICE, BOB, CAROL, pizza_table


def test_a_public_moment_is_shown_after_its_burst_but_never_closer_than_the_interval() -> None:
    assert _due("prompt", now=100.0, since=100.0, last=0.0) == 100.0 + TABLE_EDIT_DELAY
    assert _due("prompt", now=100.0, since=100.0, last=99.5) == 99.5 + TABLE_EDIT_INTERVAL
    assert _due("now", now=100.0, since=100.0, last=99.5) == 100.0


def test_ordinary_moves_wait_for_a_pause_but_no_longer_than_the_lag_bound() -> None:
    # One move: shown once play has paused TABLE_QUIET.
    assert _due("calm", now=100.0, since=100.0, last=0.0) == 100.0 + TABLE_QUIET
    # Moves every second: each puts the edit later, up to TABLE_LAG_MAX after the first.
    dues = [_due("calm", now=100.0 + k, since=100.0, last=0.0) for k in range(12)]
    assert dues == sorted(dues)
    assert max(dues) == 100.0 + TABLE_LAG_MAX
    assert _due("calm", now=100.0, since=100.0, last=99.0) >= 99.0 + TABLE_EDIT_INTERVAL


def _message() -> TableMessage:
    client = discord.Client(intents=discord.Intents.none())
    return TableMessage(client, HandPanels(client), cast(Database, None))  # never edits here


async def test_requests_coalesce_and_a_public_moment_is_not_put_off_by_later_moves() -> None:
    message, table = _message(), pizza_table()
    loop = asyncio.get_running_loop()
    try:
        table.shown.last_edit = loop.time() - 1.0  # just edited: an ordinary move is coalesced
        message.request(table, pace="calm")
        first = table.shown.edit_due
        assert table.shown.behind_since is not None
        assert first > loop.time() + TABLE_QUIET - 0.5
        message.request(table, pace="prompt")  # an UNO call: sooner
        prompt = table.shown.edit_due
        assert prompt < first
        message.request(table, pace="calm")  # a move after it does not put it off
        assert table.shown.edit_due == prompt
        assert table.shown.edit_timer is not None
        assert table.shown.edit_timer.when() == prompt
    finally:
        message.stop_edits(table)
    assert table.shown.edit_timer is None


async def test_a_move_after_an_idle_spell_is_shown_promptly() -> None:
    message, table = _message(), pizza_table()
    loop = asyncio.get_running_loop()
    try:
        table.shown.last_edit = loop.time() - TABLE_IDLE - 1.0
        message.request(table, pace="calm")
        assert table.shown.edit_due <= loop.time() + TABLE_EDIT_DELAY
    finally:
        message.stop_edits(table)


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
