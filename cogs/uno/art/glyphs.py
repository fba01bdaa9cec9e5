"""The face symbols (digits, +2, Skip, Reverse, the wilds' marks) as coverage masks.

Text uses Pillow's own built-in font (the same bytes on every machine); the rest are
polygons, so nothing depends on the fonts a machine happens to have.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from .canvas import Canvas, Point
from .shapes import rotate

# Skip, Reverse and the wilds' marks; anything else is drawn as text ("7", "+2").
ICONS = ("skip", "reverse", "shuffle", "star", "dip")


@cache
def _font(pixels: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.load_default(size=pixels)
    assert isinstance(font, ImageFont.FreeTypeFont)  # Pillow is built with FreeType
    return font


def symbol_mask(symbol: str, cx: float, cy: float, size: float) -> Image.Image:
    """A mask of `symbol` about `size` units tall, centred on (cx, cy)."""
    mask, draw = Canvas.mask()
    if symbol in ICONS:
        _ICON_DRAWERS[symbol](draw, cx, cy, size)
    else:
        _text(draw, symbol, cx, cy, size)
    return mask


def _text(draw: ImageDraw.ImageDraw, text: str, cx: float, cy: float, size: float) -> None:
    # Aileron's digits are 0.72 em tall; the stroke in the same ink makes them bold.
    font = _font(round(Canvas.px(size / 0.72)))
    bold = round(Canvas.px(size * 0.07))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font, stroke_width=bold)
    x = Canvas.px(cx) - (left + right) / 2
    y = Canvas.px(cy) - (top + bottom) / 2
    draw.text((x, y), text, font=font, fill=255, stroke_width=bold, stroke_fill=255)


def arrow(cx: float, cy: float, length: float, degrees: float, thick: float) -> list[Point]:
    """An arrow centred on (cx, cy) pointing at `degrees` (0: right, 90: up)."""
    half, t, head, wing = length / 2, thick / 2, length * 0.42, thick * 1.45
    points = [
        (cx - half, cy - t),
        (cx + half - head, cy - t),
        (cx + half - head, cy - wing),
        (cx + half, cy),
        (cx + half - head, cy + wing),
        (cx + half - head, cy + t),
        (cx - half, cy + t),
    ]
    return rotate(points, degrees, cx, cy)


def _polygon(draw: ImageDraw.ImageDraw, points: list[Point]) -> None:
    draw.polygon(Canvas.points(points), fill=255)


def _skip(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    r, w = size / 2, size * 0.2
    px = Canvas.px
    draw.ellipse([px(cx - r), px(cy - r), px(cx + r), px(cy + r)], outline=255, width=round(px(w)))
    d = (r - w / 2) / math.sqrt(2)
    draw.line([px(cx - d), px(cy + d), px(cx + d), px(cy - d)], fill=255, width=round(px(w)))


def _pair(cx: float, cy: float, size: float, degrees: float) -> list[list[Point]]:
    """Two arrows side by side pointing opposite ways, the pair turned by `degrees`."""
    gap, length, thick = size * 0.27, size * 0.92, size * 0.19
    first = arrow(cx + size * 0.06, cy - gap, length, 0, thick)
    second = arrow(cx - size * 0.06, cy + gap, length, 180, thick)
    return [rotate(first, degrees, cx, cy), rotate(second, degrees, cx, cy)]


def _reverse(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    for points in _pair(cx, cy, size, 45):
        _polygon(draw, points)


def _shuffle(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    for points in _pair(cx, cy, size, 0):
        _polygon(draw, points)


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    outer, inner = size * 0.58, size * 0.25
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = math.radians(90 + 36 * i)
        points.append((cx + r * math.cos(a), cy + size * 0.06 - r * math.sin(a)))
    _polygon(draw, points)


def _dip(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    # An arrow dipping into a stack of cards.
    px = Canvas.px
    _polygon(draw, arrow(cx, cy - size * 0.16, size * 0.66, 270, size * 0.2))
    w, h = size * 0.5, size * 0.1
    for i in range(2):
        top = cy + size * (0.26 + 0.16 * i)
        box = [px(cx - w), px(top), px(cx + w), px(top + h)]
        draw.rounded_rectangle(box, radius=px(h / 3), fill=255)


_ICON_DRAWERS = {
    "skip": _skip,
    "reverse": _reverse,
    "shuffle": _shuffle,
    "star": _star,
    "dip": _dip,
}
