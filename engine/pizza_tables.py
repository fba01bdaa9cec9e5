"""UNO Pocket Pizza Pizza: the deck, card points and the shared action values (P1, P11).

Tables are keyed by the card itself: cards are interned and hash by identity, in C.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from engine.cards import Card, Colour, pizza_deck
from engine.errors import CardNotInHand

HAND_SIZE = 5  # P2
RECENT = 10  # events shown in the table log
KEPT = 24  # events kept, TurnStarted included (filtered out when viewed)

ALL_CARDS: tuple[Card, ...] = tuple(pizza_deck())
WILD_CARD = Card.parse("W")
WD2_CARD = Card.parse("W+2")
WDIP_CARD = Card.parse("WDIP")


def card_points(card: Card) -> int:
    """P11: numbers face value; Skip, Draw One, Reverse 20; every wild 50."""
    return points_of(card)


def canon(card: Card) -> Card:
    """The interned instance of a card (an equal copy may come from outside)."""
    found = CANON.get(id(card))
    if found is not None:
        return found
    try:
        return Card.parse(card.code)
    except (AttributeError, ValueError):
        raise CardNotInHand("That isn't a card of this game") from None


def find(hand: list[Card], card: Card) -> int:
    """Index of an interned card in a hand by identity, or -1 (no Card.__eq__ calls)."""
    for k, c in enumerate(hand):
        if c is card:
            return k
    return -1


def points_of(card: Card) -> int:
    if card.colour is None:
        return 50
    number = card.face.number
    return 20 if number is None else number


POINTS: dict[Card, int] = {c: points_of(c) for c in ALL_CARDS}
# By id: canon() takes anything a caller passed as a card, hashable or not.
CANON: dict[int, Card] = {id(c): c for c in Card._interned.values()}

# Shared action values: legal_actions hands these out without allocating.
PLAY: dict[Card, Play] = {c: Play(c) for c in ALL_CARDS}
PLAY_UNO: dict[Card, Play] = {c: Play(c, uno=True) for c in ALL_CARDS}
GIVE: dict[Card, Give] = {c: Give(c) for c in ALL_CARDS}
COLOURS: tuple[ChooseColour, ...] = tuple(ChooseColour(c) for c in Colour)
DRAW = Draw()
KEEP = KeepDrawn()
ACCEPT = Accept()
CHALLENGE = Challenge()
CALL = CallUno()
CATCH = CatchUno()
PIZZA_ACTIONS = frozenset({Play, Draw, KeepDrawn, ChooseColour, Accept, Challenge, Give})


def with_article(card: Card) -> str:
    return f"an {card.title}" if card.title[0] in "AEIOU" else f"a {card.title}"


def most_held_colour(hand: Sequence[Card]) -> int:
    """Index in Colour order of the colour held most; ties (and none) by Colour order."""
    counts = [0, 0, 0, 0]
    order = {c: k for k, c in enumerate(Colour)}
    for card in hand:
        if card.colour is not None:
            counts[order[card.colour]] += 1
    return counts.index(max(counts))
