"""Server settings and members' preferences: defaults, validation, per-field updates."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest
from pydantic import ValidationError

from db.database import Database
from db.models import GuildSettings, MemberPrefs

from .conftest import GUILD

OTHER_GUILD = GUILD + 1


def rows(path: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()


def test_defaults_are_the_rules_defaults() -> None:
    settings = GuildSettings()
    assert settings.turn_seconds == 90
    assert (settings.target("duo"), settings.target("pizza"), settings.target("classic")) == (
        200,
        250,
        500,
    )
    assert settings.duo_deck == 112
    assert settings.duo_classic_challenge is False
    assert settings.house_rules == []
    assert (settings.thread_tables, settings.turn_ping_mentions) == (False, True)
    assert MemberPrefs().pings is True


async def test_an_unknown_guild_reads_the_defaults_and_nothing_is_written(
    db: Database, db_path: Path
) -> None:
    assert await db.settings.get(GUILD) == GuildSettings()
    assert await db.prefs.get(42) == MemberPrefs()
    assert rows(db_path, "guild_settings") == []
    assert rows(db_path, "member_prefs") == []


@pytest.mark.parametrize(
    "changes",
    [
        {"turn_seconds": 4},
        {"turn_seconds": 3601},
        {"turn_seconds": "90"},  # strict: the panel's text must be parsed by the caller
        {"target_duo": 49},
        {"target_pizza": 1001},
        {"target_classic": 0},
        {"duo_deck": 100},
        {"stacking": 1},  # strict: 1 is not True
        {"turn_ping_mentions": None},
    ],
)
async def test_invalid_values_are_refused_and_nothing_changes(
    db: Database, db_path: Path, changes: dict[str, object]
) -> None:
    await db.settings.update(GUILD, turn_seconds=30)
    before = rows(db_path, "guild_settings")
    with pytest.raises(ValidationError):
        await db.settings.update(GUILD, **changes)
    assert rows(db_path, "guild_settings") == before
    assert (await db.settings.get(GUILD)).turn_seconds == 30


async def test_an_unknown_field_is_refused(db: Database, db_path: Path) -> None:
    with pytest.raises(ValueError, match="no field volume"):
        await db.settings.update(GUILD, volume=11, stacking=True)
    with pytest.raises(ValueError, match="no field colour"):
        await db.prefs.update(7, colour="red")
    with pytest.raises(ValueError, match="no field volume"):
        await db.settings.reset(GUILD, "volume")
    assert rows(db_path, "guild_settings") == []


async def test_limits_of_each_range_are_accepted(db: Database) -> None:
    low = await db.settings.update(GUILD, turn_seconds=5, target_duo=50, duo_deck=108)
    assert (low.turn_seconds, low.target_duo, low.duo_deck) == (5, 50, 108)
    high = await db.settings.update(GUILD, turn_seconds=3600, target_classic=1000)
    assert (high.turn_seconds, high.target("classic"), high.target("duo")) == (3600, 1000, 50)


async def test_update_writes_only_the_fields_it_names(db: Database, db_path: Path) -> None:
    settings = await db.settings.update(GUILD, stacking=True, jump_in=True)
    assert settings.house_rules == ["stacking", "jump_in"]
    assert settings.turn_seconds == 90
    assert [(name, value) for _, name, value, _ in rows(db_path, "guild_settings")] == [
        ("jump_in", "true"),
        ("stacking", "true"),
    ]
    # Another server is untouched.
    assert await db.settings.get(OTHER_GUILD) == GuildSettings()


async def test_two_admins_changing_different_fields_keep_both(db: Database) -> None:
    """Both read the panel before either saved: neither save may undo the other."""
    first, second = await asyncio.gather(
        db.settings.update(GUILD, turn_seconds=30),
        db.settings.update(GUILD, seven_o=True),
    )
    assert first.turn_seconds == 30
    assert second.seven_o is True
    both = await db.settings.get(GUILD)
    assert (both.turn_seconds, both.seven_o) == (30, True)


async def test_settings_survive_a_restart(db_path: Path) -> None:
    async with Database.open(db_path) as db:
        await db.settings.update(GUILD, thread_tables=True, turn_ping_mentions=False)
        await db.prefs.update(7, pings=False)
    async with Database.open(db_path) as db:
        settings = await db.settings.get(GUILD)
        assert (settings.thread_tables, settings.turn_ping_mentions) == (True, False)
        assert (await db.prefs.get(7)).pings is False


async def test_reset_returns_fields_to_their_defaults(db: Database) -> None:
    await db.settings.update(GUILD, turn_seconds=30, draw_to_match=True, target_pizza=300)
    settings = await db.settings.reset(GUILD, "turn_seconds")
    assert (settings.turn_seconds, settings.draw_to_match, settings.target_pizza) == (90, True, 300)
    assert await db.settings.reset(GUILD) == GuildSettings()


async def test_a_stored_value_no_longer_valid_reads_as_the_default(
    db: Database, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A range narrowed by a later version, or a setting it dropped, must not stop tables."""
    await db.settings.update(GUILD, turn_seconds=30, stacking=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE guild_settings SET value = '99999' WHERE name = 'turn_seconds'")
        conn.execute("INSERT INTO guild_settings VALUES (?, 'retired_option', 'true', 0)", (GUILD,))
    with caplog.at_level(logging.WARNING, logger="db.fields"):
        settings = await db.settings.get(GUILD)
    assert (settings.turn_seconds, settings.stacking) == (90, True)
    assert "turn_seconds=99999 refused" in caplog.text


async def test_pings_off_holds_in_every_guild(db: Database) -> None:
    assert await db.prefs.without_pings([7, 8, 9]) == set()
    assert (await db.prefs.update(7, pings=False)).pings is False
    await db.prefs.update(8, pings=False)
    await db.prefs.update(8, pings=True)  # and back on
    assert await db.prefs.without_pings([7, 8, 9]) == {7}
    assert await db.prefs.without_pings([]) == set()
