"""discord.py's private names the bot relies on are all still there (one module uses
them: cogs/uno/transport/internals.py); an upgrade that drops one fails here, by name."""

from __future__ import annotations

import discord
import pytest
from discord.webhook import async_ as webhook_async

from cogs.uno.transport import internals


def test_discord_py_still_has_every_private_name_the_bot_uses() -> None:
    gone = internals.missing()
    assert gone == [], (
        f"discord.py {discord.__version__} no longer has {', '.join(gone)}: adapt "
        "cogs/uno/transport/internals.py, or run with FAST_PATHS=false meanwhile"
    )


def test_a_name_gone_from_discord_py_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(webhook_async, "async_context")
    slots = tuple(s for s in discord.Interaction.__slots__ if s != "_session")
    monkeypatch.setattr(discord.Interaction, "__slots__", slots)
    assert internals.missing() == ["Interaction._session", "webhook.async_.async_context"]
