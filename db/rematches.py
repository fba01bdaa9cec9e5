"""Rematch offers of finished matches, so a restart keeps their buttons working."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from db.errors import wraps_storage_errors
from db.models import now_ms
from db.shards import owned

if TYPE_CHECKING:
    from db.access import Access
    from db.tx import Tx


class RematchRow(BaseModel):
    """A finished match's players and options, and who has accepted its rematch."""

    model_config = ConfigDict(frozen=True)

    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    variant: str
    options: dict[str, Any]
    seats: tuple[tuple[int, str], ...]
    accepted: frozenset[int] = frozenset()


class RematchRepo:
    """`db.rematches`: offer, accept, withdraw; at start-up, every offer still open."""

    def __init__(self, db: Access) -> None:
        self._db = db

    @wraps_storage_errors
    async def offer(self, row: RematchRow, *, keep: int) -> None:
        """Store the offer (once per match) and forget all but the newest `keep` (opened
        for some shards: of their servers' offers, so each process keeps its own)."""
        values = (
            row.table_id,
            row.guild_id,
            row.channel_id,
            row.host_id,
            row.variant,
            json.dumps(row.options),
            json.dumps([list(seat) for seat in row.seats]),
            json.dumps(sorted(row.accepted)),
            now_ms(),
        )
        mine = owned(self._db.shards, "guild_id")
        await self._db.run_in_transaction(partial(_offer, values, keep, mine))

    @wraps_storage_errors
    async def accept(self, table_id: int, accepted: Iterable[int]) -> None:
        """Who has pressed Rematch so far (the whole set)."""
        await self._db.execute_atomic(
            "UPDATE rematch_offers SET accepted_json = ? WHERE table_id = ?",
            (json.dumps(sorted(accepted)), table_id),
        )

    @wraps_storage_errors
    async def withdraw(self, table_id: int) -> None:
        """The rematch started (or can never start): the offer goes."""
        await self._db.execute_atomic("DELETE FROM rematch_offers WHERE table_id = ?", (table_id,))

    @wraps_storage_errors
    async def open_offers(self) -> list[RematchRow]:
        """Every stored offer, oldest first (at start-up); opened for some shards, only
        their servers' offers."""
        mine, params = owned(self._db.shards, "guild_id")
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                "SELECT table_id, guild_id, channel_id, host_id, variant, options_json,"
                f" seats_json, accepted_json FROM rematch_offers WHERE {mine} ORDER BY table_id",
                params,
            )
        return [
            RematchRow(
                table_id=tid,
                guild_id=gid,
                channel_id=cid,
                host_id=hid,
                variant=variant,
                options=json.loads(options),
                seats=tuple((int(uid), str(name)) for uid, name in json.loads(seats)),
                accepted=frozenset(int(u) for u in json.loads(accepted)),
            )
            for tid, gid, cid, hid, variant, options, seats, accepted in rows
        ]


async def _offer(
    values: tuple[object, ...], keep: int, mine: tuple[str, tuple[int, ...]], conn: Tx
) -> None:
    await conn.run(
        "INSERT INTO rematch_offers (table_id, guild_id, channel_id,"
        " host_id, variant, options_json, seats_json, accepted_json, offered_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO NOTHING",
        values,
    )
    condition, params = mine
    await conn.run(
        f"DELETE FROM rematch_offers WHERE {condition} AND table_id NOT IN"
        f" (SELECT table_id FROM rematch_offers WHERE {condition}"
        " ORDER BY table_id DESC LIMIT ?)",
        (*params, *params, keep),
    )
