"""The /uno commands' choices that need no Discord: which table a member means."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from cogs.uno.boards.scoreboards import board_page
from cogs.uno.cog import UnoCog
from cogs.uno.config import UnoSettings
from cogs.uno.lobby.lobby import Lobby
from cogs.uno.refusal import UserFacingError
from cogs.uno.table.options import TableOptions
from db.database import Database
from tests.db.conftest import GUILD as BOARD_GUILD
from tests.db.conftest import Clock, win

GUILD, CHANNEL, OTHER = 100, 200, 300
ALICE, BOB, STRANGER = 11, 22, 33


@pytest.fixture
async def cog(tmp_path: Path) -> AsyncIterator[UnoCog]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    async with Database.open(tmp_path / "uno.db") as db:
        yield UnoCog(bot, db, UnoSettings())
    await bot.close()


async def test_hand_in_an_open_lobby_says_the_game_has_not_started(cog: UnoCog) -> None:
    await cog.parts.lobbies.open(
        Lobby(
            lobby_id=1,
            channel_id=CHANNEL,
            guild_id=GUILD,
            host_id=ALICE,
            variant="pizza",
            play=TableOptions(target=250, turn_seconds=90),
            seats=[(ALICE, "alice"), (BOB, "bob")],
        )
    )
    for user_id in (ALICE, BOB):
        for channel_id in (CHANNEL, OTHER):
            with pytest.raises(UserFacingError, match=rf"<#{CHANNEL}> hasn't started yet"):
                cog.parts.whereabouts.table_for(user_id=user_id, channel_id=channel_id)
    with pytest.raises(UserFacingError, match="not playing at any table"):
        cog.parts.whereabouts.table_for(user_id=STRANGER, channel_id=CHANNEL)


async def test_a_page_past_a_shrunken_board_shows_its_last_page(cog: UnoCog) -> None:
    clock = Clock()
    for winner in range(1, 12):  # 11 members with a win each, one loser: 2 pages of 10
        await win(cog.db, clock, winner, 99)
    second = await board_page(cog.db, guild_id=BOARD_GUILD, variant="duo", page=2)
    assert (second.page, second.pages, len(second.entries)) == (2, 2, 2)
    # A Next button drawn when the board had more pages asks for one past the end.
    clamped = await board_page(cog.db, guild_id=BOARD_GUILD, variant="duo", page=3)
    assert clamped == second
    assert await board_page(cog.db, guild_id=BOARD_GUILD, variant="duo", page=1000) == second


async def test_a_page_of_an_empty_board_is_its_only_page(cog: UnoCog) -> None:
    empty = await board_page(cog.db, guild_id=BOARD_GUILD, variant="pizza", page=7)
    assert (empty.page, empty.pages, empty.entries) == (1, 1, [])


async def test_a_command_answered_too_late_is_logged_as_late_not_as_a_failure(
    cog: UnoCog, caplog: pytest.LogCaptureFixture
) -> None:
    # Discord refuses an answer after its 3 s with 10062; on an overloaded machine that
    # is expected, like a late click: a warning, no traceback, and no second answer
    # (this interaction has no response to send one through: trying would raise).
    late = discord.NotFound(
        cast(Any, SimpleNamespace(status=404, reason="Not Found")),
        {"code": 10062, "message": "Unknown interaction"},
    )
    interaction = cast(
        Any, SimpleNamespace(user=SimpleNamespace(id=ALICE), command=None, channel_id=CHANNEL)
    )
    with caplog.at_level(logging.INFO):
        await cog.cog_app_command_error(interaction, app_commands.CommandInvokeError(cog.duo, late))
    levels = [
        record.levelno for record in caplog.records if record.name == "cogs.uno.command_errors"
    ]
    assert levels == [logging.WARNING]
    assert "answered too late" in caplog.text
