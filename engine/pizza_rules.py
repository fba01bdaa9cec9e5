"""UNO Pocket Pizza Pizza: the state of a match, what each player may do now
(`legal_actions`) and why not (`check`) (RULES.md P1-P11, X1).

`PizzaRules` holds every field; `engine.pizza_round.PizzaRound` adds the frame of
a round, `engine.pizza_moves.PizzaMoves` the plays, and `engine.pizza.PizzaMatch`
what the bot calls. Seats are indices into `players`; "left" is the next index,
so play going left is `clockwise=True`. Piles are lists whose *end* is the top.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

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
from engine.cards import HAND_ORDER, MATCHING, Card, Colour
from engine.errors import (
    CardDoesNotMatch,
    CardNotInHand,
    MatchOver,
    NotYourTurn,
    UnknownPlayer,
    WrongMoment,
)
from engine.events import (
    CardsDrawn,
    ColourChosen,
    DrawnCardKept,
    DrawReason,
    Event,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
    UnoExposed,
)
from engine.match import PizzaOptions, Variant
from engine.pizza_tables import (
    ACCEPT,
    CALL,
    CATCH,
    CHALLENGE,
    COLOURS,
    DRAW,
    GIVE,
    KEEP,
    KEPT,
    PIZZA_ACTIONS,
    PLAY,
    PLAY_UNO,
    POINTS,
    canon,
    find,
    most_held_colour,
    with_article,
)
from engine.views import Pending

_NONE = Pending.NONE
_DRAWN = Pending.DRAWN_CARD
_COLOUR = Pending.COLOUR
_WILD_DRAW = Pending.WILD_DRAW
_GIVE_P = Pending.GIVE
_NO_CARDS: frozenset[Card] = frozenset()


class PizzaRules:
    """A match of UNO Pocket Pizza Pizza as plain slots, with its legal actions."""

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

    def _blank(self, players: Sequence[str], seed: int, options: PizzaOptions | None) -> None:
        """Every field, before the first deal (or a snapshot's values)."""
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

    # queries -----------------------------------------------------------------------------

    def _sync_playable(self) -> None:
        """Recompute `_playable` after the top card or the active colour changed."""
        discard = self._discard
        if not discard:
            self._playable = _NO_CARDS
            return
        # .get: no colour is active before the first card of a round.
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
            if action.colour.__class__ is not Colour:  # type: ignore[union-attr]
                raise WrongMoment("Name Red, Yellow, Green or Blue for the wild")
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
