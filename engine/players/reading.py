"""How well a sampled hand explains an opponent's choices, read as the normal player's.

At a Pizza or classic table the memory keeps the choices an opponent made since
their hand last changed unseen (`engine.players.memory.Choice`): the card they
played among those they held, the colour they named. Their hand at each choice
is their hand now plus what they laid since, so a sampled hand can be checked
against each: would the normal player, holding it, have chosen the same? A hand
that explains every choice is likelier than one that doesn't (`misreads` counts
the choices it fails), and `engine.players.world` deals again to find one.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import MATCHING, Card
from engine.players.memory import Choice
from engine.players.normal import play_score
from engine.players.tactics import colour_counts, colour_held_most

_TIE = 1e-9


def misreads(hand: Sequence[Card], choices: Sequence[Choice], variant: str) -> int:
    """How many of `choices` the normal player holding `hand` now would not have made."""
    return sum(not _explains(hand, choice, variant) for choice in choices)


def _explains(hand: Sequence[Card], choice: Choice, variant: str) -> bool:
    held = [*hand, *choice.laid]
    if choice.colour is not None:
        return colour_held_most(held) is choice.colour
    card, top = choice.card, choice.top
    if card is None or top is None:
        return True
    playable = MATCHING[top][choice.active]
    if card not in playable:
        return True  # not an ordinary turn's play (a house rule's): nothing to read
    counts = colour_counts(held)
    last_cards = len(held) <= 2
    chosen = play_score(card, variant, counts, choice.danger, last_cards)
    return all(
        play_score(c, variant, counts, choice.danger, last_cards) <= chosen + _TIE
        for c in held
        if c in playable and c is not card
    )
