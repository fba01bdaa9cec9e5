"""The whole state of a match as one plain record, the same for every variant:
exactly what a snapshot saves (engine/codec.py).

Seats are indices into `players`; "left" is the next index, so play going left
is `clockwise`. Piles are lists whose *end* is the top: drawing and playing are
`pop()` / `append()`. The rules read and change a `Board` (engine/board.py): a
`Table` with the lookups derived from it, kept in step beside the rule state.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from engine.cards import Card, Colour
from engine.events import Event
from engine.options import Options, Variant
from engine.views import Pending, Phase


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


@dataclass(slots=True, eq=False)
class Table:
    """Everything a match is: the rule state, nothing derived. Only the engine writes it."""

    variant: Variant
    options: Options
    players: tuple[str, ...]
    seed: int
    rng: random.Random
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
    phase: Phase = Phase.PLAY
    pending: Pending = Pending.NONE
    active: Colour | None = None  # unchanged while a wild waits for its colour
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
