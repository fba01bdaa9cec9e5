"""Cards as immutable values, their notation, and the deck of each variant.

Every card is interned: `Card(Colour.RED, Face.FIVE) is Card.parse("R5")`, so
hands and piles hold shared references (cheap to copy, cheap to compare) and
duplicates in a deck are the same object listed twice. Since equal cards are
the same object, a card compares and hashes by identity, in C: the generated
dataclass `__eq__`/`__hash__` went through Python-level Enum hashes (~300 ns a
dict lookup), which dominated the engine's hot paths. Colour and Face hash by
identity too (an Enum member is only ever equal to itself).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar


class Colour(Enum):
    """The four suit colours; the value is the notation letter."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    # Members are singletons equal only to themselves: hash in C, not Enum's hash(name).
    __hash__ = object.__hash__

    @property
    def title(self) -> str:
        return self.name.capitalize()


class Face(Enum):
    """What is printed on a card; the value is its notation."""

    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "+2"
    DRAW_ONE = "+1"
    WILD = "W"
    WILD_DRAW_FOUR = "W+4"
    WILD_DRAW_TWO = "W+2"
    WILD_DIP = "WDIP"
    WILD_SHUFFLE_HANDS = "WSH"
    WILD_CUSTOMIZABLE = "WC"

    __hash__ = object.__hash__  # as Colour: a dict keyed by Face hashes in C

    @property
    def is_wild(self) -> bool:
        return self.value.startswith("W")

    @property
    def number(self) -> int | None:
        """The face value of a number card, None for any other card."""
        return int(self.value) if self.value.isdigit() else None


_FACE_TITLES: dict[Face, str] = {
    Face.SKIP: "Skip",
    Face.REVERSE: "Reverse",
    Face.DRAW_TWO: "Draw 2",
    Face.DRAW_ONE: "Draw One",
    Face.WILD: "Wild",
    Face.WILD_DRAW_FOUR: "Wild Draw 4",
    Face.WILD_DRAW_TWO: "Wild Draw 2",
    Face.WILD_DIP: "Wild Dip Into The Deck",
    Face.WILD_SHUFFLE_HANDS: "Wild Shuffle Hands",
    Face.WILD_CUSTOMIZABLE: "Wild Customizable",
}


# eq=False: identity equality and hash (object's, in C) are value equality, because
# __new__ hands out one instance per (colour, face).
@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. Wilds have no colour: a named colour belongs to the pile."""

    colour: Colour | None
    face: Face

    _interned: ClassVar[dict[str, Card]] = {}  # by notation: the cards of the decks
    _by_value: ClassVar[dict[tuple[object, object], Card]] = {}  # every card ever built

    def __new__(cls, colour: Colour | None, face: Face) -> Card:
        key = (colour, face)
        try:
            return cls._by_value[key]
        except KeyError:
            card = object.__new__(cls)
            cls._by_value[key] = card
            return card
        except TypeError:  # not a card of any deck (unhashable parts): equal only to itself
            return object.__new__(cls)

    @property
    def is_wild(self) -> bool:
        return self.colour is None

    @property
    def code(self) -> str:
        """The notation of docs/rules.md: `R5`, `BS`, `YR`, `G+1`, `W+4`."""
        code = _CODES.get(self)  # an Enum's .value is a Python-level property
        if code is not None:
            return code
        if self.colour is None:
            return self.face.value
        return self.colour.value + self.face.value

    @property
    def title(self) -> str:
        """Words a player or a screen reader understands: `Red 7`, `Wild Draw 4`."""
        face = _FACE_TITLES.get(self.face, self.face.value)
        return face if self.colour is None else f"{self.colour.title} {face}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Copies and pickles resolve to the interned instance.
        return (Card.parse, (self.code,))

    @staticmethod
    def parse(code: str) -> Card:
        """Return the interned card for a notation; ValueError if unknown."""
        try:
            return Card._interned[code]
        except KeyError:
            raise ValueError(f"unknown card {code!r}") from None


_CODES: dict[Card, str] = {}  # filled once every card of the decks is interned


def _intern_all() -> None:
    for face in Face:
        if face.is_wild:
            card = Card(None, face)
            Card._interned[card.code] = card
        else:
            for colour in Colour:
                card = Card(colour, face)
                Card._interned[card.code] = card


_intern_all()
_CODES.update({card: code for code, card in Card._interned.items()})

EVERY_CARD: tuple[Card, ...] = tuple(Card._interned[code] for code in sorted(Card._interned))
"""Every card of every deck, once, in notation order."""


def cards(codes: str) -> list[Card]:
    """Parse space-separated notation, for tests and logs: `cards("R5 W+4 BS")`."""
    return [Card.parse(code) for code in codes.split()]


def card(code: str) -> Card:
    """Parse one card's notation."""
    return Card.parse(code)


_NUMBERS = [f for f in Face if f.number is not None]


