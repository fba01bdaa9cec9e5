"""Card pictures for the renderers: the bot's card emojis once synced, else nothing.

Rendering stays a pure function of the views; the one thing it reads from outside is
which emoji shows which card, set once by the bot at start-up (`use`). Until the
emojis are synced, or when Discord refused them, every lookup answers None and the
renderers show colour squares and words.
"""

from __future__ import annotations

from typing import Protocol

from engine.cards import Card, Colour


class EmojiSource(Protocol):
    """What `cogs.uno.art.CardEmojis` answers: by card code and named colour letter."""

    def inline(self, code: str, named: str | None = None) -> str | None: ...

    def url(self, code: str, named: str | None = None) -> str | None: ...


class _NoEmojis:
    def inline(self, code: str, named: str | None = None) -> str | None:
        return None

    def url(self, code: str, named: str | None = None) -> str | None:
        return None


_source: list[EmojiSource] = [_NoEmojis()]


def use(source: EmojiSource | None) -> None:
    """Draw cards with `source`'s emojis from now on (None: colour squares and words)."""
    _source[0] = _NoEmojis() if source is None else source


def _named(card: Card, named: Colour | None) -> str | None:
    return named.value if named is not None and card.is_wild else None


def card_emoji(card: Card, named: Colour | None = None) -> str | None:
    """`<:uno_r5_…:id>` for a button, an option or text; None without emojis."""
    return _source[0].inline(card.code, _named(card, named))


def card_url(card: Card, named: Colour | None = None) -> str | None:
    """The card's picture URL (a wild with the colour named), for a thumbnail."""
    return _source[0].url(card.code, _named(card, named))
