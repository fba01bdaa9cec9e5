"""Computer seats' ids and names (see computers.py for how they play).

A computer seat's player id is a small integer, 1 to 9. Discord ids are
snowflakes of 17 digits or more, so these can never be a real member; a table
seats at most nine computers (classic's ten seats, at least one human).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.players import STRENGTHS, Strength

COMPUTER_IDS = range(1, 10)


def is_computer(player: int | str) -> bool:
    """Whether a seat's player id is a computer's (never a Discord member's)."""
    return int(player) in COMPUTER_IDS


def computer_name(strength: str) -> str:
    return f"Computer ({strength})"


def strength_of(value: object) -> Strength:
    """A strength read back from stored options; anything unknown plays as normal."""
    return next((s for s in STRENGTHS if s == value), "normal")


def table_strengths(options: Mapping[str, Any]) -> dict[str, Strength]:
    """The computer seats a match's stored options name, with their strengths."""
    stored = options.get("computers")
    if not isinstance(stored, dict):
        return {}
    return {str(player): strength_of(value) for player, value in stored.items()}


def free_computer_id(taken: Mapping[int, object] | set[int]) -> int | None:
    """The smallest computer id not yet seated, or None when all nine are."""
    return next((i for i in COMPUTER_IDS if i not in taken), None)
