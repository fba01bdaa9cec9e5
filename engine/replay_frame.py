"""One step of a replayed match, as one viewer may see it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.events import RoundEnded
from engine.views import PublicView


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after `step` actions, and what of it was the viewer's own.

    `hand` is the viewer's own hand (None when they did not play): nobody else's
    private card is ever in a frame. `round_ended` is the round's end if this
    step ended one (its remaining hands were shown to everyone at scoring).
    """

    step: int
    steps: int
    public: PublicView
    hand: tuple[Card, ...] | None
    round_ended: RoundEnded | None
