"""UNO Pocket Pizza Pizza, the frame of a round: seating order, drawing and
refilling, the deal and the first card, the end of a round and of the match
(RULES.md P2, P3, P5, P9, P11, X3).
"""

from __future__ import annotations

from itertools import chain

from engine.cards import HAND_ORDER, Card, Face, shuffle
from engine.events import (
    CardReturned,
    CardsDrawn,
    DirectionChanged,
    DrawPileRefilled,
    DrawReason,
    Event,
    FirstCardTurned,
    MatchEnded,
    RoundEnded,
    RoundStarted,
)
from engine.pizza_rules import _COLOUR, _NONE, PizzaRules
from engine.pizza_tables import ALL_CARDS, HAND_SIZE, POINTS, WD2_CARD, WDIP_CARD, WILD_CARD

# Enum members as module constants: `DrawReason.DIP` is a metaclass attribute lookup.
_TURN, _BY_DRAW_ONE = DrawReason.TURN, DrawReason.DRAW_ONE
_SKIP, _REVERSE, _DRAW_ONE = Face.SKIP, Face.REVERSE, Face.DRAW_ONE
# Events with varying fields, built through their slots where they are frequent (a
# frozen dataclass __init__ sets each field through object.__setattr__).
_NEW = object.__new__
_DRAWN_PLAYER, _DRAWN_COUNT, _DRAWN_REASON = (
    vars(CardsDrawn)[name].__set__ for name in ("player", "count", "reason")
)
# The seat after each seat with every seat taken, by (seats, clockwise).
_FULL_ORDER = {
    (n, cw): tuple((i + (1 if cw else -1)) % n for i in range(n))
    for n in range(2, 6)
    for cw in (True, False)
}


