"""A test player that picks any legal action (engine tests and benchmarks)."""

from __future__ import annotations

import random

from engine.actions import Action, CallUno, CatchUno
from engine.match import Match

_CALL = CallUno()
_CATCH = CatchUno()


class RandomPlayer:
    """Any legal action, uniformly at random; reads `legal_actions` only."""

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
