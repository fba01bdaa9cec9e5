"""Server settings: one row per setting a server changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from db.fields import FieldStore
from db.models import GuildSettings

if TYPE_CHECKING:
    from db.access import Access


class SettingsRepo(FieldStore[GuildSettings]):
    """Each server's `GuildSettings`.

    `get(guild_id)`: the defaults for a server that never changed one (nothing is
    written). `update(guild_id, stacking=True, ...)`: validates (ValueError) and
    writes only the named fields. `reset(guild_id, *names)`: back to defaults.
    """

    def __init__(self, db: Access) -> None:
        super().__init__(db, GuildSettings, table="guild_settings", key="guild_id")
