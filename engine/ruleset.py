"""What makes a variant: its data, and the few hooks only it fills.

The shared modules (turn, piles, seats, uno_call, wild_draw, scoring) call a
variant only through its `Ruleset`; engine/duo.py, engine/pizza.py and
engine/classic.py each build one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.board import Board
from engine.cards import Card, Colour, Face
from engine.events import Event
from engine.options import Options, Variant
from engine.views import Pending

# What a coloured card does once played, the hand not empty: the next seat to act
# and what it must decide, or None when the player decides again (D9's dump).
Effect = Callable[[Board, int, Card, list[Event]], tuple[int, Pending] | None]
# D10/P7/C7: was the draw-wild legitimate? (options, rest of the hand, top, colour, face)
Legit = Callable[[Options, Sequence[Card], Card, Colour | None, Face], bool]
Hook = Callable[[Board, list[Event]], None]
SeatHook = Callable[[Board, int, list[Event]], None]
CardHook = Callable[[Board, int, Card, list[Event]], None]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A variant: its data, then its hooks."""

    variant: Variant
    title: str  # in refusals: "That move isn't part of UNO Duo"
    seats: tuple[int, int]  # fewest and most players
    deck: Callable[[Options], list[Card]]
    points: Mapping[Card, int]  # D14, P11, C11
    by_points: bool  # placings: the others ranked by points (Pizza, Classic)
    loser_scores: bool  # D14: each loser scores their own hand, the target loses
    shuffled_refill: bool  # P9/C9; D12 turns the pile over unshuffled
    kept_events: int  # events kept for the table log (TurnStarted included)
    uno_call_with_card: bool  # the UnoCalled event right after the card (Pizza's log)
    wild_draw_skips: bool  # the hit player's lost turn is logged as TurnSkipped
    actions: frozenset[type[Action]]  # the kinds of action the variant knows
    start_match: Hook
    start_round: Hook  # deal (or draft) and turn the first card
    effect: Effect
    final: CardHook  # D13/P10/C10: what the last card still owes
    special_wild: Callable[[Board, int, Card, list[Event]], Pending]  # once named
    first_colour_named: SeatHook  # D4/P3/C3: who plays after the first wild
    legit: Legit
    left_after: Callable[[Board, int, Card], int]  # cards left after a play (D11)
    draw: SeatHook  # a turn's draw (D5, P4, C4; H4 draws to match)
    # Classic house rules (H1–H4) the shared checks must know of; off, nothing changes.
    stacking: bool = False  # H1: a Wild Draw 4 may be stacked on one
    jump_in: bool = False  # H3: others may play an identical card out of turn
    # The ruleset a table with these options plays (classic's house rules), or None.
    tailor: Callable[[Options], Ruleset] | None = None
