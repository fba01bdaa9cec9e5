"""Dumps being laid card by card; TableClicks (clicks.py) alone writes them."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card


@dataclass(slots=True)
class DumpOrders:
    """Per player: the state version a dump order was begun at, and the cards so far."""

    chosen: dict[str, tuple[int, list[Card]]] = field(default_factory=dict)

    def of(self, player: str, version: int) -> list[Card]:
        """The cards `player` chose to lay first in the dump asked of them at `version`."""
        found = self.chosen.get(player)
        if found is None or found[0] != version:
            return []
        return list(found[1])
