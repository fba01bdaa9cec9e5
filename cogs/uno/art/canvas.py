"""A picture drawn at four times its size, then reduced: smooth edges without a font
renderer's or a platform's anti-aliasing, so every machine makes the same bytes."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFilter

from .palette import RGB

SIZE = 128  # the emoji's pixels: Discord shows it at 22-48 px and as a 128 px image
SCALE = 4

Point = tuple[float, float]


class Canvas:
    """An RGBA picture in SIZE units; masks are drawn at SIZE * SCALE."""

    def __init__(self, image: Image.Image | None = None) -> None:
        side = SIZE * SCALE
        self.image = image.copy() if image else Image.new("RGBA", (side, side), (0, 0, 0, 0))

    @staticmethod
    def mask() -> tuple[Image.Image, ImageDraw.ImageDraw]:
        """A blank coverage mask to draw a shape into, with 255."""
        mask = Image.new("L", (SIZE * SCALE, SIZE * SCALE), 0)
        return mask, ImageDraw.Draw(mask)

    @staticmethod
    def px(value: float) -> float:
        return value * SCALE

    @staticmethod
    def points(points: Sequence[Point]) -> list[Point]:
        return [(x * SCALE, y * SCALE) for x, y in points]

    def fill(self, mask: Image.Image, colour: RGB) -> None:
        box = mask.getbbox()
        if box is not None:  # pasting only the covered box is several times faster
            self.image.paste(colour, box, mask.crop(box))

    def stamp(self, mask: Image.Image, colour: RGB, outline: RGB, width: float) -> None:
        """Fill `mask` with `colour`, ringed by `outline` about `width` units wide."""
        self.fill(grow(mask, width), outline)
        self.fill(mask, colour)

    def png(self) -> bytes:
        small = self.image.reduce(SCALE)  # the mean of each 4 x 4 block
        out = io.BytesIO()
        small.save(out, format="PNG")
        return out.getvalue()


def grow(mask: Image.Image, width: float) -> Image.Image:
    """The mask widened by about `width` units on every side (a blur, then a cut)."""
    radius = width * SCALE
    blurred = mask.filter(ImageFilter.GaussianBlur(radius / 2))
    return blurred.point(lambda v: 255 if v > 6 else 0)
