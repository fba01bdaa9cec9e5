"""UNO Pocket Pizza Pizza (docs/rules.md P1–P11): what only Pizza has.

A 51-card deck and five-card hands (P1, P2), Draw One and the Wild Draw 2 and
its literal challenge (P5–P7), Wild Dip Into The Deck (P6), and its scoring
(P11). The deal, the plain action cards and the turn are shared
(engine/dealing.py, engine/turn.py).
"""

from __future__ import annotations

from engine import dealing
from engine.actions import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Give,
    KeepDrawn,
    Play,
)
from engine.board import Board
from engine.cards import Card, Face, pizza_deck
from engine.events import CardGiven, DrawReason, Event
from engine.options import Options
from engine.piles import draw_cards
from engine.scoring import points_table
from engine.views import Pending
from engine.wild_draw import literal_legit

HAND_SIZE = 5  # P2
RETURNED = frozenset({Face.WILD_DRAW_TWO, Face.WILD_DIP})  # P3: back into the deck
POINTS = points_table(pizza_deck(), action=20, wild=50, wild_draw_four=50)  # P11


# Enum members as module constants: `Pending.NONE` is a metaclass attribute lookup.
_WILD_DIP = Face.WILD_DIP
_NONE = Pending.NONE
_FOR_DIP = DrawReason.DIP
_GIVE = Pending.GIVE


def deck(options: Options) -> list[Card]:
    return pizza_deck()


def dip(t: Board, i: int, card: Card, events: list[Event]) -> Pending:
    """P6: once the colour is named, draw the top card, then give one card away."""
    if card.face is not _WILD_DIP:
        return _NONE
    draw_cards(t, i, 1, _FOR_DIP, events)
    return _GIVE


def final(t: Board, i: int, card: Card, events: list[Event]) -> None:
    """P10: owed draws are drawn; a last Dip still draws a card and hands it over."""
    dealing.final_draws(t, i, card, events)
    if card.face is _WILD_DIP:
        got = draw_cards(t, i, 1, _FOR_DIP, events)
        if got is not None:
            receiver = t.order[i]
            t.hands[i].pop()  # the card just drawn is the only one
            t.hands[receiver].append(got)
            t.dip = (i, receiver, got)
            events.append(CardGiven(t.players[i], t.players[receiver]))


RULES = dealing.dealt_rules(
    variant="pizza",
    title="UNO Pocket Pizza Pizza",
    seats=(2, 5),
    deck=deck,
    points=POINTS,
    actions=frozenset(
        {Play, Draw, KeepDrawn, ChooseColour, Accept, Challenge, Give, CallUno, CatchUno}
    ),
    hand_size=HAND_SIZE,
    returned=RETURNED,
    final=final,
    special_wild=dip,
    legit=literal_legit,
)
