"""The whole matches of test_matches.py again, with the fast paths off (FAST_PATHS=false):
discord.py's own gateway parsers and HTTP adapter carry every click and edit, and each
click is answered through its public `interaction.response`.

The whole suite runs this way too with FAST_PATHS=false in its environment (the bots
it starts inherit it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.bot.test_matches import (  # noqa: F401 (the module's fixture and tests)
    played,
    test_duo_match_played_to_the_end,
    test_pizza_match_played_to_the_end,
)
from tests.e2e.botproc import BotProcess


@pytest.fixture(scope="module")
def shared_bot_settings() -> dict[str, Any]:
    return {"extra_env": {"FAST_PATHS": "false"}}


def test_the_bot_ran_without_its_fast_paths(uno_bot: BotProcess) -> None:
    assert "Fast paths off" in uno_bot.output()