class PizzaRound(PizzaRules):
    """Rounds of a Pizza match: seating, draws, deals and scoring."""

    __slots__ = ()

    # P5, X3: who plays next --------------------------------------------------------------

    def _set_order(self) -> None:
        """Recompute the seat after each seat (for any seat, even one left empty).

        Both directions are kept, so a Reverse only picks the other one (P5).
        """
        n = self._n
        seated = self._seated
        self._two_seated = seated.count(True) == 2
        if False not in seated:  # everyone still plays
            self._orders = (_FULL_ORDER[n, False], _FULL_ORDER[n, True])
        else:
            orders = []
            for step in (-1, 1):
                order = []
                for i in range(n):
                    j = (i + step) % n
                    while not seated[j] and j != i:
                        j = (j + step) % n
                    order.append(j)
                orders.append(tuple(order))
            self._orders = (orders[0], orders[1])
        self._order = self._orders[self._clockwise]

    def _next(self, i: int) -> int:
        return self._order[i]

    def _left(self, i: int) -> int:
        j = (i + 1) % self._n
        while not self._seated[j]:
            j = (j + 1) % self._n
        return j

    def _start_turn(self, i: int, events: list[Event]) -> None:
        self._actor = i
        self._pending = _NONE
        events.append(self._ev_turn[i])

    # P4, P9: drawing ---------------------------------------------------------------------

    def _refill(self, events: list[Event]) -> bool:
        """P9: keep the top discard, shuffle the rest into a new draw pile."""
        discard = self._discard
        if len(discard) <= 1:
            return False
        rest = discard[:-1]
        del discard[:-1]
        shuffle(self._rng, rest)
        self._draw = rest
        events.append(DrawPileRefilled(len(rest)))
        return True

    def _draw_cards(
        self, i: int, count: int, reason: DrawReason, events: list[Event]
    ) -> Card | None:
        """Draw up to `count` cards (P9: the rest is dropped when none is left); the last one."""
        hand = self._hands[i]
        got = 0
        card: Card | None = None
        draw = self._draw
        if 0 < count <= len(draw):  # the common case: count pops from the top, in one slice
            taken = draw[-count:]
            del draw[-count:]
            taken.reverse()
            hand += taken
            card = taken[-1]
            got = count
        while got < count:
            if not draw:
                if not self._refill(events):
                    break
                draw = self._draw
            card = draw.pop()
            hand.append(card)
            got += 1
        if got == 1 and reason is _TURN:  # the frequent ones are built once per seat
            events.append(self._ev_draw1[i])
        elif got == 1 and reason is _BY_DRAW_ONE:
            events.append(self._ev_draw_one[i])
        else:  # built through its slots (a frozen dataclass __init__ costs twice as much)
            event: CardsDrawn = _NEW(CardsDrawn)
            _DRAWN_PLAYER(event, self.players[i])
            _DRAWN_COUNT(event, got)
            _DRAWN_REASON(event, reason)
            events.append(event)
        return card

    # P10, P11: the end of a round and of the match ---------------------------------------

    def _end_round(self, winner: int, events: list[Event]) -> None:
        """P11: the winner scores every card left in the other hands."""
        hands = self._hands
        gained = sum(map(POINTS.__getitem__, chain.from_iterable(hands)))  # in C
        self._scores[winner] += gained
        players = self.players
        events.append(
            RoundEnded(
                round=self._round,
                winner=players[winner],
                points=tuple((p, gained if j == winner else 0) for j, p in enumerate(players)),
                scores=tuple(zip(players, self._scores, strict=True)),
                hands=tuple(
                    (p, tuple(sorted(hands[j], key=HAND_ORDER.__getitem__)))
                    for j, p in enumerate(players)
                    if self._seated[j]
                ),
            )
        )
        self._exposed = -1
        self._revealed_to = -1
        self._revealed = ()
        self._wd2_player = -1
        if self._scores[winner] >= self._target:
            self._end_match(winner, events)
        else:
            self._start_round(events)

    def _end_match(self, winner: int, events: list[Event]) -> None:
        self.is_over = True
        self._winner = winner
        self._actor = -1
        self._pending = _NONE
        self._drawn = None
        self._exposed = -1
        events.append(
            MatchEnded(
                winner=self.players[winner],
                scores=tuple(zip(self.players, self._scores, strict=True)),
                forfeited=tuple(p for j, p in enumerate(self.players) if not self._seated[j]),
            )
        )

    # P2, P3: the deal and the first card -------------------------------------------------

    def _start_round(self, events: list[Event]) -> None:
        """P2 deal and P3 first card."""
        rng = self._rng
        self._round += 1
        if self._round == 1:
            self._dealer = rng.randrange(self._n)  # P2: the first dealer is random
        else:
            self._dealer = self._left(self._dealer)  # P2: the deal passes left
        self._clockwise = True
        self._set_order()
        self._dip = None
        self._drawn = None
        self._play_uno = False
        self._colour_then_play = False
        deck = list(ALL_CARDS)
        shuffle(rng, deck)
        hands = self._hands
        for hand in hands:
            hand.clear()
        order = []
        j = self._dealer
        for _ in range(self._seated.count(True)):
            j = self._left(j)
            order.append(j)
        for _ in range(HAND_SIZE):  # one at a time, from the dealer's left
            for j in order:
                hands[j].append(deck.pop())
        first = order[0]
        events.append(RoundStarted(self._round, self.players[first], self.players[self._dealer]))
        card = deck.pop()
        events.append(FirstCardTurned(card))
        while card is WD2_CARD or card is WDIP_CARD:  # P3: back into the deck, turn another
            events.append(CardReturned(card))
            deck.append(card)
            shuffle(rng, deck)
            card = deck.pop()
            events.append(FirstCardTurned(card))
        self._draw = deck
        self._discard = [card]
        self._active = card.colour
        self._sync_playable()
        face = card.face
        if face is _SKIP:
            events.append(self._ev_skip[first])
            self._start_turn(self._next(first), events)
        elif face is _DRAW_ONE:
            self._draw_cards(first, 1, DrawReason.FIRST_CARD, events)
            events.append(self._ev_skip[first])
            self._start_turn(self._next(first), events)
        elif face is _REVERSE:
            self._clockwise = False  # P3: the dealer plays first and play goes right
            self._set_order()
            events.append(DirectionChanged(False))
            self._start_turn(self._dealer, events)
        elif card is WILD_CARD:
            self._start_turn(first, events)  # P3: name the colour, then play
            self._pending = _COLOUR
            self._colour_then_play = True
        else:
            self._start_turn(first, events)

    def _remember(self, events: list[Event]) -> None:
        self._recent.extend(events)
