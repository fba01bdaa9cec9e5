"""How likely a draw-wild was a bluff, from what the challenger may know (D10, P7, C7)."""

from __future__ import annotations

from collections import Counter

from engine.cards import Card, Colour, Face, classic_deck, duo_deck, pizza_deck
from engine.events import CardPlayed, ColourChosen
from engine.players.memory import Memory
from engine.players.tactics import DRAW_WILDS, seat_of
from engine.views import PrivateView, PublicView

TYPICAL_SHARE = 0.3  # of the cards, about this many match a top card (colour, face, wilds)


def _before_the_wild(
    table: PublicView, memory: Memory | None
) -> tuple[str | None, Card | None, Colour | None]:
    """Who laid the draw-wild, and the top card and colour it was laid on."""
    if memory is not None and memory.top_by is not None and memory.wd_top is not None:
        return memory.top_by, memory.wd_top, memory.wd_active
    played = [e for e in table.recent if isinstance(e, CardPlayed | ColourChosen)]
    for k in range(len(played) - 1, -1, -1):
        event = played[k]
        if isinstance(event, CardPlayed) and event.card.face in DRAW_WILDS:
            earlier = played[:k]
            top = next((e.card for e in reversed(earlier) if isinstance(e, CardPlayed)), None)
            named = next((e.colour for e in reversed(earlier) if isinstance(e, ColourChosen)), None)
            active = top.colour if top is not None and top.colour is not None else named
            return event.player, top, active
    return None, None, None


def _unseen(me: PrivateView, table: PublicView, memory: Memory | None) -> list[Card]:
    decks = {"duo": duo_deck, "classic": classic_deck}
    pool = Counter(decks.get(table.variant, pizza_deck)())
    seen = list(me.hand) + (memory.discard if memory is not None else [])
    if table.top is not None and (memory is None or not memory.discard):
        seen.append(table.top)
    for card in seen:
        if pool[card] > 0:
            pool[card] -= 1
    return list(pool.elements())


def guilty_odds(me: PrivateView, table: PublicView, memory: Memory | None) -> float:
    """The chance the draw-wild's player held another card they could have played."""
    player, top, active = _before_the_wild(table, memory)
    if player is None:
        return 0.3
    held = seat_of(table, player).cards
    unseen = _unseen(me, table, memory)
    if top is None or not unseen:  # what it was laid on went unseen: a typical share
        return 1.0 - (1.0 - TYPICAL_SHARE) ** held
    face = top.face if top.colour is not None else None
    strict = table.variant == "classic"  # C7: only the active colour counts

    def could_play(c: Card) -> bool:
        if strict:
            return c.colour is active and c.colour is not None
        if c.face is Face.WILD_DRAW_FOUR:
            return False
        return c.colour is None or c.colour is active or c.face is face

    q = sum(1 for c in unseen if could_play(c)) / len(unseen)
    known = memory.known.get(player, []) if memory is not None else []
    if any(could_play(c) for c in known):
        return 1.0
    return 1.0 - (1.0 - q) ** max(0, held - len(known))
