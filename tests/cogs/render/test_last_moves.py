"""`last_moves(..., keep=k)` words only the lines shown: the last k of all the lines."""

from __future__ import annotations

import random

import pytest

from cogs.uno.render.last_moves import last_moves
from engine.events import ChallengeResolved
from engine.match import Variant, new_match

NAMES = {"a": "Ann", "b": "Bob", "c": "Cy", "d": "Di"}


@pytest.mark.parametrize("variant", ["duo", "pizza", "classic"])
def test_the_kept_lines_are_the_last_of_all_lines(variant: Variant) -> None:
    players = ["a", "b"] if variant == "duo" else ["a", "b", "c", "d"]
    verdicts = 0
    for seed in range(6):
        rng = random.Random(seed)
        match = new_match(variant, players=players, seed=seed)
        for _ in range(300):
            ready = [p for p in match.players if match.legal_actions(p)]
            if match.is_over or not ready:
                break
            player = rng.choice(ready)
            match.apply(player, rng.choice(match.legal_actions(player)))
            recent = match.public_view().recent
            verdicts += any(isinstance(e, ChallengeResolved) for e in recent)
            every = last_moves(recent, NAMES, variant)
            for keep in range(1, 12):
                assert last_moves(recent, NAMES, variant, keep=keep) == every[-keep:]
    if variant == "classic":
        assert verdicts  # a verdict folds its draw in: the case the loop must get right
