"""The draw and discard piles: drawing, refilling (D12 unshuffled, P9/C9
shuffled), and the deck checks of snapshots and test builders (D1, P1, C1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.board import NO_CARDS, Board
from engine.cards import MATCHING, Card, shuffle
from engine.events import CardsDrawn, DrawPileRefilled, DrawReason, Event

_TURN = DrawReason.TURN
# Shared events (immutable values): with ten hands holding most of a classic deck the
# draw pile runs out every twenty actions or so, and building an event costs about
# as much as the rest of the refill.
_REFILLED = {n: DrawPileRefilled(n) for n in range(1, 128)}


def sync_playable(t: Board) -> None:
    """Recompute `playable` after the top card or the active colour changed."""
    t.playable = MATCHING[t.discard[-1]].get(t.active, NO_CARDS) if t.discard else NO_CARDS


def refill(t: Board, events: list[Event]) -> bool:
    """Keep the top discard; the rest becomes the draw pile. False if nothing is left."""
    discard = t.discard
    if len(discard) < 2:
        return False
    rest = discard[:-1]
    del discard[:-1]
    if t.shuffled_refill:  # P9, C9
        shuffle(t.rng, rest)
    else:  # D12: turned over as one stack, the oldest card on top
        rest.reverse()
    t.draw = rest
    events.append(_REFILLED.get(len(rest)) or DrawPileRefilled(len(rest)))
    return True


def draw_cards(t: Board, i: int, n: int, reason: DrawReason, events: list[Event]) -> Card | None:
    """Seat `i` draws up to `n` cards, refilling when empty; the last card drawn.

    With nothing left anywhere the rest of the draw is dropped (D12, P9, C9).
    """
    hand = t.hands[i]
    draw = t.draw
    got = 0
    last: Card | None = None
    while got < n:
        if not draw:
            if not refill(t, events):
                break
            draw = t.draw
        last = draw.pop()
        hand.append(last)
        got += 1
    if got == 1 and reason is _TURN:
        events.append(t.said[i].drew_one)  # the commonest draw: one shared event per seat
    else:
        events.append(drawn_event(t.players[i], got, reason))
    return last


_DRAWN: dict[tuple[str, int, DrawReason], CardsDrawn] = {}
_DRAWN_KEPT = 8192


def drawn_event(player: str, count: int, reason: DrawReason) -> CardsDrawn:
    """`CardsDrawn(player, count, reason)`, shared: events are immutable values."""
    key = (player, count, reason)
    event = _DRAWN.get(key)
    if event is None:
        if len(_DRAWN) >= _DRAWN_KEPT:
            _DRAWN.clear()  # bounded however many players the bot sees
        event = _DRAWN[key] = CardsDrawn(player, count, reason)
    return event


def all_cards(t: Board) -> Iterable[Card]:
    for pile in (*t.hands, t.draw, t.discard, t.draft):
        yield from pile


def check_cards(t: Board, deck: list[Card]) -> None:
    """ValueError unless every card comes from one `deck`."""
    extra = Counter(all_cards(t)) - Counter(deck)
    if extra:
        card = next(iter(extra))
        raise ValueError(f"the match holds more {card.code} than the deck")


def fill(t: Board, deck: list[Card], *, shuffled: bool) -> None:
    """Put the rest of the deck under the draw pile, shuffled by the match's generator
    or in deck order (test builders)."""
    rest = list((Counter(deck) - Counter(all_cards(t))).elements())
    rest.sort(key=deck.index)
    if shuffled:
        shuffle(t.rng, rest)
    t.draw[:0] = rest
