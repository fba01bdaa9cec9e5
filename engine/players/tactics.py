"""Small judgements shared by the computer players, read from the views only."""

from __future__ import annotations

from collections.abc import Iterable

from engine.actions import Action, Dump, JumpIn, Play
from engine.cards import Card, Colour, Face
from engine.views import PublicView, SeatView

# What a player hit by each draw-wild draws if they accept, and how many more if a
# challenge fails (D10, P7, C7).
DRAW_WILDS = frozenset({Face.WILD_DRAW_FOUR, Face.WILD_DRAW_TWO})
HITTING = frozenset({Face.SKIP, Face.DRAW_TWO, Face.DRAW_ONE, Face.WILD_DRAW_FOUR})


def colour_counts(hand: Iterable[Card]) -> dict[Colour, int]:
    counts = dict.fromkeys(Colour, 0)
    for card in hand:
        if card.colour is not None:
            counts[card.colour] += 1
    return counts


def colour_held_most(hand: Iterable[Card]) -> Colour:
    """The colour with the most cards; ties go to the most points, then to red first."""
    counts = dict.fromkeys(Colour, 0)
    points = dict.fromkeys(Colour, 0)
    for card in hand:
        if card.colour is not None:
            counts[card.colour] += 1
            points[card.colour] += card.face.number if card.face.number is not None else 10
    order = list(Colour)
    return max(order, key=lambda c: (counts[c], points[c], -order.index(c)))


def next_seat(table: PublicView, player: str) -> SeatView:
    """The seated player after `player` in the direction of play (Duo: the opponent)."""
    seats = table.seats
    n = len(seats)
    at = 0
    while seats[at].player != player:
        at += 1
    step = 1 if table.clockwise else -1
    for k in range(1, n):
        seat = seats[(at + step * k) % n]
        if seat.seated:
            return seat
    return seats[at]


def seat_of(table: PublicView, player: str) -> SeatView:
    return next(s for s in table.seats if s.player == player)


def fewest_cards(table: PublicView, player: str) -> int:
    """The smallest hand among the other seated players."""
    return min((s.cards for s in table.seats if s.seated and s.player != player), default=99)


def _shed_key(action: Action) -> tuple[str, Card] | None:
    if isinstance(action, Play):
        return ("play", action.card)
    if isinstance(action, Dump):
        return ("dump", action.last)
    return None


def with_uno(legal: Iterable[Action]) -> list[Action]:
    """The legal actions, keeping only the form of a play or dump that calls UNO with it."""
    found = list(legal)
    calling = {_shed_key(a) for a in found if isinstance(a, Play | Dump) and a.uno}
    return [
        a
        for a in found
        if not (isinstance(a, Play | Dump) and not a.uno and _shed_key(a) in calling)
    ]


def jump_in(legal: Iterable[Action]) -> JumpIn | None:
    """H3: the jump-in on offer, calling UNO with it when it leaves one card."""
    return max((a for a in legal if isinstance(a, JumpIn)), key=lambda a: a.uno, default=None)
