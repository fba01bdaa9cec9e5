"""Card pictures: one for every face of the three decks, each wild with each colour named,
and the back; square, transparent around the card, all different, with valid emoji names."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from cogs.uno.art import BACK, art_key, art_keys, card_image, content_hash, emoji_name
from cogs.uno.art.catalog import picture
from cogs.uno.art.draw import face_symbol
from cogs.uno.art.glyphs import ICONS
from cogs.uno.art.sheet import card_sheet, sheet_rows
from engine.cards import Colour, duo_deck, pizza_deck

EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
KEYS = art_keys()


def image(key: str) -> Image.Image:
    with Image.open(io.BytesIO(card_image(key))) as picture_file:
        picture_file.load()
        return picture_file.copy()


def test_every_card_of_the_three_decks_has_a_picture() -> None:
    decks = [duo_deck(), duo_deck(classic=True), pizza_deck()]
    codes = {card.code for deck in decks for card in deck}
    wilds = {card.code for deck in decks for card in deck if card.is_wild}
    assert wilds == {"W", "W+4", "WSH", "WC", "WDIP", "W+2"}
    named = {art_key(w, c.value) for w in wilds for c in Colour}
    assert set(KEYS) == codes | named | {BACK}
    assert len(KEYS) == len(set(KEYS)) == 87


@pytest.mark.parametrize("key", KEYS)
def test_picture_is_a_128_px_square_transparent_around_the_card(key: str) -> None:
    picture_file = image(key)
    assert card_image(key).startswith(b"\x89PNG\r\n\x1a\n")
    assert picture_file.mode == "RGBA"
    assert picture_file.size == (128, 128)
    alpha = picture_file.getchannel("A")
    for corner in ((0, 0), (127, 0), (0, 127), (127, 127), (2, 64), (125, 64)):
        assert alpha.getpixel(corner) == 0, corner
    assert alpha.getpixel((64, 64)) == 255
    assert len(card_image(key)) < 256 * 1024  # Discord's emoji limit


def test_no_two_pictures_are_identical() -> None:
    pixels = {key: image(key).tobytes() for key in KEYS}
    assert len(set(pixels.values())) == len(KEYS)
    assert len({content_hash(card_image(key)) for key in KEYS}) == len(KEYS)


def test_colours_differ_by_shape_not_only_by_hue() -> None:
    # The white suit shape of a Red 5, Yellow 5... must differ in outline, so a player
    # who cannot tell the hues apart still tells the cards apart.
    def white(key: str) -> set[int]:
        grey = image(key).convert("L").tobytes()  # white is 255; the yellow body about 193
        return {i for i, level in enumerate(grey) if level > 240}

    # The closest pair, circle and square, differ by their corners: about 1/6 of the shape.
    for face in ("1", "5", "S", "R", "+1", "+2"):
        shapes = {c.value: white(c.value + face) for c in Colour}
        for a in shapes:
            for b in shapes:
                if a < b:
                    differ = len(shapes[a] ^ shapes[b])
                    assert differ > 0.12 * min(len(shapes[a]), len(shapes[b])), (face, a, b)


def test_a_wild_with_a_colour_named_shows_that_colour() -> None:
    blue = image(art_key("W+4", "B")).convert("RGB").getpixel((64, 100))
    red = image(art_key("W+4", "R")).convert("RGB").getpixel((64, 100))
    assert isinstance(blue, tuple)
    assert isinstance(red, tuple)
    assert blue[2] > 150 > blue[0]
    assert red[0] > 150 > red[2]


def test_every_face_has_its_own_symbol() -> None:
    symbols = {face_symbol(picture_card) for picture_card in pizza_deck() + duo_deck()}
    assert {"skip", "reverse", "shuffle", "star", "dip", "+4", "+2", "+1", "0", "9"} <= symbols
    assert set(ICONS) <= symbols


def test_emoji_names_are_valid_unique_and_follow_the_picture() -> None:
    names = [emoji_name(key, card_image(key)) for key in KEYS]
    assert all(EMOJI_NAME.fullmatch(name) and name.startswith("uno_") for name in names)
    assert len(set(names)) == len(names)
    assert emoji_name("R5", card_image("R5")) == "uno_r5_" + content_hash(card_image("R5"))
    assert emoji_name("W+4/B", card_image("W+4/B")).startswith("uno_wp4_b_")
    # A redrawn card gets a new name; the same picture keeps its name.
    assert emoji_name("R5", card_image("R6")) != emoji_name("R5", card_image("R5"))
    assert emoji_name("R5", picture("R5").png()) == emoji_name("R5", card_image("R5"))


@pytest.mark.parametrize("key", ["R5/B", "W/X", "Z9", ""])
def test_a_key_that_names_no_picture_is_refused(key: str) -> None:
    with pytest.raises(ValueError, match=r"picture|unknown card"):
        picture(key)


def test_the_card_sheet_shows_every_picture_once() -> None:
    rows = sheet_rows()
    shown = [key for row in rows for key in row]
    assert sorted(shown) == sorted(KEYS)
    sheet = card_sheet(32, 4)
    assert sheet.size == (4 + 14 * 36, 4 + len(rows) * 36)
