"""Reading a hand back out of its words, to scan replay frames for other players' cards.

A hand is drawn one line per colour (`🟥 Red: 3, 7 ×2, Skip`, render.hand_lines),
so a card's own title ("Red 7") never appears in it: a scan must read the lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from cogs.uno.render.words import _face_words, colour_name  # the words the hand lines use
from engine.cards import Card

CARD_MARK = re.compile(r"<:uno_[a-z0-9_]+:\d+>|[\U0001f7e5\U0001f7e8\U0001f7e9\U0001f7e6\u2b1b]")
COUNT = re.compile(r"^(?P<face>.+?)(?: ×(?P<n>\d+))?$")
LEGEND = "Playable cards are in **bold**."

Key = tuple[str, str]  # (colour heading, face words), in English


def card_key(card: Card) -> Key:
    return ("Wilds" if card.colour is None else colour_name(card.colour), _face_words(card))


def cards_of(cards: Iterable[Card]) -> Counter[Key]:
    return Counter(card_key(c) for c in cards)


def hand_read(text: str) -> Counter[Key]:
    """The cards a hand's lines name (bold, pictures and the legend ignored)."""
    found: Counter[Key] = Counter()
    for raw in text.replace(LEGEND, "").replace("**", "").splitlines():
        line = CARD_MARK.sub("", raw).strip()
        if ":" not in line:
            continue
        heading, _, items = line.partition(":")
        for item in items.split(","):
            matched = COUNT.match(item.strip())
            if matched and matched["face"]:
                found[(heading.strip(), matched["face"].strip())] += int(matched["n"] or 1)
    return found


def others_only(mine: Iterable[Card], others: Iterable[Iterable[Card]]) -> set[Key]:
    """Cards other players held that the viewer held none of."""
    own = cards_of(mine)
    return {card_key(c) for hand in others for c in hand if card_key(c) not in own}
