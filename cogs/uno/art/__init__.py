"""Card pictures drawn with Pillow, and their upload as the bot's application emojis.

Pure drawing in draw/glyphs/shapes/canvas (no Discord); `catalog` names every picture;
`cache` keeps the drawn pictures between starts;
`emojis.CardEmojis` makes sure they exist as emojis and answers, per card, the emoji
for a button, the inline text for a message and the image URL for a thumbnail.
"""

from __future__ import annotations

from .cache import cached_images
from .catalog import BACK, art_key, art_keys, card_image, content_hash, emoji_name
from .emojis import CardEmojis, SyncResult, every_card_image

__all__ = [
    "BACK",
    "CardEmojis",
    "SyncResult",
    "art_key",
    "art_keys",
    "cached_images",
    "card_image",
    "content_hash",
    "emoji_name",
    "every_card_image",
]
