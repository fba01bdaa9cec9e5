"""Table options of every variant (docs/rules.md D1, D10, D14, P11, C11).

Each variant has its own frozen options record; classic UNO's house rules
(H1–H4) are flags whose default (off) keeps the classic game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Variant = Literal["duo", "pizza", "classic"]


@dataclass(frozen=True, slots=True)
class DuoOptions:
    """Table options of docs/rules.md for UNO Duo."""

    target: int = 200  # D14
    classic_deck: bool = False  # D1: 108 cards instead of 112
    classic_challenge: bool = False  # D10: only a card of the active colour counts


@dataclass(frozen=True, slots=True)
class PizzaOptions:
    """Table options of docs/rules.md for UNO Pocket Pizza Pizza."""

    target: int = 250  # P11


@dataclass(frozen=True, slots=True)
class ClassicOptions:
    """Table options of docs/rules.md for classic UNO."""

    target: int = 500  # C11
    stacking: bool = False  # H1
    seven_o: bool = False  # H2
    jump_in: bool = False  # H3
    draw_to_match: bool = False  # H4


Options = DuoOptions | PizzaOptions | ClassicOptions

OPTIONS: dict[Variant, type[Options]] = {
    "duo": DuoOptions,
    "pizza": PizzaOptions,
    "classic": ClassicOptions,
}
"""Each variant's options record."""


def options_for(variant: Variant, *, target: int) -> Options:
    """The variant's options with `target` and every other option at its default."""
    return OPTIONS[variant](target=target)
