"""A challenge's verdict with its reason: the challenger's panel names the card, the
table's last moves give a reason that names no hidden card (D10, P7, C7)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogs.uno import render
from cogs.uno.render.last_moves import last_moves
from engine.cards import Colour, card, cards
from engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    DrawReason,
    Event,
)
from engine.views import PrivateView
from tests.cogs.builders import ANN, BOB, public_view

NAMES = {ANN: "Ann", BOB: "Bob"}


def judged(legitimate: bool, *, wild: str = "W+4", count: int = 4) -> tuple[Event, ...]:
    """Ann plays Blue 2, Bob covers it with a draw-wild naming Red, Ann challenges."""
    drawer = ANN if legitimate else BOB
    return (
        CardPlayed(ANN, card("B2")),
        CardPlayed(BOB, card(wild)),
        ColourChosen(BOB, Colour.RED),
        ChallengeResolved(ANN, BOB, legitimate=legitimate),
        CardsDrawn(drawer, count, DrawReason.CHALLENGE),
    )


def test_d10_a_bluff_is_told_publicly_with_its_reason_and_the_draw() -> None:
    lines = last_moves(judged(False), NAMES, "duo")
    assert lines[-1] == (
        "**Ann** challenged **Bob**: **Bob** could have played another card, so the "
        "⬛ Wild Draw 4 was a bluff: **Bob** draws 4 cards"
    )
    assert not any("drew" in line for line in lines)  # the draw is told once, in the verdict


@pytest.mark.parametrize(("wild", "count"), [("W+4", 6), ("W+2", 4)])
def test_c7_p7_a_legal_draw_wild_is_told_publicly_and_the_challenger_draws(
    wild: str, count: int
) -> None:
    (*_, line) = last_moves(judged(True, wild=wild, count=count), NAMES, "classic")
    assert line.startswith("**Ann** challenged **Bob**: the ⬛ Wild Draw ")
    assert line.endswith(f" was legal: **Ann** draws {count} cards")


def test_the_table_shows_the_verdict_line() -> None:
    embed = render.table_embed(
        public_view(recent=judged(False)), names=NAMES, table_id=1, deadline=None
    )
    moves = next(f.value for f in embed.fields if f.name == "Last moves")
    assert "so the ⬛ Wild Draw 4 was a bluff: **Bob** draws 4 cards" in (moves or "")


def panel_text(legitimate: bool, hand: str) -> str:
    seen = PrivateView(
        player=ANN,
        hand=tuple(cards("R1")),
        legal=(),
        looking_at=None,
        drawn=None,
        revealed_hand=tuple(cards(hand)),
        received=None,
        given=None,
    )
    pub = replace(public_view(), recent=judged(legitimate))
    return render.hand_panel(seen, pub, names=NAMES, table_id=1, version=3).content


def test_c7_the_challenger_is_shown_a_card_of_the_colour_in_play_first() -> None:
    # Red 2 matches the Blue 2 by number, Blue 7 by colour: the colour is the reason
    # under every rule, so it is the card named.
    assert "Bob held 🟦 Blue 7, which matched the 🟦 Blue 2" in panel_text(False, "R2 B7")


def test_c7_a_fair_wild_under_the_colour_rule_says_only_the_colour_counts() -> None:
    # Bob held a Red 2 that matched by number: the classic rule judged the wild fair.
    assert "Bob held no 🟦 Blue card, the only kind that counts" in panel_text(True, "R2 Y9")
