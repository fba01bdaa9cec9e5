"""The whole state of a match as one plain record, the same for every variant.

Seats are indices into `players`; "left" is the next index, so play going left
is `clockwise`. Piles are lists whose *end* is the top: drawing and playing are
`pop()` / `append()`. The modules beside this one (piles, seats, uno_call,
wild_draw, scoring, turn) change a `Table`; a variant module adds only what is
its own.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from engine.cards import Card, Colour
from engine.events import (
    CardsDrawn,
    ColourChosen,
    DrawnCardKept,
    DrawReason,
    Event,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
    UnoExposed,
)
from engine.options import Options, Variant
from engine.views import Pending, Phase

NO_CARDS: frozenset[Card] = frozenset()


@dataclass(slots=True, eq=False)
class WildDraw:
    """D10, P7, C7: a draw-wild waiting to be accepted or challenged.

    Judged when it was played, on the rest of the hand held then (before any
    catch penalty): `legit` is the variant's verdict, `hand` is shown to the
    challenger. It is kept in hand order and sorted only when shown or saved:
    most draw-wilds are never challenged, and sorting a long hand at every one
    was about 1% of classic UNO's work with ten players.
    """

    player: int
    hand: tuple[Card, ...]
    legit: bool


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


@dataclass(slots=True, eq=False)
class Table:
    """Everything a match is. Only the engine's own modules write it."""

    variant: Variant
    options: Options
    players: tuple[str, ...]
    seed: int
    rng: random.Random
    shuffled_refill: bool  # P9/C9 shuffle the old discards; D12 turns them over
    said: tuple[SeatEvents, ...] = ()  # shared events, per seat
    version: int = 0
    round: int = 0
    scores: list[int] = field(default_factory=list)
    seated: list[bool] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    draw: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    draft: list[Card] = field(default_factory=list)  # D3, oldest first
    dealer: int = -1  # Duo: Player 1 (D2)
    turn: int = -1  # who must decide; -1 once the match is over
    clockwise: bool = True
    order: tuple[int, ...] = ()  # the seated seat after each seat, this direction
    orders: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # by clockwise
    two_seated: bool = False  # P5/C5: a Reverse acts as a Skip too
    phase: Phase = Phase.PLAY
    pending: Pending = Pending.NONE
    active: Colour | None = None  # unchanged while a wild waits for its colour
    playable: frozenset[Card] = NO_CARDS  # MATCHING[top][active], kept in step
    picks: int = 0  # D3
    drawn: Card | None = None  # D5/P4/C4: the drawn card that may be played
    drew: tuple[Card, ...] = ()  # H4: the cards the last draw to match took, in order
    volley: int = 0  # D7: the running total owed
    exposed: int = -1  # D11/P8/C8: the seat that owes an UNO call
    call: bool = False  # UNO called with the play being carried out
    first_colour: bool = False  # D4/P3/C3: the colour named is the first card's
    wild_draw: WildDraw | None = None
    revealed_to: int = -1  # D10/P7/C7: the challenger, until their next action
    revealed: tuple[Card, ...] = ()
    dip: tuple[int, int, Card] | None = None  # P6: giver, receiver, card
    winner: int = -1
    over: bool = False
    recent: deque[Event] = field(default_factory=deque)

    def next_seat(self, i: int) -> int:
        return self.order[i]


def blank_table(
    variant: Variant,
    options: Options,
    players: tuple[str, ...],
    seed: int,
    *,
    shuffled_refill: bool,
    kept_events: int,
) -> Table:
    """A table before the first deal (or before a snapshot's values are put in)."""
    n = len(players)
    t = Table(
        variant=variant,
        options=options,
        players=players,
        seed=seed,
        rng=random.Random(seed),  # X4: the only source of chance
        shuffled_refill=shuffled_refill,
        said=tuple(SeatEvents.of(p) for p in players),
        scores=[0] * n,
        seated=[True] * n,
        hands=[[] for _ in range(n)],
        recent=deque(maxlen=kept_events),
    )
    t.orders = (tuple((k - 1) % n for k in range(n)), tuple((k + 1) % n for k in range(n)))
    t.order = t.orders[True]
    t.two_seated = n == 2
    return t
