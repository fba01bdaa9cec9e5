"""The UNO call, exposure and the catch window (D11, P8, C8), for every variant.

A play that leaves one card exposes its player unless UNO was called with it;
it is judged after the play's whole effect. Any later play or draw closes the
window (the modules that play or draw set `exposed = -1`).
"""

from __future__ import annotations

from engine.board import Board
from engine.events import DrawReason, Event, UnoCaught
from engine.piles import draw_cards


def settle(t: Board, i: int, events: list[Event], *, logged: bool) -> None:
    """After a play's whole effect: seat `i` with one card has called or is exposed.

    `logged`: the call was already logged with the card (Pizza's table log).
    """
    if len(t.hands[i]) == 1:
        if not t.call:
            t.exposed = i
            events.append(t.said[i].exposed)
        elif not logged:
            events.append(t.said[i].called)
    t.call = False


def call(t: Board, i: int, events: list[Event]) -> None:
    t.exposed = -1
    events.append(t.said[i].called)


def catch(t: Board, i: int, events: list[Event]) -> None:
    """Another player called first: the exposed player draws 2."""
    victim = t.exposed
    t.exposed = -1
    events.append(UnoCaught(t.players[i], t.players[victim]))
    draw_cards(t, victim, 2, DrawReason.UNO_PENALTY, events)
