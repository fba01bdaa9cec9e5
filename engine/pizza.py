"""UNO Pocket Pizza Pizza (RULES.md P1-P11, X1-X4): `PizzaMatch`.

Seats are indices into `players`; "left" is the next index, so play going
left is `clockwise=True`. Piles are lists whose *end* is the top. Corners the
rulebook leaves open are decided in docs/rules-decisions-pizza.md.

Hot paths avoid allocation: actions offered in `legal_actions` are shared,
pre-built values, and the state is plain lists of interned cards. The deck, points
and action tables live in engine/pizza_tables.py; views and snapshots in
engine/pizza_io.py; the JSON form of events in engine/pizza_codec.py.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from itertools import chain
from typing import Any

from engine.actions import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Give,
    KeepDrawn,
    Play,
)
from engine.cards import HAND_ORDER, MATCHING, Card, Colour, Face, matches, shuffle
from engine.errors import (
    CardDoesNotMatch,
    CardNotInHand,
    MatchOver,
    NotYourTurn,
    UnknownPlayer,
    WrongMoment,
)
from engine.events import (
    PLAYED,
    CardGiven,
    CardReturned,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    DirectionChanged,
    DrawnCardKept,
    DrawPileRefilled,
    DrawReason,
    Event,
    FirstCardTurned,
    MatchEnded,
    PlayerRemoved,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
    UnoCaught,
    UnoExposed,
    card_played,
)
from engine.match import PizzaOptions, Variant
from engine.pizza_io import load_snapshot, private_view, public_view, to_snapshot
from engine.pizza_tables import (
    ACCEPT,
    ALL_CARDS,
    CALL,
    CATCH,
    CHALLENGE,
    COLOURS,
    DRAW,
    GIVE,
    HAND_SIZE,
    KEEP,
    KEPT,
    PIZZA_ACTIONS,
    PLAY,
    PLAY_UNO,
    POINTS,
    WD2_CARD,
    WDIP_CARD,
    WILD_CARD,
    canon,
    card_points,
    find,
    most_held_colour,
    with_article,
)
from engine.views import Pending, PrivateView, PublicView

_NONE = Pending.NONE
_DRAWN = Pending.DRAWN_CARD
_COLOUR = Pending.COLOUR
_WILD_DRAW = Pending.WILD_DRAW
_GIVE_P = Pending.GIVE

_SKIP, _REVERSE, _DRAW_ONE = Face.SKIP, Face.REVERSE, Face.DRAW_ONE
# Enum members as module constants: `DrawReason.DIP` is a metaclass attribute lookup.
_TURN, _BY_DRAW_ONE = DrawReason.TURN, DrawReason.DRAW_ONE
_BY_WILD_DRAW, _BY_DIP, _BY_CHALLENGE = DrawReason.WILD_DRAW, DrawReason.DIP, DrawReason.CHALLENGE
_NUMBERS = frozenset(face for face in Face if face.number is not None)
_NO_CARDS: frozenset[Card] = frozenset()
# Events with varying fields, built through their slots where they are frequent.
_NEW = object.__new__
_DRAWN_PLAYER, _DRAWN_COUNT, _DRAWN_REASON = (
    vars(CardsDrawn)[name].__set__ for name in ("player", "count", "reason")
)
_GIVER, _RECEIVER = (vars(CardGiven)[name].__set__ for name in ("giver", "receiver"))
_JUDGED_BY, _JUDGED_PLAYER, _JUDGED_LEGIT = (
    vars(ChallengeResolved)[name].__set__ for name in ("challenger", "challenged", "legitimate")
)
# What may be played on a coloured card once it is on top (its own colour active).
_ON = {c: MATCHING[c][c.colour] for c in ALL_CARDS if c.colour is not None}
_DIRECTION = {True: DirectionChanged(True), False: DirectionChanged(False)}  # immutable, shared
# The seat after each seat with every seat taken, by (seats, clockwise).
_FULL_ORDER = {
    (n, cw): tuple((i + (1 if cw else -1)) % n for i in range(n))
    for n in range(2, 6)
    for cw in (True, False)
}


__all__ = ["HAND_SIZE", "PizzaMatch", "card_points"]


class PizzaMatch:
    """A match of UNO Pocket Pizza Pizza for 2-5 players (the `Match` protocol)."""

    variant: Variant = "pizza"

    __slots__ = (
        "_active",
        "_actor",
        "_clockwise",
        "_colour_then_play",
        "_dealer",
        "_dip",
        "_discard",
        "_draw",
        "_drawn",
        "_ev_called",
        "_ev_colour",
        "_ev_draw1",
        "_ev_draw_one",
        "_ev_exposed",
        "_ev_kept",
        "_ev_skip",
        "_ev_turn",
        "_exposed",
        "_hands",
        "_index",
        "_n",
        "_order",
        "_orders",
        "_pending",
        "_play_uno",
        "_playable",
        "_recent",
        "_revealed",
        "_revealed_to",
        "_rng",
        "_round",
        "_scores",
        "_seated",
        "_target",
        "_two_seated",
        "_waiting",
        "_wd2_hand",
        "_wd2_legit",
        "_wd2_player",
        "_winner",
        "is_over",
        "options",
        "players",
        "seed",
        "version",
    )

    def __init__(
        self,
        *,
        players: Sequence[str],
        seed: int,
        options: PizzaOptions | None = None,
        _deal: bool = True,
    ) -> None:
        players = tuple(players)
        if not 2 <= len(players) <= 5:
            raise ValueError("UNO Pocket Pizza Pizza is for 2 to 5 players")
        if len(set(players)) != len(players):
            raise ValueError("players must be distinct")
        self.players: tuple[str, ...] = players
        self.seed = seed
        self.options = options or PizzaOptions()
        self.version = 0
        n = len(players)
        self._n = n
        self._index = {p: i for i, p in enumerate(players)}
        # Per-seat immutable values, shared rather than rebuilt on every turn.
        self._waiting = tuple((p,) for p in players)
        self._ev_turn = tuple(TurnStarted(p) for p in players)
        self._ev_skip = tuple(TurnSkipped(p) for p in players)
        self._ev_draw1 = tuple(CardsDrawn(p, 1, DrawReason.TURN) for p in players)
        self._ev_draw_one = tuple(CardsDrawn(p, 1, DrawReason.DRAW_ONE) for p in players)
        self._ev_colour = tuple({c: ColourChosen(p, c) for c in Colour} for p in players)
        self._ev_kept = tuple(DrawnCardKept(p) for p in players)
        self._ev_called = tuple(UnoCalled(p) for p in players)
        self._ev_exposed = tuple(UnoExposed(p) for p in players)
        self._target = self.options.target
        self._rng = random.Random(seed)  # X4: the only source of chance
        self._seated = [True] * n
        self._scores = [0] * n
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._draw: list[Card] = []
        self._discard: list[Card] = []
        self._active: Colour | None = None
        # MATCHING[top][active], kept in step with both: the ordinary turn's test of a
        # card is then one set lookup, without finding the top and the colour first.
        self._playable: frozenset[Card] = _NO_CARDS
        self._round = 0
        self._dealer = -1
        self._actor = -1
        self._clockwise = True
        self._order: tuple[int, ...] = ()  # the next seat from each seat, this direction
        self._orders: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # [clockwise]
        self._two_seated = n == 2  # P5: a Reverse acts as a Skip
        self._pending = _NONE
        self._drawn: Card | None = None
        self._play_uno = False
        self._colour_then_play = False
        self._wd2_player = -1
        self._wd2_hand: tuple[Card, ...] = ()
        self._wd2_legit = False
        self._exposed = -1
        self._revealed_to = -1
        self._revealed: tuple[Card, ...] = ()
        self._dip: tuple[int, int, Card] | None = None
        self._recent: deque[Event] = deque(maxlen=KEPT)
        self.is_over = False  # a plain attribute: read once per action by every loop
        self._winner = -1
        if _deal:
            events: list[Event] = []
            self._start_round(events)
            self._remember(events)

    # ------------------------------------------------------------------ queries

    def waiting_for(self) -> tuple[str, ...]:
        return () if self.is_over else self._waiting[self._actor]

    def _sync_playable(self) -> None:
        """Recompute `_playable` after the top card or the active colour changed."""
        discard = self._discard
        if not discard:
            self._playable = _NO_CARDS
            return
        # .get: check() does not type a named colour (anything but a Colour matches nothing).
        self._playable = MATCHING[discard[-1]].get(self._active, _NO_CARDS)

    def legal_actions(self, player: str) -> list[Action]:
        try:
            i = self._index[player]  # a subscript costs less than a .get() call
        except KeyError:
            return []
        if i == self._actor and self._pending is _NONE:  # an ordinary turn: the hot path
            hand = self._hands[i]
            ok = self._playable  # one set test per card
            out: list[Action] = []
            if len(hand) == 2:
                for c in hand:
                    if c in ok:
                        out.append(PLAY[c])
                        out.append(PLAY_UNO[c])
            else:
                for c in hand:
                    if c in ok:
                        out.append(PLAY[c])
            out.append(DRAW)
            exposed = self._exposed
            if exposed >= 0:
                out.append(CALL if exposed == i else CATCH)
            return out
        if self.is_over or not self._seated[i]:
            return []
        if i == self._actor:
            pending = self._pending
            hand = self._hands[i]
            if pending is _DRAWN:
                drawn = self._drawn
                assert drawn is not None
                out = [PLAY[drawn]]
                if len(hand) == 2:
                    out.append(PLAY_UNO[drawn])
                out.append(KEEP)
            elif pending is _COLOUR:
                out = list(COLOURS)
            elif pending is _WILD_DRAW:
                out = [ACCEPT, CHALLENGE]
            else:  # GIVE
                out = [GIVE[c] for c in hand]
        else:
            out = []
        exposed = self._exposed
        if exposed >= 0:
            out.append(CALL if exposed == i else CATCH)
        return out

    def check(self, player: str, action: Action) -> None:
        """Raise an `IllegalAction` subclass unless `player` may do `action` now (X1)."""
        i = self._index.get(player)
        if i is None:
            raise UnknownPlayer("You're not playing in this match")
        if self.is_over:
            raise MatchOver("The match is over")
        if not self._seated[i]:
            raise UnknownPlayer("You have left this match")
        kind = type(action)
        if kind is CallUno:
            if self._exposed != i:
                raise WrongMoment("Call UNO only when a play has just left you one card")
            return
        if kind is CatchUno:
            if self._exposed < 0:
                raise WrongMoment("Nobody has a missed UNO to catch right now")
            if self._exposed == i:
                raise WrongMoment("You can't catch yourself: call UNO instead")
            return
        if kind not in PIZZA_ACTIONS:
            raise WrongMoment("That move isn't part of UNO Pocket Pizza Pizza")
        if i != self._actor:
            raise NotYourTurn("It's not your turn")
        pending = self._pending
        if pending is _COLOUR:
            if kind is not ChooseColour:
                raise WrongMoment("Name a colour for the wild first")
            return
        if kind is ChooseColour:
            raise WrongMoment("There's no wild to name a colour for")
        if pending is _WILD_DRAW:
            if kind is not Accept and kind is not Challenge:
                raise WrongMoment("Accept the Wild Draw 2 or challenge it first")
            return
        if kind is Accept or kind is Challenge:
            raise WrongMoment("There's no Wild Draw 2 to accept or challenge")
        hand = self._hands[i]
        if pending is _GIVE_P:
            if kind is not Give:
                raise WrongMoment("Choose the card to give away first")
            assert isinstance(action, Give)
            if find(hand, canon(action.card)) < 0:
                raise CardNotInHand(f"You don't have {with_article(action.card)}")
            return
        if kind is Give:
            raise WrongMoment("You give a card only after a Wild Dip Into The Deck")
        if pending is _DRAWN:
            if kind is KeepDrawn:
                return
            if kind is Draw:
                raise WrongMoment("You already drew: play that card or keep it")
            assert isinstance(action, Play)
            assert self._drawn is not None
            if canon(action.card) is not self._drawn:
                raise WrongMoment(f"You may only play the card you just drew ({self._drawn.title})")
            self._check_uno(hand, action)
            return
        if kind is KeepDrawn:
            raise WrongMoment("You haven't drawn a card this turn")
        if kind is Draw:
            return
        assert isinstance(action, Play)
        card = canon(action.card)
        if find(hand, card) < 0:
            raise CardNotInHand(f"You don't have {with_article(card)}")
        top = self._discard[-1]
        if not (
            card.colour is None
            or card.colour is self._active
            or (top.colour is not None and card.face is top.face)
        ):
            shown = top.title
            if top.colour is None and self._active is not None:
                shown = f"{top.title} ({self._active.title} named)"
            named = with_article(card)
            raise CardDoesNotMatch(f"{named[0].upper()}{named[1:]} doesn't match {shown}")
        self._check_uno(hand, action)

    @staticmethod
    def _check_uno(hand: list[Card], action: Play) -> None:
        if action.uno and len(hand) != 2:
            raise WrongMoment("Call UNO only with the play that leaves you one card")

    def timeout_action(self, player: str) -> Action:
        """The safe default for the player the match waits for (DESIGN.md turn timers)."""
        if self.is_over:
            raise MatchOver("The match is over")
        i = self._index.get(player)
        if i is None:
            raise UnknownPlayer("You're not playing in this match")
        if i != self._actor:
            raise NotYourTurn("It's not your turn")
        pending = self._pending
        hand = self._hands[i]
        if pending is _NONE:
            return DRAW
        if pending is _DRAWN:
            return KEEP
        if pending is _COLOUR:
            return COLOURS[most_held_colour(hand)]
        if pending is _WILD_DRAW:
            return ACCEPT
        # GIVE: the lowest-scoring card, ties by hand order (deterministic).
        return GIVE[min(hand, key=lambda c: (POINTS[c], HAND_ORDER[c]))]

    # ------------------------------------------------------------------ actions

    def apply(self, player: str, action: Action) -> list[Event]:
        """Carry out a legal action; an illegal one raises and changes nothing (X1)."""
        try:
            i = self._index[player]  # a subscript costs less than a .get() call
        except KeyError:
            i = -2  # never equal to _actor, which is -1 once over
        kind = action.__class__
        events: list[Event]
        if i == self._actor:  # never true once over (actor -1)
            # Fast paths for every decision of the player to act: the same judgement as
            # check() for these cases, without its generality, and the commonest moves
            # inlined (a call costs about a tenth of an action). Anything else, including
            # every refusal, goes through check() below.
            pending = self._pending
            if pending is _NONE:
                if kind is Draw:
                    if self._revealed_to == i:
                        self._unreveal(i)
                    draw = self._draw
                    if draw:  # _turn_draw's common case (P4)
                        self._exposed = -1  # D11 window: a draw closes it
                        card = draw.pop()
                        self._hands[i].append(card)
                        if card in self._playable:
                            self._drawn = card
                            self._pending = _DRAWN
                            events = [self._ev_draw1[i]]
                        else:
                            j = self._order[i]
                            self._actor = j
                            events = [self._ev_draw1[i], self._ev_turn[j]]
                    else:
                        events = self._turn_draw(i)
                    self.version += 1
                    self._recent.extend(events)
                    return events
                if kind is Play:
                    play: Play = action  # type: ignore[assignment]
                    card = play.card
                    hand = self._hands[i]
                    try:
                        k = hand.index(card)  # in C, by identity: every Card is interned
                    except ValueError:
                        k = -1  # not held or not a card: check() below decides
                    if (
                        k >= 0
                        and hand[k] is card  # not merely == (a foreign object's __eq__)
                        and (not play.uno or len(hand) == 2)
                        and card in self._playable
                    ):
                        if self._revealed_to == i:
                            self._unreveal(i)
                        if card.face in _NUMBERS and len(hand) > 2:
                            # A number card leaving two or more cards (no UNO call is
                            # legal then): only the card and the turn move, as in _play.
                            self._exposed = -1  # D11 window: any play closes it
                            del hand[k]
                            self._discard.append(card)
                            self._active = card.colour
                            self._playable = _ON[card]
                            j = self._order[i]
                            self._actor = j
                            try:  # the shared event (engine.events.PLAYED)
                                event = PLAYED[card][player]
                            except KeyError:
                                event = card_played(self.players[i], card)
                            events = [event, self._ev_turn[j]]
                        else:
                            events = self._play(i, k, play.uno)
                        self.version += 1
                        self._recent.extend(events)
                        return events
            elif pending is _DRAWN:
                # P4, the drawn card: keep it, or play it (the same judgement as check()).
                if kind is KeepDrawn:  # _keep_drawn and _finish, inlined
                    if self._revealed_to == i:
                        self._unreveal(i)
                    self._drawn = None
                    j = self._order[i]
                    self._actor = j
                    self._pending = _NONE
                    events = [self._ev_kept[i], self._ev_turn[j]]
                    self.version += 1
                    self._recent.extend(events)
                    return events
                if kind is Play:
                    play = action  # type: ignore[assignment]
                    card = play.card
                    hand = self._hands[i]
                    if card is self._drawn and (not play.uno or len(hand) == 2):
                        if self._revealed_to == i:
                            self._unreveal(i)
                        self._drawn = None
                        k = hand.index(card)  # the first copy, as find() below (C, by identity)
                        if card.face in _NUMBERS and len(hand) > 2:
                            # As the ordinary turn's number card above.
                            self._exposed = -1
                            del hand[k]
                            self._discard.append(card)
                            self._active = card.colour
                            self._playable = _ON[card]
                            j = self._order[i]
                            self._actor = j
                            self._pending = _NONE
                            try:
                                event = PLAYED[card][player]
                            except KeyError:
                                event = card_played(self.players[i], card)
                            events = [event, self._ev_turn[j]]
                            self.version += 1
                            self._recent.extend(events)
                            return events
                        return self._finish(self._play(i, k, play.uno))
            elif pending is _COLOUR:
                if kind is ChooseColour:
                    # Naming a wild's colour: check() asks nothing more of it (P3, P6).
                    if self._revealed_to == i:
                        self._unreveal(i)
                    events = []
                    self._choose_colour(i, action.colour, events)  # type: ignore[union-attr]
                    return self._finish(events)
            elif pending is _WILD_DRAW:  # P7: check() judges these on the kind alone
                if kind is Accept:
                    if self._revealed_to == i:
                        self._unreveal(i)
                    events = []
                    self._accept(i, events)
                    return self._finish(events)
                if kind is Challenge:
                    if self._revealed_to == i:
                        self._unreveal(i)  # before the new reveal
                    events = []
                    self._challenge(i, events)
                    return self._finish(events)
            elif pending is _GIVE_P and kind is Give:  # P6: any held card
                card = action.card  # type: ignore[union-attr]
                if find(self._hands[i], card) >= 0:
                    if self._revealed_to == i:
                        self._unreveal(i)
                    events = []
                    self._give(i, card, events)
                    return self._finish(events)
        self.check(player, action)
        self._unreveal(i)
        events = []
        if kind is Play:
            assert isinstance(action, Play)
            card = canon(action.card)
            self._drawn = None
            events = self._play(i, find(self._hands[i], card), action.uno)
        elif kind is Draw:
            events = self._turn_draw(i)
        elif kind is KeepDrawn:
            events = self._keep_drawn(i)
        elif kind is ChooseColour:
            assert isinstance(action, ChooseColour)
            self._choose_colour(i, action.colour, events)
        elif kind is Give:
            assert isinstance(action, Give)
            self._give(i, canon(action.card), events)
        elif kind is Accept:
            self._accept(i, events)
        elif kind is Challenge:
            self._challenge(i, events)
        elif kind is CallUno:
            self._exposed = -1
            events.append(self._ev_called[i])
        else:  # CatchUno
            victim = self._exposed
            self._exposed = -1
            events.append(UnoCaught(player, self.players[victim]))
            self._draw_cards(victim, 2, DrawReason.UNO_PENALTY, events)
        return self._finish(events)

    def _unreveal(self, i: int) -> None:
        """P7: the challenged hand is shown until the challenger's next action."""
        if self._revealed_to == i:
            self._revealed_to = -1
            self._revealed = ()

    def _finish(self, events: list[Event]) -> list[Event]:
        """Count the accepted action and log its events."""
        self.version += 1
        self._recent.extend(events)
        return events

    def remove_player(self, player: str) -> list[Event]:
        """X3: a forfeit; cards to the bottom of the draw pile, play goes on while 2+ remain."""
        i = self._index.get(player)
        if i is None:
            raise UnknownPlayer("That player is not in this match")
        if self.is_over:
            raise MatchOver("The match is over")
        if not self._seated[i]:
            raise UnknownPlayer("That player has already left")
        events: list[Event] = [PlayerRemoved(player)]
        self._seated[i] = False
        self._set_order()
        self._draw[0:0] = self._hands[i]
        self._hands[i] = []
        if self._exposed == i:
            self._exposed = -1
        if self._revealed_to == i:
            self._revealed_to = -1
            self._revealed = ()
        seated = [j for j in range(self._n) if self._seated[j]]
        if len(seated) == 1:
            self._end_match(seated[0], events)  # X3: unfinished round not scored
        elif i == self._actor:
            pending = self._pending
            self._drawn = None
            self._wd2_player = -1
            nxt = self._next(i)
            if pending is _COLOUR:
                # A wild left without a colour: the next player names it, then plays.
                self._start_turn(nxt, events)
                self._pending = _COLOUR
                self._colour_then_play = True
            else:  # a turn, a Wild Draw 2 to answer, or a give: cancelled, turn passes on
                self._start_turn(nxt, events)
        elif self._pending is _WILD_DRAW and self._wd2_player == i:
            # The Wild Draw 2 player left: nobody to judge or pay; the hit player just plays.
            self._wd2_player = -1
            self._start_turn(self._actor, events)
        self.version += 1
        self._remember(events)
        return events

    # ------------------------------------------------------------------ rules

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

    def _turn_draw(self, i: int) -> list[Event]:
        """P4: draw one; a matching card may be played at once, otherwise play passes."""
        self._exposed = -1  # D11 window: a draw (or a pass with nothing to draw) closes it
        draw = self._draw
        if draw:
            card = draw.pop()
            self._hands[i].append(card)
            top = self._discard[-1]
            if (
                (colour := card.colour) is self._active
                or colour is None
                or (top.colour is not None and card.face is top.face)
            ):
                self._drawn = card
                self._pending = _DRAWN
                return [self._ev_draw1[i]]
            j = self._order[i]
            self._actor = j
            return [self._ev_draw1[i], self._ev_turn[j]]
        events: list[Event] = []
        got = self._draw_cards(i, 1, _TURN, events)  # P9 refill, or a pass
        if got is not None and matches(got, top=self._discard[-1], active=self._active):
            self._drawn = got
            self._pending = _DRAWN
            return events
        self._start_turn(self._order[i], events)
        return events

    def _keep_drawn(self, i: int) -> list[Event]:
        self._drawn = None
        j = self._order[i]
        self._actor = j
        self._pending = _NONE
        return [self._ev_kept[i], self._ev_turn[j]]

    def _play(self, i: int, k: int, uno: bool) -> list[Event]:
        """Play the card at index `k` of the hand (already checked)."""
        player = self.players[i]
        self._exposed = -1  # D11 window: any play closes it
        hand = self._hands[i]
        card = hand.pop(k)
        discard = self._discard
        discard.append(card)
        try:  # the shared event (engine.events.PLAYED)
            event = PLAYED[card][player]
        except KeyError:
            event = card_played(player, card)
        events: list[Event] = [event]
        if uno:
            events.append(self._ev_called[i])
        colour = card.colour
        if colour is not None:
            self._active = colour
            self._playable = _ON[card]
        else:  # the colour stays until one is named (P7 judges against it)
            self._playable = MATCHING[card].get(self._active, _NO_CARDS)
        if not hand:
            self._final_card(i, card, events)
            return events
        if colour is None:
            self._play_uno = uno  # exposure is judged once the colour (and give) is done
            if card is WD2_CARD:
                # P7 (as D10): judged on the rest of the hand held at this play.
                prev_top = discard[-2]
                prev_active = self._active  # unchanged by a wild until its colour is named
                self._wd2_player = i
                self._wd2_hand = tuple(hand)
                pface = prev_top.face if prev_top.colour is not None else None
                legit = True  # a loop, not any(): a generator costs more than the test
                for c in hand:
                    if c.colour is None or c.colour is prev_active or c.face is pface:
                        legit = False
                        break
                self._wd2_legit = legit
            self._pending = _COLOUR
            self._colour_then_play = False
            return events
        face = card.face
        order = self._order  # the seat after each seat (self._next, without the call)
        if face is _SKIP or (face is _REVERSE and self._two_seated):
            victim = order[i]  # P5: with 2 players a Reverse acts as a Skip
            events.append(self._ev_skip[victim])
            j = order[victim]
        elif face is _REVERSE:
            clockwise = self._clockwise = not self._clockwise
            order = self._order = self._orders[clockwise]  # _set_order: seats unchanged
            events.append(_DIRECTION[clockwise])
            j = order[i]
        elif face is _DRAW_ONE:
            # P8: the victim's draw is part of the play and does not close the window.
            victim = order[i]
            draw = self._draw
            if draw:  # the common case, without the general draw's refill bookkeeping
                self._hands[victim].append(draw.pop())
                events.append(self._ev_draw_one[victim])
            else:
                self._draw_cards(victim, 1, _BY_DRAW_ONE, events)
            events.append(self._ev_skip[victim])
            j = order[victim]
        else:
            j = order[i]
        if len(hand) == 1 and not uno:  # _expose, inlined: after the play's whole effect
            self._exposed = i
            events.append(self._ev_exposed[i])
        self._actor = j  # _start_turn, inlined
        self._pending = _NONE  # the card may be one just drawn (P4)
        events.append(self._ev_turn[j])
        return events

    def _expose(self, i: int, uno: bool, events: list[Event]) -> None:
        """P8/D11: judged after the play's whole effect; `uno` if called with the play."""
        if len(self._hands[i]) == 1 and not uno:
            self._exposed = i
            events.append(self._ev_exposed[i])

    def _choose_colour(self, i: int, colour: Colour, events: list[Event]) -> None:
        self._active = colour
        top = self._discard[-1]
        if colour.__class__ is Colour:  # built once per seat and colour
            events.append(self._ev_colour[i][colour])
            self._playable = MATCHING[top][colour]
        else:  # check() leaves the value to the caller's typing
            events.append(ColourChosen(self.players[i], colour))
            self._sync_playable()
        if self._colour_then_play:  # P3 first-card Wild (or X3 orphaned wild): now play
            self._colour_then_play = False
            self._pending = _NONE
            return
        if top is WDIP_CARD:
            # P6: draw the top card, then give one card to the next player.
            self._draw_cards(i, 1, _BY_DIP, events)
            self._pending = _GIVE_P
            return
        if len(self._hands[i]) == 1 and not self._play_uno:  # _expose, inlined
            self._exposed = i
            events.append(self._ev_exposed[i])
        j = self._order[i]
        self._actor = j
        if top is WD2_CARD:
            self._pending = _WILD_DRAW
        else:  # _start_turn, inlined
            self._pending = _NONE
            events.append(self._ev_turn[j])

    def _give(self, i: int, card: Card, events: list[Event]) -> None:
        receiver = self._order[i]
        hand = self._hands[i]
        del hand[find(hand, card)]
        self._hands[receiver].append(card)
        self._dip = (i, receiver, card)
        event: CardGiven = _NEW(CardGiven)
        _GIVER(event, self.players[i])
        _RECEIVER(event, self.players[receiver])
        events.append(event)
        if not hand:  # defensive: the old top can always be drawn (P9)
            self._end_round(i, events)
            return
        if len(hand) == 1 and not self._play_uno:  # _expose, inlined
            self._exposed = i
            events.append(self._ev_exposed[i])
        self._actor = receiver  # P6: the receiver keeps their turn (_start_turn, inlined)
        self._pending = _NONE
        events.append(self._ev_turn[receiver])

    def _accept(self, i: int, events: list[Event]) -> None:
        """P6: the hit player draws 2 and loses the turn."""
        self._exposed = -1  # D11: accepting a draw-wild is a draw
        self._draw_cards(i, 2, _BY_WILD_DRAW, events)
        events.append(self._ev_skip[i])
        self._wd2_player = -1
        self._actor = j = self._order[i]  # _start_turn, inlined
        self._pending = _NONE
        events.append(self._ev_turn[j])

    def _challenge(self, i: int, events: list[Event]) -> None:
        """P7: the hit player challenges the Wild Draw 2 and sees the judged hand."""
        self._exposed = -1  # the penalty draw closes the window
        w = self._wd2_player
        legit = self._wd2_legit
        self._wd2_player = -1
        self._revealed_to = i
        self._revealed = self._wd2_hand
        event: ChallengeResolved = _NEW(ChallengeResolved)
        _JUDGED_BY(event, self.players[i])
        _JUDGED_PLAYER(event, self.players[w])
        _JUDGED_LEGIT(event, legit)
        events.append(event)
        if legit:
            self._draw_cards(i, 4, _BY_CHALLENGE, events)
            events.append(self._ev_skip[i])
            j = self._order[i]
        else:
            self._draw_cards(w, 2, _BY_CHALLENGE, events)
            j = i
        self._actor = j  # _start_turn, inlined
        self._pending = _NONE
        events.append(self._ev_turn[j])

    def _final_card(self, i: int, card: Card, events: list[Event]) -> None:
        """P10: owed draws and a final Dip still happen, then the round is scored."""
        face = card.face
        if face is _DRAW_ONE:
            self._draw_cards(self._next(i), 1, _BY_DRAW_ONE, events)
        elif card is WD2_CARD:
            self._draw_cards(self._next(i), 2, _BY_WILD_DRAW, events)
        elif card is WDIP_CARD:
            got = self._draw_cards(i, 1, _BY_DIP, events)
            if got is not None:
                receiver = self._next(i)
                self._hands[i].pop()  # the card just drawn is the only one
                self._hands[receiver].append(got)
                self._dip = (i, receiver, got)
                events.append(CardGiven(self.players[i], self.players[receiver]))
        if card.colour is None:
            self._active = None  # a last wild names no colour
            self._sync_playable()
        self._end_round(i, events)

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

    # ------------------------------------------------------------------ views, snapshots

    def public_view(self) -> PublicView:
        return public_view(self)

    def private_view(self, player: str) -> PrivateView:
        return private_view(self, player)

    def to_snapshot(self) -> dict[str, Any]:
        """The whole state, JSON-ready, including the generator (X4)."""
        return to_snapshot(self)

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> PizzaMatch:
        """Rebuild a match from `to_snapshot()`; it continues identically."""
        return load_snapshot(cls, data)
