"""A finished match's places and outcomes, as scoreboard rows.

The rule (who places where, D14 / P11 / C11, and a forfeit as a loss, X3) is the
engine's `Match.placings()`; this only translates its answer for the database.
"""

from __future__ import annotations

from db.models import PlayerResult
from engine.match import Match


def match_results(match: Match) -> list[PlayerResult]:
    """The finished match's places, winner first, as the scoreboard stores them."""
    return [
        PlayerResult(
            user_id=int(placing.player),
            score=placing.score,
            place=placing.place,
            outcome=placing.outcome,
        )
        for placing in match.placings()
    ]
