"""Which tables run, by match id, by channel and by seated player."""

from __future__ import annotations

from cogs.uno.table.running import LiveTable


class TableRegistry:
    """All running tables of this bot process."""

    def __init__(self) -> None:
        self.tables: dict[int, LiveTable] = {}
        self._by_channel: dict[int, int] = {}
        self._by_player: dict[int, int] = {}  # user id -> match id, while seated

    def get(self, match_id: int) -> LiveTable | None:
        return self.tables.get(match_id)

    def in_channel(self, channel_id: int) -> LiveTable | None:
        match_id = self._by_channel.get(channel_id)
        return None if match_id is None else self.tables.get(match_id)

    def of_player(self, user_id: int) -> LiveTable | None:
        match_id = self._by_player.get(user_id)
        return None if match_id is None else self.tables.get(match_id)

    def seats(self, table: LiveTable, user_id: int) -> bool:
        """Whether the member plays at `table` (`table.seated` without drawing its view)."""
        return self._by_player.get(user_id) == table.match_id and not table.closed

    def all(self) -> list[LiveTable]:
        return list(self.tables.values())

    def add(self, table: LiveTable) -> None:
        self.tables[table.match_id] = table
        self._by_channel[table.channel_id] = table.match_id
        self.reseat(table)

    def reseat(self, table: LiveTable) -> None:
        """Note who is seated at `table`, as its match says (started, restored, reloaded)."""
        for seat in table.public().seats:
            if seat.seated:
                self._by_player[int(seat.player)] = table.match_id

    def unseat(self, table: LiveTable, player: str) -> None:
        if self._by_player.get(int(player)) == table.match_id:
            del self._by_player[int(player)]

    def remove(self, table: LiveTable) -> None:
        self.tables.pop(table.match_id, None)
        if self._by_channel.get(table.channel_id) == table.match_id:
            del self._by_channel[table.channel_id]
        for player in table.match.players:
            self.unseat(table, player)
