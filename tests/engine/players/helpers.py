"""Seat computers at real matches for the players' tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from engine.actions import Action
from engine.match import (
    ClassicOptions,
    DuoOptions,
    Match,
    Options,
    PizzaOptions,
    Variant,
    new_match,
)
from engine.players import Computer, EasyPlayer, HardPlayer, NormalPlayer, next_move

# Every variant the engine has, with the seat counts to try.
VARIANTS: list[tuple[Variant, int]] = [
    ("duo", 2),
    *(("pizza", n) for n in (2, 3, 4, 5)),
    *(("classic", n) for n in (2, 3, 4, 7, 10)),
]
SHORT: dict[str, Options] = {
    "duo": DuoOptions(target=60),
    "pizza": PizzaOptions(target=80),
    "classic": ClassicOptions(target=120),
}
# Classic with every house rule on (H1–H4).
HOUSE = ClassicOptions(target=120, stacking=True, seven_o=True, jump_in=True, draw_to_match=True)


def computer(kind: str, player: str, seed: int, options: Options | None = None) -> Computer:
    """A computer of `kind` (easy, normal, hard); the hard one quick and reproducible."""
    rng = random.Random(seed)
    if kind == "easy":
        return EasyPlayer(rng)
    if kind == "normal":
        return NormalPlayer(player, rng)
    return HardPlayer(player, rng, samples=2, depth=12, options=options)


def short_match(variant: Variant, players: int, seed: int, options: Options | None = None) -> Match:
    ids = [f"p{i}" for i in range(players)]
    return new_match(variant, players=ids, seed=seed, options=options or SHORT[variant])


def play(
    match: Match,
    seats: Mapping[str, Computer],
    *,
    check: Callable[[Match, str, Action], None] | None = None,
    max_steps: int = 20_000,
) -> Match:
    """Play with the table's loop (`next_move`), calling `check` before each action."""
    for _ in range(max_steps):
        move = next_move(match, seats)
        if move is None:
            return match
        if check is not None:
            check(match, *move)
        match.apply(*move)
    raise AssertionError("the match did not end")
