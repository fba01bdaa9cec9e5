"""The events that name one seat only, built once per player and shared."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Colour
from engine.events import (
    CardsDrawn,
    ColourChosen,
    DrawnCardKept,
    DrawReason,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
    UnoExposed,
)

_SEAT_EVENTS_KEPT = 4096


@dataclass(frozen=True, slots=True)
class SeatEvents:
    """The events that name one seat only, built once per match and shared (events
    are immutable; building a frozen dataclass costs more than a whole rule)."""

    started: TurnStarted
    drew_one: CardsDrawn
    kept: DrawnCardKept
    skipped: TurnSkipped
    exposed: UnoExposed
    called: UnoCalled
    named: dict[Colour, ColourChosen]

    @classmethod
    def of(cls, player: str) -> SeatEvents:
        """The shared set for a player: events are immutable, so every match may use it."""
        found = _SEAT_EVENTS.get(player)
        if found is None:
            if len(_SEAT_EVENTS) >= _SEAT_EVENTS_KEPT:
                _SEAT_EVENTS.clear()  # crude, but bounded however many players the bot sees
            found = _SEAT_EVENTS[player] = cls.build(player)
        return found

    @classmethod
    def build(cls, player: str) -> SeatEvents:
        return cls(
            TurnStarted(player),
            CardsDrawn(player, 1, DrawReason.TURN),
            DrawnCardKept(player),
            TurnSkipped(player),
            UnoExposed(player),
            UnoCalled(player),
            {c: ColourChosen(player, c) for c in Colour},
        )


_SEAT_EVENTS: dict[str, SeatEvents] = {}
