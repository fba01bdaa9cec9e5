"""A test player that sheds points greedily (engine tests and benchmarks).

It reads the match; the computer opponents people play against
(`engine.players.normal`) see views only.
"""

from __future__ import annotations

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
from engine.match import Match
from engine.players.values import card_value

_CALL = CallUno()
_CATCH = CatchUno()
_WILD_DRAWS = (Face.WILD_DRAW_TWO, Face.WILD_DRAW_FOUR)
# D9: the last card of a dump is the one with an effect; the better the effect, the earlier.
_DUMP_LAST = {Face.SKIP: 3, Face.DRAW_TWO: 2, Face.REVERSE: 1}


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
