"""Draw one card picture: a face of any deck, a wild showing the colour named, the back.

Every picture is the same card outline on a transparent square. A suit card is its hue
with a white suit shape (red diamond, yellow circle, green triangle, blue square) and
the symbol in black in the middle; a wild is black with the four shapes, or, once a colour is
named, with that colour's shape alone.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

from engine.cards import Card

from .canvas import Canvas
from .glyphs import symbol_mask
from .palette import INK, PAPER, RGB, SUITS, Suit
from .shapes import draw_suit, rounded_box

CARD = (13.0, 2.0, 115.0, 126.0)
BODY_INSET = 6.0
CENTRE = (64.0, 64.0)
SHAPE_R = 48.0  # half-height of the central suit shape

_SYMBOLS = {
    "S": "skip",
    "R": "reverse",
    "W": "",
    "W+4": "+4",
    "W+2": "+2",
    "WDIP": "dip",
    "WSH": "shuffle",
    "WC": "star",
}

_SIZES = {"skip": 60.0, "reverse": 64.0, "+2": 44.0, "+1": 44.0, "+4": 46.0}


def face_symbol(card: Card) -> str:
    """The symbol a card shows: "7", "+2", or an icon name of glyphs.ICONS ("" for Wild)."""
    value = card.face.value
    return _SYMBOLS.get(value, value)


def blank_card(body: RGB) -> Canvas:
    """The card outline: a dark edge, a white rim, and the body colour."""
    return Canvas(_blank(body))


@cache
def _blank(body: RGB) -> Image.Image:
    canvas = Canvas()
    x0, y0, x1, y1 = CARD
    for inset, colour, radius in ((0.0, INK, 12.0), (1.8, PAPER, 10.5), (BODY_INSET, body, 7.0)):
        mask, draw = Canvas.mask()
        rounded_box(draw, (x0 + inset, y0 + inset, x1 - inset, y1 - inset), radius)
        canvas.fill(mask, colour)
    return canvas.image


def suit_card(card: Card) -> Canvas:
    assert card.colour is not None
    suit = SUITS[card.colour.value]
    canvas = blank_card(suit.hue)
    _shape(canvas, suit, PAPER)
    symbol = face_symbol(card)
    cx, cy = CENTRE
    size = _SIZES.get(symbol, 58.0)
    if suit.shape == "triangle":
        cy, size = cy + 12, size * 0.84
    elif suit.shape == "diamond":
        size *= 0.92
    # Black on white reads best at emoji size; a white rim keeps it clear where it
    # overlaps the coloured body.
    canvas.stamp(symbol_mask(symbol, cx, cy, size), INK, PAPER, 1.2)
    return canvas


def wild_card(card: Card, named: Suit | None = None) -> Canvas:
    canvas = blank_card(INK)
    if named is None:
        for letter, (cx, cy) in zip("RYGB", ((42, 38), (86, 38), (42, 90), (86, 90)), strict=True):
            mask, draw = Canvas.mask()
            suit = SUITS[letter]
            draw_suit(draw, suit.shape, cx, cy, 21.0)
            canvas.fill(mask, suit.hue)
    else:
        _shape(canvas, named, named.hue)
    symbol = face_symbol(card)
    if symbol:
        size = _SIZES.get(symbol, 58.0)
        canvas.stamp(symbol_mask(symbol, *CENTRE, size), PAPER, INK, 2.2)
    return canvas


def back() -> Canvas:
    canvas = blank_card(INK)
    mask, draw = Canvas.mask()
    px = Canvas.px
    draw.ellipse([px(22), px(34), px(106), px(94)], fill=255)
    canvas.fill(mask.rotate(55, center=(px(64), px(64))), SUITS["R"].hue)
    word = symbol_mask("UNO", 64.0, 64.0, 22.0).rotate(12, center=(px(64), px(64)))
    canvas.stamp(word, SUITS["Y"].hue, INK, 1.6)
    return canvas


def _shape(canvas: Canvas, suit: Suit, colour: RGB) -> None:
    mask, draw = Canvas.mask()
    draw_suit(draw, suit.shape, *CENTRE, SHAPE_R)
    canvas.fill(mask, colour)