def _build_duo_deck(classic: bool) -> tuple[Card, ...]:
    deck: list[Card] = []
    for colour in Colour:
        c = colour.value
        deck.append(Card.parse(c + "0"))
        for face in _NUMBERS[1:]:
            deck += [Card.parse(c + face.value)] * 2
        for face in (Face.SKIP, Face.REVERSE, Face.DRAW_TWO):
            deck += [Card.parse(c + face.value)] * 2
    deck += [Card.parse("W")] * 4 + [Card.parse("W+4")] * 4
    if not classic:
        deck += [Card.parse("WSH")] + [Card.parse("WC")] * 3
    return tuple(deck)


def _build_pizza_deck() -> tuple[Card, ...]:
    deck: list[Card] = []
    for colour in Colour:
        c = colour.value
        deck += [Card.parse(c + face.value) for face in _NUMBERS[1:]]
        deck += [Card.parse(c + face.value) for face in (Face.DRAW_ONE, Face.SKIP, Face.REVERSE)]
    deck += [Card.parse("W"), Card.parse("WDIP"), Card.parse("W+2")]
    return tuple(deck)


# Built once: a round starts with a fresh copy (measured: rebuilding card by card cost
# about 2% of a Duo match).
_DUO_DECK = _build_duo_deck(classic=False)
_CLASSIC_DUO_DECK = _build_duo_deck(classic=True)
_PIZZA_DECK = _build_pizza_deck()


def duo_deck(*, classic: bool = False) -> list[Card]:
    """The 112-card UNO Duo deck (D1), or the classic 108 without the newest four."""
    return list(_CLASSIC_DUO_DECK if classic else _DUO_DECK)


def classic_deck() -> list[Card]:
    """The 108-card classic UNO deck (C1), the same as Duo's classic option."""
    return list(_CLASSIC_DUO_DECK)


def pizza_deck() -> list[Card]:
    """The 51-card UNO Pocket Pizza Pizza deck (P1)."""
    return list(_PIZZA_DECK)


def matches(card: Card, *, top: Card, active: Colour | None) -> bool:
    """A card matches by active colour, same number, or same symbol; wilds always.

    A wild on top is matched only by its named colour (`active`) or another wild.
    """
    if card.colour is None:
        return True
    if card.colour is active:
        return True
    return top.colour is not None and card.face is top.face


def _matching_tables() -> dict[Card, dict[Colour | None, frozenset[Card]]]:
    """`matches` as a table: top card -> active colour -> the cards that match it.

    One set lookup per card in hand replaced the colour and face tests of the
    ordinary turn's scan, the engine's hottest loop (about a third of its time).
    """
    every = list(EVERY_CARD)
    shared: dict[tuple[Colour | None, Face | None], frozenset[Card]] = {}
    tables: dict[Card, dict[Colour | None, frozenset[Card]]] = {}
    for top in every:
        top_face = top.face if top.colour is not None else None
        by_active: dict[Colour | None, frozenset[Card]] = {}
        for active in (None, *Colour):
            key = (active, top_face)
            if key not in shared:
                shared[key] = frozenset(c for c in every if matches(c, top=top, active=active))
            by_active[active] = shared[key]
        tables[top] = by_active
    return tables


MATCHING = _matching_tables()
"""`MATCHING[top][active]`: the cards that may be played on `top` (D5, P4)."""

_COLOUR_ORDER = {colour: i for i, colour in enumerate(Colour)}
_FACE_ORDER = {face: i for i, face in enumerate(Face)}


def hand_order(card: Card) -> tuple[int, int]:
    """Sort key: by colour (wilds last), then by value."""
    colour = 4 if card.colour is None else _COLOUR_ORDER[card.colour]
    return (colour, _FACE_ORDER[card.face])


HAND_ORDER: dict[Card, tuple[int, int]] = {c: hand_order(c) for c in EVERY_CARD}
"""`hand_order` of every card of the decks: `key=HAND_ORDER.__getitem__` sorts in C."""


def shuffle(rng: random.Random, cards: list[Card]) -> None:
    """`rng.shuffle(cards)`, the same permutation from the same generator state, faster.

    random.Random.shuffle calls the Python-level `_randbelow` once per card; inlined
    here (measured: Pizza refills and Duo deals spent ~5% of a match shuffling). A
    subclass of Random may draw differently, so it keeps its own shuffle.
    """
    if rng.__class__ is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    top = len(cards) - 1
    while top > 0:
        # As Random._randbelow_with_getrandbits(i + 1): k bits, redrawn while > i. The
        # positions sharing a bit count run as one loop, so k is computed once per run
        # and not once per card (Pizza shuffles its discard pile at every refill).
        k = (top + 1).bit_length()
        low = (1 << (k - 1)) - 1  # the smallest position with this bit count
        for i in range(top, low - 1, -1):
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            cards[i], cards[j] = cards[j], cards[i]
        top = low - 1
