"""`Board`: a match's `Table` (the rule state) with the lookups the rules read on
every action, derived from it and kept in step where what they derive from
changes (the seat order in engine/seats.py, the matching cards wherever the top
card or the colour changes). Never saved: loading a snapshot rebuilds them
(engine/codec.py).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from engine.cards import Card
from engine.options import Options, Variant
from engine.seat_events import SeatEvents
from engine.table import Table

NO_CARDS: frozenset[Card] = frozenset()


@dataclass(slots=True, eq=False)
class Board(Table):
    """A `Table` and what follows from it: the rules take and change a `Board`."""

    shuffled_refill: bool = False  # the variant's: P9/C9 shuffle the old discards, D12 not
    said: tuple[SeatEvents, ...] = ()  # shared events, per seat
    order: tuple[int, ...] = ()  # the seated seat after each seat, this direction
    orders: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # by clockwise
    two_seated: bool = False  # P5/C5: a Reverse acts as a Skip too
    playable: frozenset[Card] = NO_CARDS  # MATCHING[top][active]


def blank_board(
    variant: Variant,
    options: Options,
    players: tuple[str, ...],
    seed: int,
    *,
    shuffled_refill: bool,
    kept_events: int,
) -> Board:
    """A board before the first deal (or before a snapshot's values are put in)."""
    n = len(players)
    t = Board(
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
