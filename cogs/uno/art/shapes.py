"""The suit shapes and the card outline, as coverage masks in SIZE units."""

from __future__ import annotations

import math

from PIL import ImageDraw

from .canvas import Canvas, Point
from .palette import Shape


def suit_points(shape: Shape, cx: float, cy: float, r: float) -> list[Point]:
    """A polygon for the pointed shapes; r is the half-height."""
    if shape == "diamond":
        r *= 1.08  # spans the whole body, so its points show around a wide symbol
        w = r * 0.84
        return [(cx, cy - r), (cx + w, cy), (cx, cy + r), (cx - w, cy)]
    if shape == "triangle":
        # Centred on its box, not its centroid, so it sits level with the others.
        half = r * 0.92
        return [(cx, cy - r), (cx + half, cy + r * 0.85), (cx - half, cy + r * 0.85)]
    raise ValueError(shape)


def draw_suit(draw: ImageDraw.ImageDraw, shape: Shape, cx: float, cy: float, r: float) -> None:
    """Draw the suit's shape about (cx, cy), about 2r across, into a mask."""
    px = Canvas.px
    if shape == "circle":
        r *= 0.92  # a circle looks larger than a square of the same span
        draw.ellipse([px(cx - r), px(cy - r), px(cx + r), px(cy + r)], fill=255)
    elif shape == "square":
        r *= 0.82
        box = [px(cx - r), px(cy - r), px(cx + r), px(cy + r)]
        draw.rounded_rectangle(box, radius=px(r * 0.12), fill=255)
    else:
        draw.polygon(Canvas.points(suit_points(shape, cx, cy, r)), fill=255)


def rounded_box(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: float
) -> None:
    x0, y0, x1, y1 = box
    px = Canvas.px
    draw.rounded_rectangle([px(x0), px(y0), px(x1), px(y1)], radius=px(radius), fill=255)


def rotate(points: list[Point], degrees: float, cx: float, cy: float) -> list[Point]:
    """Turn points about (cx, cy), counter-clockwise on screen."""
    a = math.radians(-degrees)
    cos, sin = math.cos(a), math.sin(a)
    return [
        (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
        for x, y in points
    ]
