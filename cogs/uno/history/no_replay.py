"""Why a match cannot be shown again."""

from __future__ import annotations

from typing import Literal

Reason = Literal["unknown", "elsewhere", "dropped", "unreplayable"]


class NoReplay(Exception):
    """No replay of this match: `reason` says why, for the player's message."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason: Reason = reason
