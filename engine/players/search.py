"""Play a sampled world out with the engine, to judge one first move.

The world is a snapshot built by `engine.players.world` from what the seat may
know; the engine rebuilds a match from it (`from_snapshot`) and every seat then
plays the normal player's moves until the round ends or `depth` decisions
pass. The value is from the searching seat's side: winning the round is worth
about +1 (more with the points it scores), losing about -1 (worse with the
points left in its hand); a cut-off round is judged by the hand sizes.
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol

from engine.actions import Action
from engine.events import Event, RoundEnded
from engine.match import from_snapshot
from engine.players.normal import normal_action
from engine.players.values import card_value
from engine.views import PrivateView, PublicView

POINTS_SCALE = {"duo": 100.0, "pizza": 150.0, "classic": 250.0}


class Simulation(Protocol):
    """What a playout needs of a match rebuilt from a sampled world."""

    @property
    def is_over(self) -> bool: ...

    def apply(self, player: str, action: Action) -> list[Event]: ...

    def waiting_for(self) -> tuple[str, ...]: ...

    def public_view(self) -> PublicView: ...

    def private_view(self, player: str) -> PrivateView: ...


def round_value(event: RoundEnded, me: str, variant: str) -> float:
    """How good a finished round is for `me`, about -1 to +1 and a bit beyond."""
    scale = POINTS_SCALE.get(variant, 150.0)
    points = dict(event.points)
    hands = dict(event.hands)
    if variant == "duo":
        if event.winner == me:
            return 1.0 + sum(v for p, v in points.items() if p != me) / scale
        return -1.0 - points.get(me, 0) / scale
    if event.winner == me:
        return 1.0 + points.get(me, 0) / scale
    mine = sum(card_value(variant, c) for c in hands.get(me, ()))
    return -1.0 / max(1, len(points) - 1) - mine / scale


# How fast a seat's chance to win the round falls with each card it holds, at tables of
# 3+ seats: P(seat wins) is taken as proportional to exp(-cards / ROUND_SPREAD).
ROUND_SPREAD = {"pizza": 2.0, "classic": 3.0}


def estimate(table: PublicView, me: str) -> float:
    """A round cut off: fewer cards than the others is better.

    At a table the seat closest to going out matters, not the average: the value is
    the round's expected value if each seat wins with a chance that falls with its
    hand size (winning about +1, losing about -1 / (seats - 1), as in `round_value`).
    """
    spread = ROUND_SPREAD.get(table.variant)
    if spread is not None:
        return _table_estimate(table, me, spread)
    mine = next(s.cards for s in table.seats if s.player == me)
    others = [s.cards for s in table.seats if s.seated and s.player != me]
    if not others:
        return 0.0
    lead = (sum(others) / len(others) - mine) / 7
    return max(-0.8, min(0.8, lead))


def _table_estimate(table: PublicView, me: str, spread: float) -> float:
    weights = {s.player: math.exp(-s.cards / spread) for s in table.seats if s.seated}
    if len(weights) < 2 or me not in weights:
        return 0.0
    chance = weights[me] / sum(weights.values())
    return chance - (1.0 - chance) / (len(weights) - 1)


def _ended(events: list[Event], me: str, variant: str) -> float | None:
    for event in events:
        if isinstance(event, RoundEnded):
            return round_value(event, me, variant)
    return None


def playout(world: dict[str, Any], me: str, first: Action, rng: random.Random, depth: int) -> float:
    """Apply `first` for `me` in the world, play on with the normal player, judge."""
    sim: Simulation = from_snapshot(world)
    variant = str(world["variant"])
    value = _ended(sim.apply(me, first), me, variant)
    if value is not None:
        return value
    for _ in range(depth):
        waiting = sim.waiting_for()
        if not waiting:
            break
        player = waiting[0]
        action = normal_action(sim.private_view(player), sim.public_view(), rng)
        value = _ended(sim.apply(player, action), me, variant)
        if value is not None:
            return value
    return estimate(sim.public_view(), me)
