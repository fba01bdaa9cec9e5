"""Every card picture by key, its PNG, its content hash and its emoji name.

A key is a card's notation ("R5", "W+4"), a wild with the colour named ("W+4/B": the
table's top card after Blue was named), or "back".
"""

from __future__ import annotations

import hashlib
import io
from functools import cache

from PIL import Image

from engine.cards import Card, Colour, Face

from .canvas import Canvas
from .draw import back, suit_card, wild_card
from .palette import SUITS

BACK = "back"
EMOJI_PREFIX = "uno_"
HASH_LENGTH = 8


def art_key(code: str, named: str | None = None) -> str:
    """The key of a card's picture; `named` is the colour letter a wild was given."""
    return code if named is None else f"{code}/{named}"


def art_keys() -> tuple[str, ...]:
    """Every picture: the faces of all three decks, each wild with each colour, the back."""
    faces = [f.value for f in Face if not f.is_wild]
    wilds = [f.value for f in Face if f.is_wild]
    keys = [c.value + face for c in Colour for face in faces]
    keys += wilds
    keys += [art_key(w, c.value) for w in wilds for c in Colour]
    keys.append(BACK)
    return tuple(keys)


def picture(key: str) -> Canvas:
    """Draw the picture of `key`; ValueError for a key that names no picture."""
    if key == BACK:
        return back()
    code, _, named = key.partition("/")
    card = Card.parse(code)
    if not named:
        return wild_card(card) if card.is_wild else suit_card(card)
    if not card.is_wild or named not in SUITS:
        raise ValueError(f"no picture {key!r}: only a wild is shown with a colour named")
    return wild_card(card, SUITS[named])


@cache
def card_image(key: str) -> bytes:
    """The PNG of `key` (128 x 128, transparent around the card), drawn once per process."""
    return picture(key).png()


def content_hash(png: bytes) -> str:
    """A short hash of the pixels (not of the PNG bytes, which a zlib build may vary)."""
    with Image.open(io.BytesIO(png)) as image:
        rgba = image.convert("RGBA")
    digest = hashlib.sha256(f"{rgba.width}x{rgba.height}:".encode() + rgba.tobytes())
    return digest.hexdigest()[:HASH_LENGTH]


def emoji_name(key: str, png: bytes) -> str:
    """`uno_<card>_<hash>`: a redrawn card gets a new name, an unchanged one keeps its own.

    Discord allows 2-32 characters of [A-Za-z0-9_]: "+" reads "p", the named colour
    follows an underscore ("W+4/B" -> uno_wp4_b_1a2b3c4d).
    """
    slug = key.lower().replace("+", "p").replace("/", "_")
    return f"{EMOJI_PREFIX}{slug}_{content_hash(png)}"
