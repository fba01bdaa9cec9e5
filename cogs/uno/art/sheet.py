"""The card sheet: every picture in a grid, for the README and for checking the design."""

from __future__ import annotations

import io

from PIL import Image

from engine.cards import Colour, Face

from .catalog import BACK, art_key, card_image

BACKGROUND = (49, 51, 56, 255)  # Discord's dark theme, where most players see the cards


def sheet_rows() -> list[list[str]]:
    """One row per colour, then the wilds and the back, then each wild per colour named."""
    faces = [f.value for f in Face if not f.is_wild]
    wilds = [f.value for f in Face if f.is_wild]
    rows = [[c.value + face for face in faces] for c in Colour]
    rows.append([*wilds, BACK])
    rows += [[art_key(w, c.value) for w in wilds] for c in Colour]
    return rows


def card_sheet(size: int = 128, gap: int = 8) -> Image.Image:
    """The grid, each picture shown `size` pixels wide (as Discord scales an emoji)."""
    rows = sheet_rows()
    columns = max(len(row) for row in rows)
    step = size + gap
    sheet = Image.new("RGBA", (gap + columns * step, gap + len(rows) * step), BACKGROUND)
    for y, row in enumerate(rows):
        for x, key in enumerate(row):
            with Image.open(io.BytesIO(card_image(key))) as picture:
                shown = picture.convert("RGBA").resize((size, size), Image.Resampling.LANCZOS)
            sheet.alpha_composite(shown, (gap + x * step, gap + y * step))
    return sheet
