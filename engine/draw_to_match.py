"""H4 Draw to match, a classic house rule: a player who draws keeps drawing until a
card can be played, and may play that card at once (or keep it, as C4).

Decided: when the draw pile and the discards beneath the top card run out first,
the player keeps what was drawn and the turn passes (C9: nothing left to draw).
"""

from __future__ import annotations

from engine.board import Board
from engine.cards import Card
from engine.events import DrawReason, Event
from engine.piles import drawn_event, refill
from engine.seats import give_turn
from engine.views import Pending

_NONE, _DRAWN = Pending.NONE, Pending.DRAWN_CARD
_TURN = DrawReason.TURN


def draw_to_match(t: Board, i: int, events: list[Event]) -> None:
    t.exposed = -1  # a draw closes the UNO window
    hand = t.hands[i]
    run: list[Card] = []
    ok = t.playable
    while not run or run[-1] not in ok:
        if not t.draw and not refill(t, events):
            break
        card = t.draw.pop()
        hand.append(card)
        run.append(card)
    if len(run) == 1:
        events.append(t.said[i].drew_one)
    else:
        events.append(drawn_event(t.players[i], len(run), _TURN))
    t.drew = tuple(run)
    if run and run[-1] in ok:
        t.drawn = run[-1]
        t.pending = _DRAWN
        return
    give_turn(t, t.order[i], _NONE, events)
