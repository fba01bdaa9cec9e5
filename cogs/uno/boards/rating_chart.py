"""A small chart of a member's rating over their last matches, drawn with Pillow (pure)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from cogs.uno.i18n.l10n import tn
from db.models import RatingChange

WIDTH, HEIGHT = 480, 200
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 44, 12, 24, 22
BACKGROUND = (43, 45, 49)  # Discord's dark theme, so the chart sits in the embed
GRID = (78, 80, 88)
TEXT = (219, 222, 225)
# One line per game, each its own colour and dash-free: the legend names them too.
LINES = {"duo": (88, 101, 242), "pizza": (237, 66, 69), "classic": (87, 242, 135)}
FILE_NAME = "rating.png"
# DejaVu Sans cut down to the Latin letters (Croatian's included): Pillow's built-in
# font has no č, ć, đ, š or ž, and a font of our own draws the same on every machine.
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSans-Latin.ttf"
FONT_SIZE = 11


def points(history: Sequence[RatingChange]) -> list[float]:
    """The skill shown (mu - 3 sigma) before the first change, then after each."""
    if not history:
        return []
    return [history[0].conservative_before] + [c.conservative_after for c in history]


@cache
def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILE), FONT_SIZE)


def chart_png(series: Mapping[str, Sequence[float]], titles: Mapping[str, str]) -> bytes:
    """A line per game with at least one change; the y axis spans every value shown."""
    drawn = {name: list(values) for name, values in series.items() if len(values) >= 2}
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = _font()
    values = [v for line in drawn.values() for v in line] or [0.0, 1.0]
    low, high = min(values), max(values)
    if high - low < 1.0:  # a flat line sits mid-chart instead of on an edge
        low, high = low - 0.5, high + 0.5
    left, top = MARGIN_LEFT, MARGIN_TOP
    right, bottom = WIDTH - MARGIN_RIGHT, HEIGHT - MARGIN_BOTTOM

    def y_of(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for value in (low, (low + high) / 2, high):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=GRID)
        draw.text((4, y - 6), f"{value:.1f}", fill=TEXT, font=font)
    longest = max((len(line) for line in drawn.values()), default=2)
    step = (right - left) / max(1, longest - 1)
    legend_x = left
    for name, line in drawn.items():
        colour = LINES.get(name, TEXT)
        xy = [(left + i * step, y_of(v)) for i, v in enumerate(line)]
        draw.line(xy, fill=colour, width=3)
        for x, y in xy:
            draw.ellipse([x - 2, y - 2, x + 2, y + 2], fill=colour)
        label = titles.get(name, name)
        draw.rectangle([legend_x, 6, legend_x + 10, 16], fill=colour)
        draw.text((legend_x + 14, 5), label, fill=TEXT, font=font)
        legend_x += 20 + int(draw.textlength(label, font=font))
    caption = tn(
        "skill over the last {count} game", "skill over the last {count} games", longest - 1
    )
    draw.text((left, bottom + 5), caption, fill=TEXT, font=font)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
