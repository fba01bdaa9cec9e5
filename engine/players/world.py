"""Deal the cards a seat cannot see, consistently with everything public.

`sample_world` builds one possible whole state of the match, as a snapshot in
the engine's public format (`engine.match.from_snapshot` reads it), from:

- the seat's own hand and the public view (counts, top card, piles, scores);
- its `Memory` of the round (the discard pile, the known part of the draw pile,
  cards known in an opponent's hand, what an opponent could not play on).

The cards nobody at the table has seen are shuffled and dealt into the hidden
places: the opponents' hands (first the cards a pass rules out are kept away
from them), the unknown part of the draw pile, the part of the discard pile the
memory missed. Every count the views show is kept, so the engine continues from
the sampled state by its real rules.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, Colour, Face, duo_deck, pizza_deck
from engine.match import SNAPSHOT_SCHEMA, DuoOptions
from engine.players.memory import Constraint, Memory
from engine.views import Pending, Phase, PrivateView, PublicView


@dataclass(slots=True)
class Deal:
    """Where every card of one sampled world lies."""

    hands: dict[str, list[Card]] = field(default_factory=dict)
    draw: list[Card] = field(default_factory=list)  # the end is the top
    discard: list[Card] = field(default_factory=list)  # the end is the top


def deck_of(variant: str, options: DuoOptions) -> list[Card]:
    if variant == "duo":
        return duo_deck(classic=options.classic_deck)
    return pizza_deck()


def _take(pool: Counter[Card], cards: list[Card]) -> list[Card]:
    """Remove what the pool still holds of `cards`; return what it held."""
    found: list[Card] = []
    for card in cards:
        if pool[card] > 0:
            pool[card] -= 1
            found.append(card)
    return found


def _deal_hand(
    unseen: list[Card], size: int, layers: list[Constraint], rng: random.Random
) -> list[Card]:
    """`size` cards from the shuffled `unseen`, the first ones avoiding what a pass ruled out."""
    hand: list[Card] = []
    layers = sorted(layers, key=lambda layer: -layer[1])
    for slot in range(size):
        banned = frozenset().union(*(cards for cards, n in layers if n > slot))
        at = next((i for i, c in enumerate(unseen) if c not in banned), 0) if banned else 0
        if not unseen:
            break
        hand.append(unseen.pop(at))
    return hand


def deal(
    me: PrivateView, table: PublicView, memory: Memory, rng: random.Random, deck: list[Card]
) -> Deal:
    """Place every card of `deck` the seat cannot see, keeping every public count."""
    pool = Counter(deck)
    _take(pool, list(me.hand))
    top = [table.top] if table.top is not None else []
    _take(pool, top)
    discard_known = _take(pool, memory.discard[:-1]) + top if memory.discard else top
    pile = [c if c is None or pool[c] > 0 else None for c in memory.pile]
    _take(pool, [c for c in pile if c is not None])
    known = {p: _take(pool, cards) for p, cards in memory.known.items()}
    recycled = _take(pool, memory.recycled)
    unseen = list(pool.elements())
    rng.shuffle(recycled)
    rng.shuffle(unseen)
    result = Deal()
    # A shuffled refill's cards are in the draw pile, unless drawn since (then anywhere).
    holes = [i for i, c in enumerate(pile) if c is None]
    for i in holes[: len(recycled)]:
        pile[i] = recycled.pop()
    unseen += recycled
    rng.shuffle(unseen)
    for seat in table.seats:
        if seat.player == me.player:
            result.hands[seat.player] = list(me.hand)
            continue
        hand = known.get(seat.player, [])[: seat.cards]
        layers = memory.constraints.get(seat.player, [])
        hand += _deal_hand(unseen, seat.cards - len(hand), layers, rng)
        result.hands[seat.player] = hand
    result.draw = [c if c is not None else unseen.pop() for c in pile if c is not None or unseen]
    missing = max(0, table.discard_pile - len(discard_known))
    result.discard = [unseen.pop() for _ in range(min(missing, len(unseen)))] + discard_known
    return result


def legit_draw_wild(
    variant: str, hand: list[Card], top: Card | None, active: Colour | None
) -> bool:
    """D10/P7: no other card of the hand could have been played on the previous top."""
    if top is None:
        return True
    face = top.face if top.colour is not None else None
    for c in hand:
        if c.face is Face.WILD_DRAW_FOUR and variant == "duo":
            continue
        if c.colour is None or c.colour is active or c.face is face:
            return False
    return True


def _draw_wild_player(table: PublicView, memory: Memory) -> str | None:
    """Who laid the draw-wild on top, while it is still to be judged (its colour or answer)."""
    top = table.top
    if top is None or top.face not in (Face.WILD_DRAW_FOUR, Face.WILD_DRAW_TWO):
        return None
    if table.pending is not Pending.COLOUR and table.pending is not Pending.WILD_DRAW:
        return None
    return memory.top_by


def _before_draw_wild(memory: Memory, cards: Deal) -> tuple[Card, Colour | None]:
    """The top card and colour the draw-wild was laid on (D10, P7)."""
    if memory.wd_top is not None:
        return memory.wd_top, memory.wd_active
    below = cards.discard[-2] if len(cards.discard) >= 2 else cards.discard[-1]
    return below, below.colour


def _index(table: PublicView, player: str | None) -> int:
    names = [s.player for s in table.seats]
    return names.index(player) if player in names else -1


def _exposed(table: PublicView) -> int:
    return next((i for i, s in enumerate(table.seats) if s.exposed), -1)


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = random.Random(rng.getrandbits(64)).getstate()
    return [version, list(internal), gauss]


def sample_world(
    me: PrivateView,
    table: PublicView,
    memory: Memory,
    rng: random.Random,
    options: DuoOptions,
) -> dict[str, Any]:
    """One whole state consistent with what the seat knows, as a snapshot."""
    cards = deal(me, table, memory, rng, deck_of(table.variant, options))
    if table.variant == "duo":
        return _duo_snapshot(me, table, memory, cards, rng, options)
    return _pizza_snapshot(me, table, memory, cards, rng)


def _codes(cards: list[Card]) -> list[str]:
    return [c.code for c in cards]


def _duo_snapshot(
    me: PrivateView,
    table: PublicView,
    memory: Memory,
    cards: Deal,
    rng: random.Random,
    options: DuoOptions,
) -> dict[str, Any]:
    players = [s.player for s in table.seats]
    wd4: dict[str, Any] | None = None
    laid_by = _draw_wild_player(table, memory)
    if laid_by is not None:
        top, active = _before_draw_wild(memory, cards)
        wd4 = {
            "hand": _codes(cards.hands[laid_by]),
            "top": top.code,
            "active": active.value if active is not None else None,
        }
    first_colour = table.pending is Pending.COLOUR and memory.top_by != me.player
    return {
        "schema": SNAPSHOT_SCHEMA,
        "variant": "duo",
        "players": players,
        "seed": 0,
        "options": {
            "target": table.target,
            "classic_deck": options.classic_deck,
            "classic_challenge": options.classic_challenge,
        },
        "version": 0,
        "round": table.round,
        "scores": [s.score for s in table.seats],
        "p1": _index(table, table.dealer),
        "phase": Phase.PLAY.value,
        "pending": table.pending.value,
        "turn": _index(table, table.to_act),
        "hands": [_codes(cards.hands[p]) for p in players],
        "draw": _codes(cards.draw),
        "discard": _codes(cards.discard),
        "draft": [],
        "active": table.active_colour.value if table.active_colour is not None else None,
        "picks": 14,
        "drawn": me.drawn.code if me.drawn is not None else None,
        "volley": table.pending_draw if table.pending is Pending.VOLLEY else 0,
        "exposed": _exposed(table),
        "call": len(me.hand) == 1,  # this player always calls with the play
        "first_colour": first_colour,
        "wd4": wd4,
        "revealed_to": -1,
        "revealed": [],
        "removed": -1,
        "winner": -1,
        "recent": [],
        "rng": _rng_state(rng),
    }


def _pizza_snapshot(
    me: PrivateView, table: PublicView, memory: Memory, cards: Deal, rng: random.Random
) -> dict[str, Any]:
    players = [s.player for s in table.seats]
    wd2: dict[str, Any] = {"player": -1, "hand": [], "legit": True}
    laid_by = _draw_wild_player(table, memory)
    if laid_by is not None:
        hand = cards.hands[laid_by]
        top, active = _before_draw_wild(memory, cards)
        legit = legit_draw_wild("pizza", hand, top, active)
        wd2 = {"player": _index(table, laid_by), "hand": _codes(hand), "legit": legit}
    return {
        "schema": SNAPSHOT_SCHEMA,
        "variant": "pizza",
        "players": players,
        "seed": 0,
        "options": {"target": table.target},
        "version": 0,
        "rng": _rng_state(rng),
        "round": table.round,
        "dealer": _index(table, table.dealer),
        "actor": _index(table, table.to_act),
        "clockwise": table.clockwise,
        "pending": table.pending.value,
        "seated": [s.seated for s in table.seats],
        "scores": [s.score for s in table.seats],
        "hands": [_codes(cards.hands[p]) for p in players],
        "draw": _codes(cards.draw),
        "discard": _codes(cards.discard),
        "active": table.active_colour.value if table.active_colour is not None else None,
        "drawn": me.drawn.code if me.drawn is not None else None,
        "play_uno": len(me.hand) == 1,  # this player always calls with the play
        "colour_then_play": table.pending is Pending.COLOUR and memory.top_by != me.player,
        "wd2": wd2,
        "exposed": _exposed(table),
        "revealed": {"to": -1, "hand": []},
        "dip": None,
        "recent": [],
        "over": False,
        "winner": -1,
    }
