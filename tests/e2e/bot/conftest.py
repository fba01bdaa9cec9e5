"""Fixtures for the real bot (`python bot.py`) against the emulator."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.emulator import Emulator


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "uno.db"


@pytest.fixture
async def uno_bot(emu: Emulator, scene: Scene, database: Path) -> AsyncIterator[BotProcess]:
    bot = BotProcess(emu, database=database, guild_id=scene.guild.id)
    await bot.start()
    yield bot
    code = await bot.stop()
    output = bot.output()
    assert "Traceback" not in output, output[-4000:]
    assert code == 0, output[-4000:]
