"""Each suit's hue and shape, and the few neutral tones every picture shares.

The shape is what a colour-blind player reads: red and green (or blue and green) can
look alike, a diamond and a triangle never do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Shape = Literal["diamond", "circle", "triangle", "square"]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Suit:
    letter: str  # the card notation's colour letter (engine.cards.Colour.value)
    name: str
    hue: RGB
    shape: Shape


SUITS: dict[str, Suit] = {
    "R": Suit("R", "red", (226, 35, 26), "diamond"),
    "Y": Suit("Y", "yellow", (250, 200, 10), "circle"),
    "G": Suit("G", "green", (40, 160, 60), "triangle"),
    "B": Suit("B", "blue", (18, 100, 214), "square"),
}

INK: RGB = (22, 22, 26)  # outlines and the wild cards' body
PAPER: RGB = (255, 255, 255)
