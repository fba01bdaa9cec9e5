"""Settings, read once from the environment and from `.env` (see .env.example)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
SHARD_RANGE = re.compile(r"(\d+)(?:-(\d+))?")
MAX_SHARDS = 65536  # far beyond any bot Discord serves; bounds what a typo can ask for


def shard_ids_of(text: str) -> tuple[int, ...]:
    """`0-3`, `0,2` or `0-1,4` as sorted shard ids; ValueError in plain words."""
    ids: set[int] = set()
    for piece in text.split(","):
        found = SHARD_RANGE.fullmatch(piece.strip())
        if found is None:
            raise ValueError(f"{piece.strip()!r} is not a shard id or a range like 0-3")
        first, last = int(found[1]), int(found[2] or found[1])
        if last >= MAX_SHARDS:
            raise ValueError(f"shard ids stop at {MAX_SHARDS - 1}")
        if last < first:
            raise ValueError(f"the range {first}-{last} goes backwards")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


class Settings(BaseSettings):
    """Everything an admin may configure. Field names map to upper-case variables."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        env_ignore_empty=True,  # an empty line copied from .env.example means "unset"
    )

    discord_token: SecretStr | None = Field(
        default=None,
        description="The bot user's token, from the Discord developer portal (required to run).",
    )
    database_path: Path = Field(
        default=Path("data/uno.db"),
        description="SQLite file for scoreboards and running tables; its folder is created.",
    )
    database_url: SecretStr | None = Field(
        default=None,
        description="A postgresql:// URL to keep everything in PostgreSQL instead of the "
        "SQLite file (copy a running bot's file over with `python -m db.copy`); empty: SQLite.",
    )
    db_whole_on_thread: bool = Field(
        default=True,
        description="SQLite: run each write transaction whole on the connection's thread "
        "(aiosqlite's private names, db/aiosqlite_thread.py); false: plain aiosqlite, "
        "one trip per statement, should an aiosqlite upgrade break it.",
    )
    art_cache_dir: Path | None = Field(
        default=None,
        description=(
            "Folder keeping the drawn card pictures between starts; empty: "
            "an art-cache folder beside the SQLite file's place (DATABASE_PATH)."
        ),
    )
    dev_guild_id: int | None = Field(
        default=None,
        description="A server id whose commands are synced instantly (for development).",
    )
    log_level: LogLevel = Field(default="INFO", description="Logging level.")
    turn_seconds: int = Field(
        default=90, ge=5, le=3600, description="Default time for each decision, in seconds."
    )
    test_turn_seconds: int | None = Field(
        default=None,
        ge=1,
        le=4,
        description="For the test suite only: a turn timer under 5 s, replacing TURN_SECONDS.",
    )
    computer_delay_ms: int = Field(
        default=1500,
        ge=0,
        le=10000,
        description="How long a computer player waits before it moves, on average, in "
        "milliseconds (so people can follow; each wait varies a little).",
    )
    table_seed: int | None = Field(
        default=None,
        description="Seed the shuffles of new tables in order (to replay games); empty: random.",
    )
    replay_days: int = Field(
        default=0,
        ge=0,
        le=36500,
        description="Days a finished match's moves are kept for /uno replay; 0 keeps them "
        "forever. The match itself stays on the boards and in /uno history.",
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        le=MAX_SHARDS,
        description="How many shards the whole bot runs, the same in every process; "
        "empty: Discord's recommendation, all in this one process.",
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None,
        description="The shards this process runs (`0-3`, `0,2`), out of SHARD_COUNT; "
        "empty: all of them.",
    )
    request_budget: float = Field(
        default=40.0,
        gt=0,
        description="Bot-token requests a second for the whole application, shared by the "
        "processes by their part of the shards (Discord allows 50); raise it only if "
        "Discord granted your bot more.",
    )
    discord_api_base: str | None = Field(
        default=None,
        description="Another Discord API base URL (an HTTP proxy, or the test emulator).",
    )
    fast_paths: bool = Field(
        default=True,
        description="Kept-alive connections for click answers and table edits, and gateway "
        "events the bot never reads skipped unparsed; false: discord.py's own ways only.",
    )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        try:
            return shard_ids_of(value)
        except ValueError as error:
            raise PydanticCustomError("shard_ids", str(error)) from None

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids_within_count(
        cls, ids: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        if ids is None or "shard_count" not in info.data:  # unset, or the count is wrong
            return ids
        count = info.data["shard_count"]
        if count is None:
            raise PydanticCustomError(
                "shard_ids",
                "set SHARD_COUNT too, the number of shards of the whole bot (the same in "
                "every process)",
            )
        if not ids:
            raise PydanticCustomError("shard_ids", "names no shard")
        beyond = [shard for shard in ids if shard >= count]
        if beyond:
            raise PydanticCustomError(
                "shard_ids",
                "names shard {beyond}, but with SHARD_COUNT={count} the shards are 0 to {last}",
                {"beyond": beyond[0], "count": count, "last": count - 1},
            )
        return ids

    @property
    def runs_part_of_the_shards(self) -> bool:
        """Whether this process runs only some of the bot's shards (others run the rest)."""
        return (
            self.shard_count is not None
            and self.shard_ids is not None
            and len(self.shard_ids) < self.shard_count
        )

    @model_validator(mode="after")
    def _short_turns_for_tests(self) -> Settings:
        # A separate, loudly named variable: an admin who sets TURN_SECONDS=2 by mistake is
        # refused, while the end-to-end tests can still watch a timer run out in seconds.
        if self.test_turn_seconds is not None:
            self.turn_seconds = self.test_turn_seconds
        return self
