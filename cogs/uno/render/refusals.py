"""The engine's refusals in the player's language.

The engine raises each refusal as an English template and its values
(`engine/errors.py`); the catalogue holds the templates (extracted from the
engine's `raise WrongMoment("...")` lines), and each value is said here by its
kind: a card by its name, a colour's cards, a number as it is.
"""

from __future__ import annotations

from cogs.uno.i18n.l10n import ENGLISH, N_, language, t
from cogs.uno.render.words import COLOUR_CARDS, card_title, colour_name
from engine.cards import Card, Colour
from engine.errors import IllegalAction
from engine.words import english

# The engine's names of its games, as a refusal says them ("That move isn't part of UNO Duo").
GAMES = (N_("UNO Duo"), N_("UNO Pocket Pizza Pizza"), N_("classic UNO"))


def refusal_words(error: IllegalAction) -> str:
    """Why the engine refused, worded for the player in the language spoken."""
    values = {key: _value(key, value) for key, value in error.values.items()}
    return t(error.template, **values)


def _value(key: str, value: object) -> str:
    if language() == ENGLISH:
        return english(key, value)  # with its article: "a Blue 5"
    if key.endswith("_cards"):
        return t(COLOUR_CARDS[value]) if isinstance(value, Colour) else t("cards")
    if isinstance(value, Card):
        return card_title(value)
    if isinstance(value, Colour):
        return colour_name(value)
    if isinstance(value, str):
        return t(value) if value else value  # an engine word: "UNO Duo", a reason's start
    return str(value)
