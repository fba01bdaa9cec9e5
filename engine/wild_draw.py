"""The draw-wilds: Wild Draw 4 (D8, C6) and Wild Draw 2 (P6), accepted or
challenged (D10, P7, C7). Each variant supplies only its legitimacy test; the
penalties follow from the card: accepting draws its count, a guilty player
draws its count, a wrong challenger draws two more.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import Board
from engine.cards import EVERY_CARD, HAND_ORDER, MATCHING, Card, Colour, Face
from engine.events import ChallengeResolved, DrawReason, Event
from engine.options import Options
from engine.piles import draw_cards
from engine.seats import give_turn
from engine.table import WildDraw
from engine.views import Pending

DRAWS = {Face.WILD_DRAW_FOUR: 4, Face.WILD_DRAW_TWO: 2}
"""The draw-wilds and what each makes the hit player draw."""

OF_COLOUR = {colour: frozenset(c for c in EVERY_CARD if c.colour is colour) for colour in Colour}
"""Every card of each colour: C7's test is one set operation, in C."""


# Enum members as module constants: `Pending.NONE` is a metaclass attribute lookup.
_FOR_WILD_DRAW = DrawReason.WILD_DRAW
_NONE = Pending.NONE
_FOR_CHALLENGE = DrawReason.CHALLENGE


def literal_legit(
    options: Options, hand: Sequence[Card], top: Card, active: Colour | None, face: Face
) -> bool:
    """D10, P7: illegitimate if any other card could have been played (a wild too),
    another draw-wild of the same kind excepted."""
    ok = MATCHING[top].get(active, frozenset())
    return not any(c in ok and c.face is not face for c in hand)


def colour_legit(
    options: Options, hand: Sequence[Card], top: Card, active: Colour | None, face: Face
) -> bool:
    """C7 (and D10's classic option): illegitimate only with a card of the active colour."""
    return active is None or OF_COLOUR[active].isdisjoint(hand)


def record(t: Board, i: int, card: Card, legit: bool) -> None:
    """At play time: the rest of the hand (sorted when shown) and the verdict on it."""
    t.wild_draw = WildDraw(i, tuple(t.hands[i]), legit)


def accept(t: Board, i: int, skip_logged: bool, events: list[Event]) -> None:
    """The hit player draws and loses the turn."""
    t.exposed = -1  # a draw closes the UNO window
    count = DRAWS[t.discard[-1].face]
    t.wild_draw = None
    t.volley = 0  # H1: the total of a stack it could have started
    draw_cards(t, i, count, _FOR_WILD_DRAW, events)
    if skip_logged:
        events.append(t.said[i].skipped)
    give_turn(t, t.order[i], _NONE, events)


def challenge(t: Board, i: int, skip_logged: bool, events: list[Event]) -> None:
    """Judge the draw-wild; the challenger sees the judged hand until their next action."""
    record_ = t.wild_draw
    assert record_ is not None
    t.exposed = -1  # the penalty draw closes the UNO window
    t.wild_draw = None
    t.volley = 0  # H1: only the first of a stack is challenged, before stacking
    count = DRAWS[t.discard[-1].face]
    w = record_.player
    t.revealed_to = i
    t.revealed = tuple(sorted(record_.hand, key=HAND_ORDER.__getitem__))
    events.append(ChallengeResolved(t.players[i], t.players[w], record_.legit))
    if record_.legit:  # the challenger draws two more and loses the turn
        draw_cards(t, i, count + 2, _FOR_CHALLENGE, events)
        if skip_logged:
            events.append(t.said[i].skipped)
        give_turn(t, t.order[i], _NONE, events)
    else:  # the player draws, the colour they named stands, the challenger plays
        draw_cards(t, w, count, _FOR_CHALLENGE, events)
        give_turn(t, i, _NONE, events)
