"""The final placings of a match (what scoreboards record), from its last event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.events import MatchEnded

Outcome = Literal["won", "lost", "forfeit"]


@dataclass(frozen=True, slots=True)
class Placing:
    """One player's result: place 1 is the winner; equal places share a number."""

    player: str
    score: int
    place: int
    outcome: Outcome


def placings(event: MatchEnded, *, by_points: bool) -> tuple[Placing, ...]:
    """The winner first, then the others; a forfeit is a loss for the leaver (X3).

    `by_points` (Pizza, Classic): the rest ranked by points, high first, equal
    totals sharing a place; otherwise (Duo, D14) the other player is second.
    Players who forfeited come after those who finished.
    """
    scores = dict(event.scores)
    gone = set(event.forfeited)
    others = [p for p in scores if p != event.winner]
    others.sort(key=lambda p: (p in gone, -scores[p] if by_points else 0))
    out = [Placing(event.winner, scores[event.winner], 1, "won")]
    place = 2
    for k, player in enumerate(others):
        if k > 0:
            previous = others[k - 1]
            tied = by_points and (scores[previous], previous in gone) == (
                scores[player],
                player in gone,
            )
            if not tied:
                place = k + 2
        outcome: Outcome = "forfeit" if player in gone else "lost"
        out.append(Placing(player, scores[player], place, outcome))
    return tuple(out)
