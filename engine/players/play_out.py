"""Play a match to its end with the match-based test players."""

from __future__ import annotations

from collections.abc import Mapping

from engine.match import Match
from engine.players.player import Player


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
