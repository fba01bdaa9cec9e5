"""Table messages that still carry buttons, so a restart can retire the dead ones."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from db.errors import wraps_storage_errors
from db.shards import owned

if TYPE_CHECKING:
    from db.access import Access


class TableMessageRow(BaseModel):
    """A posted table message whose buttons were never taken off."""

    model_config = ConfigDict(frozen=True)

    message_id: int
    match_id: int
    channel_id: int


class TableMessageRepo:
    """`db.table_messages`: posted, retired; at start-up, the ones whose match is over
    and the ones a running table replaced."""

    def __init__(self, db: Access) -> None:
        self._db = db

    @wraps_storage_errors
    async def posted(self, *, match_id: int, channel_id: int, message_id: int) -> None:
        await self._db.execute_atomic(
            "INSERT INTO table_messages (message_id, match_id, channel_id) VALUES (?, ?, ?)"
            " ON CONFLICT (message_id) DO UPDATE"
            " SET match_id = excluded.match_id, channel_id = excluded.channel_id",
            (message_id, match_id, channel_id),
        )

    @wraps_storage_errors
    async def retired(self, message_id: int) -> None:
        await self._db.execute_atomic(
            "DELETE FROM table_messages WHERE message_id = ?", (message_id,)
        )

    @wraps_storage_errors
    async def of_ended_matches(self) -> list[TableMessageRow]:
        """Messages with buttons whose match is no longer running (or no longer exists);
        opened for some shards, only their servers' (one whose match is gone: shard 0's)."""
        mine, params = owned(self._db.shards, "COALESCE(m.guild_id, 0)")
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                "SELECT t.message_id, t.match_id, t.channel_id FROM table_messages AS t"
                " LEFT JOIN matches AS m USING (match_id)"
                f" WHERE (m.status IS NULL OR m.status <> 'running') AND {mine}"
                " ORDER BY t.message_id",
                params,
            )
        return [TableMessageRow(message_id=m, match_id=t, channel_id=c) for m, t, c in rows]

    @wraps_storage_errors
    async def of_replaced(self) -> list[TableMessageRow]:
        """Messages with buttons of running matches that were posted again since (a stop
        came between the new message and the old one's removal); opened for some shards,
        only their servers'."""
        mine, params = owned(self._db.shards, "m.guild_id")
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                "SELECT t.message_id, t.match_id, t.channel_id FROM table_messages AS t"
                " JOIN matches AS m ON m.match_id = t.match_id"
                " WHERE m.status = 'running'"
                f" AND (m.message_id IS NULL OR m.message_id <> t.message_id) AND {mine}"
                " ORDER BY t.message_id",
                params,
            )
        return [TableMessageRow(message_id=m, match_id=t, channel_id=c) for m, t, c in rows]
