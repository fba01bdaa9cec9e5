"""Small wording helpers for refusals (X1): what a player reads, in English.

A refusal is a template and its values (`engine/errors.py`): the engine fills
it in English here; the Discord side translates the template by its words and
each value by its kind. A value's key says how it reads: `a_card` with its
article ("a Blue 5"), `A_card` the same starting a sentence, `colour_cards`
a colour's cards ("Red cards").
"""

from __future__ import annotations

from engine.cards import Card, Colour


def N_(message: str, /) -> str:  # noqa: N802 - gettext's name for "mark, translate later"
    """Mark a word for the translators' catalogue; the engine itself keeps it English."""
    return message


def with_article(card: Card) -> str:
    """`a Blue 5`, `an Eight`... as a player reads it."""
    title = card.title
    return f"an {title}" if title[0] in "AEIOU" else f"a {title}"


def capital(text: str) -> str:
    return text[0].upper() + text[1:]


def english(key: str, value: object) -> str:
    """One value of a refusal as English words (its key says how: see above)."""
    if isinstance(value, Card):
        if key.startswith("A_"):
            return capital(with_article(value))
        return with_article(value) if key.startswith("a_") else value.title
    if key.endswith("_cards"):
        return f"{value.title} cards" if isinstance(value, Colour) else "cards"
    if isinstance(value, Colour):
        return value.title
    return str(value)
