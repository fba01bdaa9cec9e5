"""The volley: a running total of draw cards passed on by stacking (D7; classic's
H1 stacking, Wild Draw 4 on Wild Draw 4 included). The hit player stacks the
same kind of card or draws the total and loses the turn.
"""

from __future__ import annotations

from engine.board import Board
from engine.events import DrawReason, Event, VolleyRaised
from engine.piles import draw_cards
from engine.seats import give_turn
from engine.views import Pending

_NONE = Pending.NONE
_FOR_VOLLEY = DrawReason.VOLLEY


def raise_volley(t: Board, i: int, target: int, amount: int, events: list[Event]) -> None:
    """Seat `i` adds `amount` to the total now owed by `target`."""
    t.volley += amount
    events.append(VolleyRaised(t.players[i], t.players[target], t.volley))


def take_volley(t: Board, i: int, skip_logged: bool, events: list[Event]) -> None:
    """Draw the total; the next seat plays (in Duo: who laid the last Draw 2, D7)."""
    total = t.volley
    t.volley = 0
    t.exposed = -1  # a draw closes the UNO window
    draw_cards(t, i, total, _FOR_VOLLEY, events)
    if skip_logged:
        events.append(t.said[i].skipped)
    give_turn(t, t.order[i], _NONE, events)
