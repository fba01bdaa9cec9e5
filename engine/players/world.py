"""Deal the cards a seat cannot see, consistently with everything public.

`sample_world` builds one possible whole state of the match, as a snapshot in
the engine's public format (`engine.match.from_snapshot` reads it), from:

- the seat's own hand and the public view (counts, top card, piles, scores);
- its `Memory` of the round (the discard pile, the known part of the draw pile,
  cards known in an opponent's hand, what an opponent could not play on);
- at Pizza and classic tables, the opponents' choices: a hand is dealt again (a
  few times at most) until it explains the cards played and colours named since
  the hand last changed unseen (`engine.players.reading`).

The cards nobody at the table has seen are shuffled and dealt into the hidden
places: the opponents' hands (first the cards a pass rules out are kept away
from them), the unknown part of the draw pile, the part of the discard pile the
memory missed. Every count the views show is kept, so the engine continues from
the sampled state by its real rules.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.cards import (
    HAND_ORDER,
    MATCHING,
    Card,
    Colour,
    Face,
    classic_deck,
    duo_deck,
    pizza_deck,
)
from engine.match import SNAPSHOT_SCHEMA, ClassicOptions, DuoOptions, Options, PizzaOptions
from engine.players.memory import Choice, Constraint, Memory
from engine.players.reading import misreads
from engine.views import Pending, Phase, PrivateView, PublicView


@dataclass(slots=True)
class Deal:
    """Where every card of one sampled world lies."""

    hands: dict[str, list[Card]] = field(default_factory=dict)
    draw: list[Card] = field(default_factory=list)  # the end is the top
    discard: list[Card] = field(default_factory=list)  # the end is the top


def table_options(variant: str, target: int, options: Options | None) -> Options:
    """The table's options: those given if they are this variant's, else the defaults."""
    kind = OPTIONS[variant]
    if isinstance(options, kind):
        return options
    return kind(target=target)


def deck_of(variant: str, options: Options) -> list[Card]:
    if variant == "duo":
        return duo_deck(classic=isinstance(options, DuoOptions) and options.classic_deck)
    if variant == "classic":
        return classic_deck()
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


# Deals of one opponent's hand tried to explain their choices (the fewest misread is kept).
READ_TRIES = 12


def _deal_read(
    unseen: list[Card],
    known: list[Card],
    size: int,
    layers: list[Constraint],
    reading: tuple[list[Choice], str],
    rng: random.Random,
) -> list[Card]:
    """`_deal_hand`, dealt again while the hand misreads the opponent's choices."""
    choices, variant = reading
    best: list[Card] = []
    fewest = -1
    for _ in range(READ_TRIES):
        dealt = _deal_hand(unseen, size, layers, rng)
        missed = misreads([*known, *dealt], choices, variant)
        if fewest < 0 or missed < fewest:
            unseen += best
            best, fewest = dealt, missed
        else:
            unseen += dealt
        if fewest == 0:
            break
        rng.shuffle(unseen)
    return best


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
        choices = memory.choices.get(seat.player) if table.variant != "duo" else None
        if choices:
            reading = (choices, table.variant)
            hand += _deal_read(unseen, hand, seat.cards - len(hand), layers, reading, rng)
        else:
            hand += _deal_hand(unseen, seat.cards - len(hand), layers, rng)
        result.hands[seat.player] = hand
    result.draw = [c if c is not None else unseen.pop() for c in pile if c is not None or unseen]
    missing = max(0, table.discard_pile - len(discard_known))
    result.discard = [unseen.pop() for _ in range(min(missing, len(unseen)))] + discard_known
    return result


def legit_draw_wild(
    variant: str, options: Options, hand: list[Card], top: Card, active: Colour | None
) -> bool:
    """D10, P7, C7: whether the draw-wild just laid on `top` was a fair play."""
    face = Face.WILD_DRAW_TWO if variant == "pizza" else Face.WILD_DRAW_FOUR
    by_colour = variant == "classic" or (
        isinstance(options, DuoOptions) and options.classic_challenge
    )
    if by_colour:  # C7 (and D10's classic option): only a card of the active colour
        return active is None or not any(c.colour is active for c in hand)
    playable = MATCHING[top].get(active, frozenset())
    return not any(c in playable and c.face is not face for c in hand)


OPTIONS: dict[str, type[DuoOptions] | type[PizzaOptions] | type[ClassicOptions]] = {
    "duo": DuoOptions,
    "pizza": PizzaOptions,
    "classic": ClassicOptions,
}


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
    options: Options | None = None,
) -> dict[str, Any]:
    """One whole state consistent with what the seat knows, as a snapshot."""
    variant = table.variant
    rules = table_options(variant, table.target, options)
    cards = deal(me, table, memory, rng, deck_of(variant, rules))
    players = [s.player for s in table.seats]
    wild_draw: dict[str, Any] | None = None
    laid_by = _draw_wild_player(table, memory)
    if laid_by is not None:
        hand = cards.hands[laid_by]
        top, active = _before_draw_wild(memory, cards)
        wild_draw = {
            "player": _index(table, laid_by),
            "hand": _codes(sorted(hand, key=HAND_ORDER.__getitem__)),
            "legit": legit_draw_wild(variant, rules, hand, top, active),
        }
    active_colour = table.active_colour
    return {
        "schema": SNAPSHOT_SCHEMA,
        "variant": variant,
        "players": players,
        "seed": 0,
        "options": dataclasses.asdict(rules),
        "version": 0,
        "round": table.round,
        "scores": [s.score for s in table.seats],
        "seated": [s.seated for s in table.seats],
        "hands": [_codes(cards.hands[p]) for p in players],
        "draw": _codes(cards.draw),
        "discard": _codes(cards.discard),
        "draft": [],
        "dealer": _index(table, table.dealer),
        "turn": _index(table, table.to_act),
        "clockwise": table.clockwise,
        "phase": Phase.PLAY.value,
        "pending": table.pending.value,
        "active": active_colour.value if active_colour is not None else None,
        "picks": 14 if variant == "duo" else 0,
        "drawn": me.drawn.code if me.drawn is not None else None,
        "volley": table.pending_draw if table.pending is Pending.VOLLEY else 0,
        "exposed": _exposed(table),
        "call": len(me.hand) == 1,  # this player always calls with the play
        # A wild turned up first (or left by a player who left): named, then played.
        "first_colour": table.pending is Pending.COLOUR and memory.top_by != me.player,
        "wild_draw": wild_draw,
        "revealed_to": -1,
        "revealed": [],
        "dip": None,
        "winner": -1,
        "over": False,
        "recent": [],
        "rng": _rng_state(rng),
    }


def _codes(cards: list[Card]) -> list[str]:
    return [c.code for c in cards]
