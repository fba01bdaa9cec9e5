"""The hard player's rule of thumb at classic tables: the normal player's, refined.

At a four-seat classic table (C4-C11) the normal player's rule of thumb misses
what a watching person would use:

- who plays after the card, not only who is next: a Skip, a Draw 2 or a Wild
  Draw 4 hands the turn to the seat after next, a Reverse to the seat before;
  a card that hands it to someone about to go out is played later;
- a Wild Draw 4 laid while holding the active colour is a bluff (C7) the normal
  player challenges when the odds favour it: the hard player doesn't bluff;
- a colour the player who plays next is known to lack (they drew on it since
  their hand last changed unseen, `engine.players.memory`) is a good colour to
  name or to turn the pile to.

Everything else is the normal player's (`engine.players.normal`).
"""

from __future__ import annotations

import random

from engine.actions import Action, ChooseColour, Play
from engine.cards import Card, Colour, Face
from engine.players.memory import Memory
from engine.players.normal import normal_action, ranked
from engine.players.tactics import colour_counts
from engine.views import Pending, PrivateView, PublicView, SeatView

# How many cards make a seat "about to go out".
CLOSE = 2
# What handing the turn to a seat about to go out costs a play (in `ranked`'s units).
HAND_OVER = 4.0
# What a Wild Draw 4 played while holding the active colour costs (C7: a bluff): more
# than any liking, so it is never laid so (measured: 6 gained less than 20).
BLUFF = 20.0
# What turning the pile to a colour the next player is known to lack is worth (times the
# share of their unseen cards known to lack it); naming it, half as much (a card's worth).
LACKING = 2.0
_SHIFT = {Face.SKIP: 2, Face.DRAW_TWO: 2, Face.WILD_DRAW_FOUR: 2, Face.REVERSE: -1}


def classic_action(
    me: PrivateView, table: PublicView, rng: random.Random, memory: Memory | None = None
) -> Action:
    """The decision at a classic table: normal's, with the refinements above."""
    usual = normal_action(me, table, rng, memory)
    if table.pending is Pending.COLOUR:
        return ChooseColour(name_colour(me, table, memory))
    if not isinstance(usual, Play):
        return usual
    scored = [(score + play_bonus(a, me, table, memory), a) for score, a in ranked(me, table)]
    return max(scored, key=lambda pair: pair[0])[1]


def seat_after(table: PublicView, player: str, steps: int) -> SeatView:
    """The seated player `steps` turns after `player` in the direction of play."""
    seated = [s for s in table.seats if s.seated or s.player == player]
    at = next(i for i, s in enumerate(seated) if s.player == player)
    step = 1 if table.clockwise else -1
    return seated[(at + step * steps) % len(seated)]


def _plays_next(table: PublicView, player: str, card: Card) -> SeatView:
    """Who takes the next turn after `player` lays `card`."""
    steps = _SHIFT.get(card.face, 1)
    if len([s for s in table.seats if s.seated]) <= 2 and steps == -1:
        steps = 2  # C5: with two players a Reverse acts as a Skip
    return seat_after(table, player, steps)


def lacking(memory: Memory | None, player: str, colour: Colour) -> float:
    """How many of `player`'s unseen cards are known to be none of `colour`, as a share."""
    if memory is None:
        return 0.0
    if any(c.colour is colour for c in memory.known.get(player, ())):
        return 0.0
    unknown = memory.counts.get(player, 0) - len(memory.known.get(player, ()))
    if unknown <= 0:
        return 0.0
    share = 0.0
    for cards, n in memory.constraints.get(player, ()):
        if sum(1 for c in cards if c.colour is colour) >= _COLOUR_FACES:
            share = max(share, n / unknown)
    return share


_COLOUR_FACES = 13  # the different cards of one colour (0-9, Skip, Reverse, Draw 2)


def play_bonus(action: Action, me: PrivateView, table: PublicView, memory: Memory | None) -> float:
    """What the classic refinements add to the normal player's liking of a play."""
    if not isinstance(action, Play):
        return 0.0
    card = action.card
    bonus = 0.0
    following = _plays_next(table, me.player, card)
    if following.player != me.player and following.cards <= CLOSE:
        bonus -= HAND_OVER
    active = table.active_colour
    if card.face is Face.WILD_DRAW_FOUR and active is not None and _holds(me, active):
        bonus -= BLUFF
    if card.colour is not None and following.player != me.player:
        bonus += LACKING * lacking(memory, following.player, card.colour)
    return bonus


def _holds(me: PrivateView, colour: Colour) -> bool:
    return any(c.colour is colour for c in me.hand)


def name_colour(me: PrivateView, table: PublicView, memory: Memory | None) -> Colour:
    """The colour held most, the colour the next player lacks counting as more cards."""
    counts = colour_counts(me.hand)
    points = dict.fromkeys(Colour, 0)
    for card in me.hand:
        if card.colour is not None:
            points[card.colour] += card.face.number if card.face.number is not None else 10
    mine = table.top is not None and memory is not None and memory.top_by == me.player
    following = _plays_next(table, me.player, table.top) if mine and table.top else None
    order = list(Colour)

    def worth(colour: Colour) -> tuple[float, int, int]:
        value = float(counts[colour])
        if following is not None and following.player != me.player:
            value += LACKING / 2 * lacking(memory, following.player, colour)
        return value, points[colour], -order.index(colour)

    return max(order, key=worth)
