"""Small wording helpers for refusals (X1): what a player reads."""

from __future__ import annotations

from engine.cards import Card


def with_article(card: Card) -> str:
    """`a Blue 5`, `an Eight`... as a player reads it."""
    title = card.title
    return f"an {title}" if title[0] in "AEIOU" else f"a {title}"


def capital(text: str) -> str:
    return text[0].upper() + text[1:]
