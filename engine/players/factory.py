"""A computer opponent of the strength a player chose."""

from __future__ import annotations

import random

from engine.match import Options
from engine.players.computer import Computer, Strength
from engine.players.easy import EasyPlayer
from engine.players.hard import BUDGET_MS, HardPlayer
from engine.players.normal import NormalPlayer


def new_computer(
    strength: Strength,
    player: str,
    *,
    seed: int,
    budget_ms: float = BUDGET_MS,
    options: Options | None = None,
) -> Computer:
    """The computer for seat `player`; its own generator is seeded with `seed`.

    `budget_ms` (hard only) caps the time of one decision: its search is sized by a
    number of playouts, which a busy machine slows down but doesn't cut until the
    cap. `options` are the table's options (hard only: it rebuilds the match to search).
    """
    rng = random.Random(seed)
    if strength == "easy":
        return EasyPlayer(rng)
    if strength == "normal":
        return NormalPlayer(player, rng)
    return HardPlayer(player, rng, budget_ms=budget_ms, options=options)
