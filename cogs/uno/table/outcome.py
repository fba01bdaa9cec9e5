"""What the table service answers a click with; the cog turns it into words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.events import Event

Refusal = Literal["illegal", "closed", "busy", "late"]


@dataclass(frozen=True, slots=True)
class Accepted:
    """Applied and saved: the table has moved on."""

    events: tuple[Event, ...]
    ticket: int = 0  # the answer's place in line (cogs/uno/transport/answer_order.py)


@dataclass(frozen=True, slots=True)
class Refused:
    """Nothing changed. `reason` is for the player when `kind` is "illegal"."""

    kind: Refusal
    reason: str = ""
    ticket: int = 0


@dataclass(frozen=True, slots=True)
class Stale:
    """The control was drawn for an older state: nothing changed."""

    ticket: int = 0


Outcome = Accepted | Refused | Stale
