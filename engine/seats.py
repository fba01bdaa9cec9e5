"""Seat order and direction (P2, P5, C2, C5, X3), and handing the turn on."""

from __future__ import annotations

from engine.board import Board
from engine.events import DirectionChanged, Event
from engine.views import Pending

_DIRECTION = {True: DirectionChanged(True), False: DirectionChanged(False)}


def set_order(t: Board) -> None:
    """Recompute the seated seat after each seat (even an empty one), both directions
    kept so a Reverse only picks the other (P5, C5); then this direction's."""
    n = len(t.players)
    orders = []
    for step in (-1, 1):
        order = []
        for i in range(n):
            j = (i + step) % n
            while not t.seated[j] and j != i:
                j = (j + step) % n
            order.append(j)
        orders.append(tuple(order))
    t.orders = (orders[0], orders[1])
    t.order = t.orders[t.clockwise]
    t.two_seated = t.seated.count(True) == 2


def left_of(t: Board, i: int) -> int:
    """The next seated player to the left (the deal passes left, P2/C2)."""
    n = len(t.players)
    j = (i + 1) % n
    while not t.seated[j]:
        j = (j + 1) % n
    return j


def give_turn(t: Board, i: int, pending: Pending, events: list[Event]) -> None:
    t.turn = i
    t.pending = pending
    events.append(t.said[i].started)


def skip_next(t: Board, i: int, events: list[Event]) -> int:
    """The next player loses the turn; the seat after them plays."""
    victim = t.order[i]
    events.append(t.said[victim].skipped)
    return t.order[victim]


def reverse(t: Board, i: int, events: list[Event]) -> int:
    """P5/C5: play changes direction; with two seated it acts as a Skip too."""
    t.clockwise = not t.clockwise
    t.order = t.orders[t.clockwise]
    events.append(_DIRECTION[t.clockwise])
    if t.two_seated:
        return skip_next(t, i, events)
    return t.order[i]
