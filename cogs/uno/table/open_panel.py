"""One player's latest hand panel, as HandPanels keeps it."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from cogs.uno.i18n.l10n import ENGLISH

PANEL_TOKEN_LIFE = 14 * 60  # Discord tokens die at 15 minutes; keep a safety margin


@dataclass(slots=True)
class Panel:
    """A player's latest hand panel, editable through its interaction token while alive.

    Only the token is kept, not the Interaction with its whole message.
    """

    token: str
    opened: float  # time.monotonic() of the interaction
    signature: tuple[Any, ...] = ()
    language: str = ENGLISH  # the member's Discord language: a refresh speaks it too
    tip: str = ""  # the first-game tip this panel opened with: every redraw keeps it

    @property
    def alive(self) -> bool:
        return time.monotonic() - self.opened < PANEL_TOKEN_LIFE
