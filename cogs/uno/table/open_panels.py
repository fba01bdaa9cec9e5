"""The hand panels open at one table; HandPanels (panels.py) alone writes them."""

from __future__ import annotations

from dataclasses import dataclass, field

from cogs.uno.table.open_panel import Panel


@dataclass(slots=True)
class OpenPanels:
    """Each player's open panel, and whether a waiting player's was left for the table
    message's next edit."""

    by_player: dict[str, Panel] = field(default_factory=dict)
    behind: bool = False
