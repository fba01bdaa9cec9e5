"""Computer players for tests, benchmarks and practice games.

Generic over the `Match` protocol: they read only `legal_actions`, the public
view and their own private view, so they play Duo and Pizza alike and can
never see a card a human in their seat could not.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol

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
    TakeVolley,
)
from engine.cards import Card, Colour, Face, hand_order
from engine.events import CardPlayed
from engine.match import Match, Variant

_CALL = CallUno()
_CATCH = CatchUno()
_WILD_DRAWS = (Face.WILD_DRAW_TWO, Face.WILD_DRAW_FOUR)
# D9: the last card of a dump is the one with an effect; the better the effect, the earlier.
_DUMP_LAST = {Face.SKIP: 3, Face.DRAW_TWO: 2, Face.REVERSE: 1}


def card_value(variant: Variant, card: Card) -> int:
    """What the card scores at the end of a round (D14 or P11)."""
    number = card.face.number
    if number is not None:
        return number
    if variant == "pizza":
        return 50 if card.colour is None else 20
    if card.face is Face.WILD_DRAW_FOUR:
        return 20
    return 15 if card.colour is None else 10


class Player(Protocol):
    """A computer player: decides for `player` when the match waits for them."""

    def choose(self, match: Match, player: str) -> Action:
        """One of `match.legal_actions(player)`."""
        ...

    def react(self, match: Match, player: str) -> Action | None:
        """An out-of-turn UNO call or catch, or None."""
        ...


class RandomPlayer:
    """Any legal action, uniformly at random."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, match: Match, player: str) -> Action:
        legal = match.legal_actions(player)
        return legal[int(self.rng.random() * len(legal))]  # cheaper than rng.choice

    def react(self, match: Match, player: str) -> Action | None:
        legal = match.legal_actions(player)
        for action in (_CALL, _CATCH):
            if action in legal and self.rng.random() < 0.5:
                return action
        return None


class GreedyPlayer:
    """Sheds points as fast as it can and never misses an UNO call or catch.

    - plays the legal card worth the most points, calling UNO with it;
    - stacks, dumps and plays a drawn card whenever it can (all shed points);
    - names the colour it holds most; gives away its highest-scoring card;
    - challenges a draw-wild when the player who laid it still holds 2+ cards:
      about a third of the cards match any top card (colour, number or symbol,
      or a wild), so with two other cards the play was more likely than not
      illegitimate, and a won challenge swings more than a lost one costs.
    """

    __slots__ = ("challenge_from",)

    def __init__(self, *, challenge_from: int = 2) -> None:
        self.challenge_from = challenge_from

    def react(self, match: Match, player: str) -> Action | None:
        legal = match.legal_actions(player)
        if _CATCH in legal:
            return _CATCH
        if _CALL in legal:
            return _CALL
        return None

    def choose(self, match: Match, player: str) -> Action:
        view = match.private_view(player)
        legal = view.legal
        if _CATCH in legal:
            return _CATCH
        if _CALL in legal:
            return _CALL
        variant = match.variant
        shed: list[tuple[int, int, bool, tuple[int, int], Action]] = []
        for a in legal:
            if isinstance(a, Play):
                shed.append((card_value(variant, a.card), 0, a.uno, hand_order(a.card), a))
            elif isinstance(a, Dump):  # D9: every card of that colour goes
                colour = a.last.colour
                total = sum(card_value(variant, c) for c in view.hand if c.colour is colour)
                effect = _DUMP_LAST.get(a.last.face, 0)
                shed.append((total, effect, a.uno, hand_order(a.last), a))
        if shed:
            return max(shed, key=lambda t: t[:4])[4]
        gives = [a for a in legal if isinstance(a, Give)]
        if gives:
            return max(gives, key=lambda a: (card_value(variant, a.card), hand_order(a.card)))
        if any(isinstance(a, ChooseColour) for a in legal):
            return ChooseColour(_colour_held_most(view.hand))
        if Challenge() in legal:
            return Challenge() if self._worth_challenging(match) else Accept()
        for preferred in (KeepCard(), KeepDrawn(), NoDump(), TakeVolley(), Draw()):
            if preferred in legal:
                return preferred
        return legal[0]

    def _worth_challenging(self, match: Match) -> bool:
        view = match.public_view()
        laid_by = next(
            (
                e.player
                for e in reversed(view.recent)
                if isinstance(e, CardPlayed) and e.card.face in _WILD_DRAWS
            ),
            None,
        )
        cards = next((s.cards for s in view.seats if s.player == laid_by), 0)
        return cards >= self.challenge_from


def _colour_held_most(hand: tuple[Card, ...]) -> Colour:
    counts = dict.fromkeys(Colour, 0)
    for card in hand:
        if card.colour is not None:
            counts[card.colour] += 1
    return max(Colour, key=lambda c: (counts[c], -list(Colour).index(c)))


def play_out(match: Match, seats: Mapping[str, Player], *, max_steps: int = 100_000) -> Match:
    """Play until the match ends: out-of-turn reactions first, then the decision."""
    for _ in range(max_steps):
        if match.is_over:
            return match
        for player in match.players:
            reaction = seats[player].react(match, player)
            if reaction is not None:
                match.apply(player, reaction)
        player = match.waiting_for()[0]
        match.apply(player, seats[player].choose(match, player))
    raise RuntimeError("the match did not end")
