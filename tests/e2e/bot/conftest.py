"""Fixtures for the real bot (`python bot.py`) against the emulator."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from playground import Emulator
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene

BotFactory = Callable[..., BotProcess]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "uno.db"


@pytest.fixture
async def bots(emu: Emulator, scene: Scene, database: Path) -> AsyncIterator[BotFactory]:
    """Make bot processes on the test's database; every one is stopped at the end."""
    made: list[BotProcess] = []

    def make(**settings: int) -> BotProcess:
        bot = BotProcess(emu, database=database, guild_id=scene.guild.id, **settings)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        if bot.process is not None and bot.process.returncode is None:
            await bot.stop()


@pytest.fixture
async def uno_bot(bots: BotFactory) -> AsyncIterator[BotProcess]:
    bot = bots()
    await bot.start()
    yield bot
    code = await bot.stop()
    output = bot.output()
    assert "Traceback" not in output, output[-4000:]
    assert code == 0, output[-4000:]
