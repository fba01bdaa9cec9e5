"""Rounds dealt from a shuffled deck, and the plain action cards, as Pocket
Pizza Pizza and classic UNO share them (P2, P3, P5, P10; C2, C3, C5, C10).

Skip: the next player loses the turn. Reverse: play changes direction (with two
seated, also a Skip). A draw card (Draw One, classic Draw 2): the next player
draws by itself and loses the turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from engine.actions import Action
from engine.board import Board
from engine.cards import Card, Face, shuffle
from engine.events import (
    CardReturned,
    DirectionChanged,
    DrawReason,
    Event,
    FirstCardTurned,
    RoundStarted,
)
from engine.options import Options, Variant
from engine.piles import draw_cards, sync_playable
from engine.ruleset import CardHook, Legit, Ruleset
from engine.scoring import clear_round_state
from engine.seats import give_turn, left_of, reverse, set_order, skip_next
from engine.turn import turn_draw
from engine.views import Pending
from engine.wild_draw import DRAWS

AUTOMATIC = {Face.DRAW_ONE: (1, DrawReason.DRAW_ONE), Face.DRAW_TWO: (2, DrawReason.DRAW_TWO)}
"""The draw cards whose victim draws by itself (P5, C5): count and reason."""


# Enum members as module constants: `Pending.NONE` is a metaclass attribute lookup.
_FOR_FIRST_CARD = DrawReason.FIRST_CARD
_COLOUR = Pending.COLOUR
_FOR_WILD_DRAW = DrawReason.WILD_DRAW


def deal(
    t: Board, deck: list[Card], hand_size: int, returned: frozenset[Face], events: list[Event]
) -> tuple[int, Card]:
    """P2/C2 deal and P3/C3 first card turned (sent back while in `returned`)."""
    rng = t.rng
    t.round += 1
    t.dealer = rng.randrange(len(t.players)) if t.round == 1 else left_of(t, t.dealer)
    t.clockwise = True
    set_order(t)
    t.dip = None
    clear_round_state(t)
    shuffle(rng, deck)
    for hand in t.hands:
        hand.clear()
    seats = [t.order[t.dealer]]
    while len(seats) < t.seated.count(True):
        seats.append(t.order[seats[-1]])
    for _ in range(hand_size):  # one at a time, from the dealer's left
        for j in seats:
            t.hands[j].append(deck.pop())
    first = seats[0]
    events.append(RoundStarted(t.round, t.players[first], t.players[t.dealer]))
    card = deck.pop()
    events.append(FirstCardTurned(card))
    while card.face in returned:
        events.append(CardReturned(card))
        deck.append(card)
        shuffle(rng, deck)
        card = deck.pop()
        events.append(FirstCardTurned(card))
    t.draw = deck
    t.discard = [card]
    t.active = card.colour
    sync_playable(t)
    return first, card


def deal_round(
    deck: Callable[[Options], list[Card]],
    hand_size: int,
    returned: frozenset[Face],
    t: Board,
    events: list[Event],
) -> None:
    """P2/P3, C2/C3: deal, turn the first card and carry out its action."""
    first, card = deal(t, deck(t.options), hand_size, returned, events)
    first_card(t, first, card, events)


def first_card(t: Board, first: int, card: Card, events: list[Event]) -> None:
    """P3/C3: the first card's action applies to the first player."""
    face = card.face
    if face is _SKIP:
        events.append(t.said[first].skipped)
        give_turn(t, t.order[first], _NONE, events)
    elif face is _REVERSE:  # the dealer plays first and play goes right
        t.clockwise = False
        set_order(t)
        events.append(DirectionChanged(False))
        give_turn(t, t.dealer, _NONE, events)
    elif face in AUTOMATIC:
        count, _ = AUTOMATIC[face]
        draw_cards(t, first, count, _FOR_FIRST_CARD, events)
        events.append(t.said[first].skipped)
        give_turn(t, t.order[first], _NONE, events)
    elif card.colour is None:  # the first player names the colour, then plays
        give_turn(t, first, _COLOUR, events)
        t.first_colour = True
    else:
        give_turn(t, first, _NONE, events)


_SKIP, _REVERSE, _NONE = Face.SKIP, Face.REVERSE, Pending.NONE  # module constants: faster


def effect(t: Board, i: int, card: Card, events: list[Event]) -> tuple[int, Pending]:
    """P5/C5: what a coloured card does; the seat to play next."""
    face = card.face
    if face is _SKIP:
        return skip_next(t, i, events), _NONE
    if face is _REVERSE:
        return reverse(t, i, events), _NONE
    auto = AUTOMATIC.get(face)
    if auto is not None:  # part of the play: the victim's draw leaves the UNO window open
        victim = t.order[i]
        draw_cards(t, victim, auto[0], auto[1], events)
        events.append(t.said[victim].skipped)
        return t.order[victim], _NONE
    return t.order[i], _NONE


def final_draws(t: Board, i: int, card: Card, events: list[Event]) -> None:
    """P10/C10: a last draw card or draw-wild is still drawn by the next player,
    with the total of a stack it ended (H1)."""
    auto = AUTOMATIC.get(card.face)
    owed = t.volley
    t.volley = 0
    if auto is not None:
        draw_cards(t, t.order[i], auto[0] + owed, auto[1], events)
    elif card.face in DRAWS:
        draw_cards(t, t.order[i], DRAWS[card.face] + owed, _FOR_WILD_DRAW, events)


def colour_named_first(t: Board, i: int, events: list[Event]) -> None:
    """P3/C3: the player who named the first card's colour now plays."""
    t.pending = _NONE


def cards_left(t: Board, i: int, card: Card) -> int:
    return len(t.hands[i]) - 1


def plain_wild(t: Board, i: int, card: Card, events: list[Event]) -> Pending:
    return _NONE


def dealt_rules(
    *,
    variant: Variant,
    title: str,
    seats: tuple[int, int],
    deck: Callable[[Options], list[Card]],
    points: Mapping[Card, int],
    actions: frozenset[type[Action]],
    hand_size: int,
    returned: frozenset[Face],
    final: CardHook,
    special_wild: Callable[[Board, int, Card, list[Event]], Pending],
    legit: Legit,
) -> Ruleset:
    """The Ruleset of a dealt variant: what Pizza and classic UNO share, filled in."""
    start_round = partial(deal_round, deck, hand_size, returned)
    return Ruleset(
        variant=variant,
        title=title,
        seats=seats,
        deck=deck,
        points=points,
        by_points=True,
        loser_scores=False,
        shuffled_refill=True,
        kept_events=24,
        uno_call_with_card=True,
        wild_draw_skips=True,
        actions=actions,
        start_match=start_round,
        start_round=start_round,
        effect=effect,
        final=final,
        special_wild=special_wild,
        first_colour_named=colour_named_first,
        legit=legit,
        left_after=cards_left,
        draw=turn_draw,
    )
