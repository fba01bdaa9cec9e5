"""The normal computer: a greedy player with a few rules of thumb.

- keeps its wilds for later and plays the colour it holds most, so the colour
  stays one it can follow;
- aims Skips, Draw cards and draw-wilds at a player about to go out, dumps a
  colour after a Reverse (D9) and stacks a volley whenever it can (D7);
- names the colour it holds most; swaps hands (H2's 7) with the smallest hand;
- challenges a draw-wild when the odds favour it: from what is public (how many
  cards the player held, what was on the pile, which cards are still unseen) it
  estimates the chance they held a card they could have played instead;
- calls UNO with the play, always; catches a forgotten call often.

`normal_action` is the decision itself: the hard player uses it to play out the
worlds it samples.
"""

from __future__ import annotations

import random

from engine.actions import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Dump,
    Give,
    KeepCard,
    KeepDrawn,
    NoDump,
    Play,
    RejectCard,
    SwapHands,
    TakeVolley,
)
from engine.cards import Card, Colour, Face, hand_order
from engine.players.memory import Memory
from engine.players.odds import guilty_odds
from engine.players.tactics import (
    DRAW_WILDS,
    HITTING,
    colour_counts,
    colour_held_most,
    jump_in,
    next_seat,
)
from engine.players.values import card_value
from engine.views import Pending, PrivateView, PublicView

CATCH_RATE = 0.7
_CALL = CallUno()
_CATCH = CatchUno()
# D9: the last card of a dump is the only one with an effect.
_DUMP_EFFECT = {Face.SKIP: 3.0, Face.DRAW_TWO: 2.0, Face.REVERSE: 1.0}
# How likely a draw-wild must be a bluff before a challenge pays: a won challenge
# swings more cards in Duo (4 + a turn) than in Pizza (2), a lost one costs 2 more.
_CHALLENGE_FROM = {"duo": 0.25, "pizza": 0.35, "classic": 0.3}


def normal_action(
    me: PrivateView, table: PublicView, rng: random.Random, memory: Memory | None = None
) -> Action:
    """The normal player's decision for the seat the match waits for."""
    legal = me.legal
    if _CALL in legal:
        return _CALL
    if _CATCH in legal and rng.random() < CATCH_RATE:
        return _CATCH
    pending = table.pending
    if pending is Pending.COLOUR:
        return ChooseColour(colour_held_most(me.hand))
    if pending is Pending.WILD_DRAW:
        threshold = _CHALLENGE_FROM.get(table.variant, 0.3)
        challenge = guilty_odds(me, table, memory) > threshold
        return Challenge() if challenge and Challenge() in legal else Accept()
    if pending is Pending.GIVE:
        return _give(me, table.variant)
    if pending is Pending.SWAP:
        return _swap(me, table)
    if pending is Pending.DRAFT_PICK or pending is Pending.DRAFT_FORCED:
        return _draft(me, legal)
    return _turn(me, table)


def _swap(me: PrivateView, table: PublicView) -> Action:
    """H2 Seven-O: take the smallest hand."""
    counts = {seat.player: seat.cards for seat in table.seats}
    swaps = [a for a in me.legal if isinstance(a, SwapHands)]
    return min(swaps, key=lambda a: counts.get(a.target, 0))


def _draft(me: PrivateView, legal: tuple[Action, ...]) -> Action:
    """D3: keep wilds, action cards, low numbers and colours already held."""
    card = me.looking_at
    if card is None or RejectCard() not in legal:
        return KeepCard()
    number = card.face.number
    held = colour_counts(me.hand)[card.colour] if card.colour is not None else 0
    if number is None or number <= 4 or held >= 2:
        return KeepCard()
    return RejectCard()


def _give(me: PrivateView, variant: str) -> Action:
    """P6: hand over the card worth the most that is not a wild."""
    coloured = [c for c in me.hand if c.colour is not None] or list(me.hand)
    return Give(max(coloured, key=lambda c: (card_value(variant, c), hand_order(c))))


def _sheds(legal: tuple[Action, ...]) -> list[Action]:
    """The plays and dumps, in the form that calls UNO with the play when there is one."""
    found: dict[tuple[bool, Card], Action] = {}
    for a in legal:
        if isinstance(a, Play):
            key, uno = (True, a.card), a.uno
        elif isinstance(a, Dump):
            key, uno = (False, a.last), a.uno
        else:
            continue
        if uno or key not in found:
            found[key] = a
    return list(found.values())


def _turn(me: PrivateView, table: PublicView) -> Action:
    options = _sheds(me.legal)
    hand = me.hand
    if table.pending is Pending.DRAWN_CARD and options:
        drawn = me.drawn
        if drawn is not None and drawn.colour is None and len(hand) > 2:
            return KeepDrawn()  # a wild drawn is kept for later
    if not options:
        for fallback in (TakeVolley(), KeepDrawn(), NoDump(), Draw()):
            if fallback in me.legal:
                return fallback
        return me.legal[0]
    return max(ranked(me, table, options), key=lambda pair: pair[0])[1]


def ranked(
    me: PrivateView, table: PublicView, options: list[Action] | None = None
) -> list[tuple[float, Action]]:
    """How much this player likes each play or dump it may make now (higher is better)."""
    hand = me.hand
    counts = colour_counts(hand)
    danger = next_seat(table, me.player).cards <= 2
    last_cards = len(hand) <= 2
    variant = table.variant
    scored: list[tuple[float, Action]] = []
    for action in _sheds(me.legal) if options is None else options:
        if isinstance(action, Play):
            value = play_score(action.card, variant, counts, danger, last_cards)
        else:
            assert isinstance(action, Dump)
            last = action.last
            same = counts[last.colour] if last.colour is not None else 0
            value = 3.0 * same + _DUMP_EFFECT.get(last.face, 0.0) + (3.0 if danger else 0.0)
        scored.append((value, action))
    return scored


def play_score(
    card: Card, variant: str, counts: dict[Colour, int], danger: bool, last_cards: bool
) -> float:
    """How much this player likes playing `card` from a hand of these colour `counts`."""
    face = card.face
    if card.colour is None:
        score = -4.0 + (6.0 if last_cards else 0.0)  # keep wilds for later
        if face in DRAW_WILDS and danger:
            score += 9.0
        return score
    score = 2.0 * counts[card.colour] + card_value(variant, card) / 10
    if face in HITTING:
        score += 6.0 if danger else (2.0 if variant == "duo" else 0.5)
    elif face is Face.REVERSE:
        if variant == "duo":  # D9: the rest of the colour can follow
            score += 2.0 * (counts[card.colour] - 1)
        elif danger:
            score += 3.0
    return score


class NormalPlayer:
    """The normal computer opponent (see the module's notes)."""

    __slots__ = ("memory", "rng")

    def __init__(self, player: str, rng: random.Random) -> None:
        self.rng = rng
        self.memory = Memory(player)

    def act(self, me: PrivateView, table: PublicView) -> Action | None:
        self.memory.observe(me, table)
        if not me.legal:
            return None
        if table.to_act != me.player:
            if _CALL in me.legal:
                return _CALL
            if _CATCH in me.legal and self.rng.random() < CATCH_RATE:
                return _CATCH
            return jump_in(me.legal)  # a card and the turn for nothing: always worth it
        return normal_action(me, table, self.rng, self.memory)
