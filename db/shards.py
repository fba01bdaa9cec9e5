"""Which servers' rows a bot process owns: those on the Discord shards it runs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# Discord's rule: a server's events arrive on shard `(guild_id >> 22) % shard_count`.
SNOWFLAKE_TIME_SHIFT = 22


def shard_of(guild_id: int, count: int) -> int:
    """The shard that carries a server's events, out of `count`."""
    return (guild_id >> SNOWFLAKE_TIME_SHIFT) % count


@dataclass(frozen=True, slots=True)
class Shards:
    """Shard ids `ids` out of `count`: the part of the bot one process runs.

    A process owns the running tables, lobbies and rematch offers of the servers on
    its shards; only it restores them, so a table never runs in two processes.
    """

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("a bot runs at least one shard")
        if not self.ids:
            raise ValueError("a process runs at least one shard")
        if not all(0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids must be 0 to {self.count - 1}: got {sorted(self.ids)}")

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> Shards:
        """`ids` out of `count`; None: every shard."""
        return cls(count, frozenset(range(count) if ids is None else ids))

    @property
    def whole(self) -> bool:
        """Whether these are all the shards (one process runs the whole bot)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        """Whether the server's events, and so its tables, belong to these shards."""
        return shard_of(guild_id, self.count) in self.ids

    def where(self, column: str) -> tuple[str, tuple[int, ...]]:
        """`owns` as a SQL condition on the guild id `column`, and its parameters.

        The same arithmetic on both engines: guild ids are positive int64, where
        SQLite's and PostgreSQL's `>>` and `%` agree with Python's.
        """
        if self.whole:
            return "1 = 1", ()
        marks = ", ".join("?" * len(self.ids))
        condition = f"(({column} >> {SNOWFLAKE_TIME_SHIFT}) % ?) IN ({marks})"
        return condition, (self.count, *sorted(self.ids))


def owned(shards: Shards | None, column: str) -> tuple[str, tuple[int, ...]]:
    """The SQL condition for the rows a process owns (None: every row, one process)."""
    return shards.where(column) if shards is not None else ("1 = 1", ())
