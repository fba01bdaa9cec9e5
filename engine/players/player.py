"""The protocol of the old, match-based players (tests and the engine benchmark)."""

from __future__ import annotations

from typing import Protocol

from engine.actions import Action
from engine.match import Match


class Player(Protocol):
    """A test player that reads the match: decides for `player` when it waits for them.

    Only for tests and benchmarks of the engine. The computer opponents people
    play against are `engine.players.computer.Computer`s, which see views only.
    """

    def choose(self, match: Match, player: str) -> Action:
        """One of `match.legal_actions(player)`."""
        ...

    def react(self, match: Match, player: str) -> Action | None:
        """An out-of-turn UNO call or catch, or None."""
        ...
