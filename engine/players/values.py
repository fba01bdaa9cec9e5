"""What cards score, for every variant (docs/rules.md D14, P11, C11)."""

from __future__ import annotations

from engine.cards import Card, Face


def card_value(variant: str, card: Card) -> int:
    """What the card scores at the end of a round (D14, P11 or C11)."""
    number = card.face.number
    if number is not None:
        return number
    if variant != "duo":  # Pizza and classic: actions 20, every wild 50
        return 50 if card.colour is None else 20
    if card.face is Face.WILD_DRAW_FOUR:
        return 20
    return 15 if card.colour is None else 10
