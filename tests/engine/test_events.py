"""The shared CardPlayed table (engine.events.PLAYED)."""

from __future__ import annotations

from engine.cards import Card, Colour, Face, card
from engine.events import PLAYED, PLAYED_PER_CARD, CardPlayed, card_played


def test_card_played_is_the_event_and_shared() -> None:
    event = card_played("ann", card("R5"))
    assert event == CardPlayed("ann", card("R5"))
    assert card_played("ann", card("R5")) is event
    assert PLAYED[card("R5")]["ann"] is event


def test_the_table_stays_bounded() -> None:
    b7 = card("B7")
    for k in range(3 * PLAYED_PER_CARD):
        assert card_played(f"player {k}", b7) == CardPlayed(f"player {k}", b7)
        assert len(PLAYED[b7]) <= PLAYED_PER_CARD


def test_a_card_of_no_deck_is_built_not_kept() -> None:
    odd = Card(Colour.RED, Face.WILD)  # no deck holds a red wild
    assert card_played("ann", odd) == CardPlayed("ann", odd)
    assert odd not in PLAYED
