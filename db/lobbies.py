"""Open lobbies' ids and messages, so a restart can retire what it no longer holds."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from db.errors import wraps_storage_errors
from db.models import now_ms
from db.shards import owned

if TYPE_CHECKING:
    from db.access import Access
    from db.tx import Tx


class LobbyRow(BaseModel):
    """A lobby the bot opened and has not closed yet."""

    model_config = ConfigDict(frozen=True)

    lobby_id: int
    guild_id: int
    channel_id: int
    message_id: int | None


class LobbyRepo:
    """`db.lobbies`: open, place, close; at start-up, the ones a crash or restart left."""

    def __init__(self, db: Access) -> None:
        self._db = db

    @wraps_storage_errors
    async def open(self, *, guild_id: int, channel_id: int) -> int:
        """A new lobby id, never one used before in this file."""
        return await self._db.run_in_transaction(partial(_open, guild_id, channel_id, now_ms()))

    @wraps_storage_errors
    async def set_message(self, lobby_id: int, message_id: int) -> None:
        await self._db.execute_atomic(
            "UPDATE lobbies SET message_id = ? WHERE lobby_id = ?", (message_id, lobby_id)
        )

    @wraps_storage_errors
    async def close(self, lobby_id: int) -> None:
        await self._db.execute_atomic("DELETE FROM lobbies WHERE lobby_id = ?", (lobby_id,))

    @wraps_storage_errors
    async def left_open(self) -> list[LobbyRow]:
        """Every lobby row (at start-up: lobbies the last run never closed); opened for
        some shards, only their servers' lobbies."""
        mine, params = owned(self._db.shards, "guild_id")
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                "SELECT lobby_id, guild_id, channel_id, message_id FROM lobbies"
                f" WHERE {mine} ORDER BY lobby_id",
                params,
            )
        return [
            LobbyRow(lobby_id=lid, guild_id=gid, channel_id=cid, message_id=mid)
            for lid, gid, cid, mid in rows
        ]


async def _open(guild_id: int, channel_id: int, opened_at: int, conn: Tx) -> int:
    row = await conn.fetchone(
        "INSERT INTO lobbies (guild_id, channel_id, opened_at) VALUES (?, ?, ?) RETURNING lobby_id",
        (guild_id, channel_id, opened_at),
    )
    assert row is not None
    return int(row[0])
