"""How a turn works, for every variant (D5, D8, D11, D13; P4, P6, P10; C4, C6, C10).

A player plays a card or draws one. A drawn card that matches may be played at
once or kept. A wild waits for its colour; a draw-wild then waits for the hit
player's answer (engine/wild_draw.py). A coloured card's effect is the
variant's (`Ruleset.effect`); the UNO call is judged after the whole effect
(engine/uno_call.py). A hand that empties ends the round once the last card's
owed draws are made (engine/scoring.py).
"""

from __future__ import annotations

from engine.board import NO_CARDS, Board
from engine.cards import MATCHING, Card, Colour
from engine.events import (
    PLAYED,
    CardGiven,
    DrawReason,
    Event,
    card_played,
)
from engine.piles import draw_cards, sync_playable
from engine.ruleset import Ruleset
from engine.scoring import end_round
from engine.seats import give_turn
from engine.uno_call import settle
from engine.views import Pending
from engine.wild_draw import DRAWS, record

_NONE, _DRAWN, _COLOUR = Pending.NONE, Pending.DRAWN_CARD, Pending.COLOUR
_TURN = DrawReason.TURN


# Enum members as module constants: `Pending.NONE` is a metaclass attribute lookup.
_GIVE = Pending.GIVE
_WILD_DRAW = Pending.WILD_DRAW


def turn_draw(t: Board, i: int, events: list[Event]) -> None:
    """Draw one; a card that matches may be played at once. Nothing left: a pass."""
    t.exposed = -1  # a draw closes the UNO window
    card = draw_cards(t, i, 1, _TURN, events)
    if card is not None and card in t.playable:
        t.drawn = card
        t.pending = _DRAWN
        return
    give_turn(t, t.order[i], _NONE, events)


def keep_drawn(t: Board, i: int, events: list[Event]) -> None:
    t.drawn = None
    events.append(t.said[i].kept)
    give_turn(t, t.order[i], _NONE, events)


def play_card(t: Board, rules: Ruleset, i: int, card: Card, uno: bool, events: list[Event]) -> None:
    """Lay a card already judged legal, then carry out what it does."""
    hand = t.hands[i]
    hand.remove(card)  # the first copy, by identity: cards are interned
    t.exposed = -1  # any play closes the UNO window
    t.drawn = None
    player = t.players[i]
    events.append(PLAYED[card].get(player) or card_played(player, card))  # shared events
    if uno and rules.uno_call_with_card:
        events.append(t.said[i].called)
    t.call = uno
    t.discard.append(card)
    if card.colour is None:
        t.playable = NO_CARDS
        if not hand:
            finish_round(t, rules, i, card, events)
            return
        face = card.face
        if face in DRAWS:  # judged now, on the rest of this hand (D10, P7, C7)
            legit = rules.legit(t.options, hand, t.discard[-2], t.active, face)
            record(t, i, card, legit)
        t.pending = _COLOUR
        return
    t.active = card.colour
    t.playable = MATCHING[card][card.colour]
    if not hand:
        finish_round(t, rules, i, card, events)
        return
    step = rules.effect(t, i, card, events)
    if step is None:  # the player decides again (D9)
        return
    if uno or len(hand) == 1:
        settle(t, i, events, logged=rules.uno_call_with_card)
    give_turn(t, step[0], step[1], events)


def finish_round(t: Board, rules: Ruleset, i: int, card: Card, events: list[Event]) -> None:
    """D13, P10, C10: the last card's owed draws first; a last wild names no colour."""
    rules.final(t, i, card, events)
    if card.colour is None:
        t.active = None
        sync_playable(t)
    end_round(t, rules, i, events)


def choose_colour(t: Board, rules: Ruleset, i: int, colour: Colour, events: list[Event]) -> None:
    t.active = colour
    top = t.discard[-1]
    t.playable = MATCHING[top][colour]  # as sync_playable: the table's own lookup
    events.append(t.said[i].named[colour])
    if t.first_colour:
        t.first_colour = False
        rules.first_colour_named(t, i, events)
        return
    pending = rules.special_wild(t, i, top, events)
    if pending is _GIVE:  # P6: the same player gives a card first
        t.pending = pending
        return
    if pending is _NONE and top.face in DRAWS:  # (H1 may stack it instead)
        pending = _WILD_DRAW
    settle(t, i, events, logged=rules.uno_call_with_card)
    j = t.order[i]
    if pending is _WILD_DRAW and rules.wild_draw_skips:
        t.turn = j  # the hit player answers; their turn starts only if they may play
        t.pending = pending
        return
    give_turn(t, j, pending, events)


def give(t: Board, rules: Ruleset, i: int, card: Card, events: list[Event]) -> None:
    """P6: after a Dip, hand a card to the next player, who keeps their turn."""
    receiver = t.order[i]
    hand = t.hands[i]
    hand.remove(card)
    t.hands[receiver].append(card)
    t.dip = (i, receiver, card)
    events.append(CardGiven(t.players[i], t.players[receiver]))
    if not hand:  # defensive: the Dip drew a card, so the hand holds one more
        end_round(t, rules, i, events)
        return
    settle(t, i, events, logged=rules.uno_call_with_card)
    give_turn(t, receiver, _NONE, events)
