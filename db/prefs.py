"""Members' own preferences (`/uno pings off`), the same in every server."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from db.errors import wraps_storage_errors
from db.fields import FieldStore
from db.models import MemberPrefs

if TYPE_CHECKING:
    from db.access import Access


class PrefsRepo(FieldStore[MemberPrefs]):
    """Each member's `MemberPrefs`, with no guild: a preference holds everywhere.

    `get(user_id)`, `update(user_id, pings=False)`, `reset(user_id, *names)`.
    """

    def __init__(self, db: Access) -> None:
        super().__init__(db, MemberPrefs, table="member_prefs", key="user_id")

    @wraps_storage_errors
    async def without_pings(self, user_ids: Iterable[int]) -> set[int]:
        """Return those of `user_ids` who turned pings off (a turn ping mentions none of them)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return set()
        marks = ", ".join("?" * len(wanted))
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                "SELECT user_id FROM member_prefs WHERE name = 'pings' AND value = 'false'"
                f" AND user_id IN ({marks})",
                wanted,
            )
        return {int(row[0]) for row in rows}
