"""Fixtures for the real bot (`python bot.py`) against the emulator."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

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


# A rule id ("(D3)", "D14:", "X3") or an internal code a player would read. Rule ids
# stay in code, docs and logs; players read words.
RULE_ID = re.compile(r"\b[DPCHX]\d{1,2}\b|Traceback|\bNone\b")


def player_texts(payload: dict[str, Any]) -> Iterator[str]:
    """Every string of a message body that a player reads (not custom_ids or values)."""
    yield payload.get("content") or ""
    for embed in payload.get("embeds") or []:
        yield embed.get("title") or ""
        yield embed.get("description") or ""
        yield (embed.get("footer") or {}).get("text") or ""
        yield (embed.get("author") or {}).get("name") or ""
        for field in embed.get("fields") or []:
            yield field.get("name") or ""
            yield field.get("value") or ""
    for row in payload.get("components") or []:
        for item in row.get("components") or []:
            yield item.get("label") or ""
            yield item.get("placeholder") or ""
            for option in item.get("options") or []:
                yield option.get("label") or ""
                yield option.get("description") or ""


@pytest.fixture(autouse=True)
def plain_words(emu: Emulator) -> Iterator[list[str]]:
    """Every message and edit the bot sent in a test is scanned for rule ids and codes."""
    seen: list[str] = []

    def read(payload: dict[str, Any]) -> None:
        seen.extend(t for t in player_texts(payload) if RULE_ID.search(t))

    emu.world.readers.append(read)
    yield seen
    emu.world.readers.remove(read)
    assert seen == [], f"a player read a rule id or code: {seen[:5]}"
