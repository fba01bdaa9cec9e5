"""A pydantic model stored one row per field that differs from its default."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from db.errors import wraps_storage_errors
from db.models import now_ms

if TYPE_CHECKING:
    from db.access import Access
    from db.tx import Tx

M = TypeVar("M", bound=BaseModel)
log = logging.getLogger(__name__)


class FieldStore(Generic[M]):
    """Store a model's fields per key (a guild, a member) in `table` (key, name, value).

    Only the fields someone set have a row: a missing row means the model's
    default, so a key never written reads as the defaults (nothing is written for
    it), and a later change of a default reaches every key that never chose. An
    update writes only the fields it names, so two people changing different
    fields at once never undo each other's change.
    """

    def __init__(self, db: Access, model: type[M], *, table: str, key: str) -> None:
        self._db = db
        self._model = model
        self._table = table
        self._key = key
        self._select_sql = f"SELECT name, value FROM {table} WHERE {key} = ?"

    @wraps_storage_errors
    async def get(self, key: int) -> M:
        """Return the stored fields over the defaults."""
        async with self._db.reading() as conn:
            return await self._read(conn, key)

    @wraps_storage_errors
    async def update(self, key: int, **changes: Any) -> M:
        """Validate and store the named fields; return the whole model after the change.

        Raises ValueError (pydantic's ValidationError is one) for an unknown field
        or a value the model refuses; then nothing is written.
        """
        unknown = sorted(set(changes) - set(self._model.model_fields))
        if unknown:
            raise ValueError(f"{self._model.__name__} has no field {', '.join(unknown)}")
        # The fields are independent: each is checked with the others at their defaults.
        checked = self._model.model_validate(changes)
        rows = [
            (key, name, json.dumps(getattr(checked, name)), now_ms()) for name in sorted(changes)
        ]
        # On SQLite, one trip to its thread: the write lock is never held across awaits.
        stored = await self._db.run_in_transaction(partial(self._upsert, key, rows))
        return self._from_rows(key, stored)

    @wraps_storage_errors
    async def reset(self, key: int, *names: str) -> M:
        """Put the named fields (all, if none is named) back to their defaults."""
        unknown = sorted(set(names) - set(self._model.model_fields))
        if unknown:
            raise ValueError(f"{self._model.__name__} has no field {', '.join(unknown)}")
        stored = await self._db.run_in_transaction(partial(self._erase, key, names))
        return self._from_rows(key, stored)

    async def _upsert(self, key: int, rows: list[tuple[int, str, str, int]], conn: Tx) -> list[Any]:
        """Write the rows and read the key's fields back, in one transaction."""
        await conn.run_many(
            f"INSERT INTO {self._table} ({self._key}, name, value, updated_at)"
            f" VALUES (?, ?, ?, ?) ON CONFLICT ({self._key}, name) DO UPDATE"
            " SET value = excluded.value, updated_at = excluded.updated_at",
            rows,
        )
        return await conn.fetchall(self._select_sql, (key,))

    async def _erase(self, key: int, names: tuple[str, ...], conn: Tx) -> list[Any]:
        """Delete the key's rows (only the named fields, if any) and read what is left."""
        fields = f" AND name IN ({', '.join('?' * len(names))})" if names else ""
        await conn.run(f"DELETE FROM {self._table} WHERE {self._key} = ?{fields}", (key, *names))
        return await conn.fetchall(self._select_sql, (key,))

    async def _read(self, conn: Tx, key: int) -> M:
        return self._from_rows(key, await conn.fetchall(self._select_sql, (key,)))

    def _from_rows(self, key: int, rows: Iterable[Any]) -> M:
        values: dict[str, object] = {}
        for name, text in rows:
            # A field this version does not know (a newer bot wrote it) or a value it
            # no longer accepts (a range narrowed) reads as the default.
            if name not in self._model.model_fields:
                continue
            value = json.loads(text)
            try:
                self._model.model_validate({name: value})
            except ValidationError:
                log.warning(
                    "%s %s=%s: stored %s=%r refused, default used",
                    *(self._table, self._key, key, name, value),
                )
                continue
            values[name] = value
        return self._model.model_validate(values)
