"""UNO Pocket Pizza Pizza (RULES.md P1–P11): what only Pizza has.

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
from engine.cards import Card, Face, pizza_deck
from engine.events import CardGiven, DrawReason, Event
from engine.options import Options
from engine.piles import draw_cards
from engine.ruleset import Ruleset
from engine.scoring import points_table
from engine.table import Table
from engine.views import Pending
from engine.wild_draw import literal_legit

HAND_SIZE = 5  # P2
RETURNED = frozenset({Face.WILD_DRAW_TWO, Face.WILD_DIP})  # P3: back into the deck
POINTS = points_table(pizza_deck(), action=20, wild=50, wild_draw_four=50)  # P11


def deck(options: Options) -> list[Card]:
    return pizza_deck()


def start_round(t: Table, events: list[Event]) -> None:
    first, card = dealing.deal(t, deck(t.options), HAND_SIZE, RETURNED, events)
    dealing.first_card(t, first, card, events)


def dip(t: Table, i: int, card: Card, events: list[Event]) -> Pending:
    """P6: once the colour is named, draw the top card, then give one card away."""
    if card.face is not Face.WILD_DIP:
        return Pending.NONE
    draw_cards(t, i, 1, DrawReason.DIP, events)
    return Pending.GIVE


def final(t: Table, i: int, card: Card, events: list[Event]) -> None:
    """P10: owed draws are drawn; a last Dip still draws a card and hands it over."""
    dealing.final_draws(t, i, card, events)
    if card.face is Face.WILD_DIP:
        got = draw_cards(t, i, 1, DrawReason.DIP, events)
        if got is not None:
            receiver = t.order[i]
            t.hands[i].pop()  # the card just drawn is the only one
            t.hands[receiver].append(got)
            t.dip = (i, receiver, got)
            events.append(CardGiven(t.players[i], t.players[receiver]))


RULES = Ruleset(
    variant="pizza",
    title="UNO Pocket Pizza Pizza",
    seats=(2, 5),
    deck=deck,
    points=POINTS,
    by_points=True,
    loser_scores=False,
    shuffled_refill=True,
    kept_events=24,
    uno_call_with_card=True,
    wild_draw_skips=True,
    actions=frozenset(
        {Play, Draw, KeepDrawn, ChooseColour, Accept, Challenge, Give, CallUno, CatchUno}
    ),
    start_match=start_round,
    start_round=start_round,
    effect=dealing.effect,
    final=final,
    special_wild=dip,
    first_colour_named=dealing.colour_named_first,
    legit=literal_legit,
    left_after=dealing.cards_left,
)
