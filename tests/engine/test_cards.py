"""engine.cards helpers that must match the standard library exactly (X4)."""

from __future__ import annotations

import random
from typing import cast

import pytest

from engine.cards import Card, duo_deck, shuffle


@pytest.mark.parametrize("size", [*range(0, 70), 112, 255, 256, 257, 600])
def test_shuffle_is_random_shuffle(size: int) -> None:
    # Stored games replay from their seed: the same permutation and generator state.
    for seed in range(3):
        # Distinct items, so that every position of the permutation shows.
        expected, got = (cast(list[Card], list(range(size))) for _ in range(2))
        reference, rng = random.Random(seed), random.Random(seed)
        reference.shuffle(expected)
        shuffle(rng, got)
        assert got == expected
        assert rng.getstate() == reference.getstate()


class _Reversing(random.Random):
    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        x.reverse()


def test_shuffle_of_a_random_subclass_uses_its_own_shuffle() -> None:
    cards = duo_deck()[:3]
    shuffle(_Reversing(0), cards)
    assert cards == duo_deck()[:3][::-1]
