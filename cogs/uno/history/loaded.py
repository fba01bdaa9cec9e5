"""A finished match ready to step through, with what the table showed beside it."""

from __future__ import annotations

from dataclasses import dataclass

from cogs.uno.table.options import TableOptions
from engine.match import Variant
from engine.replay import Replay


@dataclass(frozen=True, slots=True)
class Loaded:
    """One match's replay, its seats' names and options, and who let time run out."""

    match_id: int
    guild_id: int
    variant: Variant
    replay: Replay
    names: dict[str, str]
    options: TableOptions
    # Per step after the start: who acted, and whether the bot acted for them (a timeout).
    acted: tuple[tuple[str, bool], ...]
    players: tuple[str, ...]

    def missed(self, step: int) -> dict[str, int]:
        """Turns each player had let run out in a row at `step`, as the live table counted."""
        counts: dict[str, int] = {}
        for player, timed_out in self.acted[:step]:
            counts[player] = counts.get(player, 0) + 1 if timed_out else 0
        return {player: n for player, n in counts.items() if n}
