"""A finished match's places and outcomes, for the scoreboard.

The seam: this is the one place that turns the engine's `MatchEnded` into
scoreboard rows. When the engine offers `Match.placings()`, this function
becomes a translation of its answer and the rule below goes away.
"""

from __future__ import annotations

from db.models import Outcome, PlayerResult
from engine.events import MatchEnded
from engine.match import Variant


def match_results(variant: Variant, event: MatchEnded) -> list[PlayerResult]:
    """Places and outcomes: Duo's winner has the lower total (D14); Pizza's reached
    the target first (P11); a forfeit is a loss for the leaver (X3)."""
    scores = dict(event.scores)
    others = [p for p in scores if p != event.winner]
    # Pizza: the rest ranked by points, high first; Duo: the other player is second.
    others.sort(key=lambda p: (p in event.forfeited, -scores[p] if variant == "pizza" else 0))
    results = [
        PlayerResult(user_id=int(event.winner), score=scores[event.winner], place=1, outcome="won")
    ]
    place = 2
    for index, player in enumerate(others):
        if index > 0:
            previous = others[index - 1]
            tied = (
                variant == "pizza"
                and scores[previous] == scores[player]
                and (previous in event.forfeited) == (player in event.forfeited)
            )
            if not tied:
                place = index + 2
        outcome: Outcome = "forfeit" if player in event.forfeited else "lost"
        results.append(
            PlayerResult(user_id=int(player), score=scores[player], place=place, outcome=outcome)
        )
    return results
