"""UNO Pocket Pizza Pizza (RULES.md P1-P11, X1-X4): `PizzaMatch`.

`PizzaMatch` implements `engine.match.Match`: it judges and applies actions and
answers forfeits, views and snapshots. It builds on, in order,
`engine.pizza_rules.PizzaRules` (the fields, `legal_actions`, `check`),
`engine.pizza_round.PizzaRound` (seating, draws, deals, scoring) and
`engine.pizza_moves.PizzaMoves` (plays and decisions). Corners the rulebook
leaves open are decided in docs/rules-decisions-pizza.md.

Hot paths avoid allocation: actions offered in `legal_actions` are shared,
pre-built values, and the state is plain lists of interned cards. The deck, points
and action tables live in engine/pizza_tables.py; views and snapshots in
engine/pizza_io.py; the JSON form of events in engine/pizza_codec.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import (
    Accept,
    Action,
    CallUno,
    Challenge,
    ChooseColour,
    Draw,
    Give,
    KeepDrawn,
    Play,
)
from engine.cards import Colour, Face
from engine.errors import MatchOver, UnknownPlayer
from engine.events import PLAYED, DrawReason, Event, PlayerRemoved, UnoCaught, card_played
from engine.match import PizzaOptions
from engine.pizza_io import load_snapshot, private_view, public_view, to_snapshot
from engine.pizza_moves import _ON, PizzaMoves
from engine.pizza_rules import _COLOUR, _DRAWN, _GIVE_P, _NONE, _WILD_DRAW
from engine.pizza_tables import HAND_SIZE, canon, card_points, find
from engine.views import PrivateView, PublicView

_NUMBERS = frozenset(face for face in Face if face.number is not None)


__all__ = ["HAND_SIZE", "PizzaMatch", "card_points"]


class PizzaMatch(PizzaMoves):
    """A match of UNO Pocket Pizza Pizza for 2-5 players (the `Match` protocol)."""

    __slots__ = ()

    def __init__(
        self,
        *,
        players: Sequence[str],
        seed: int,
        options: PizzaOptions | None = None,
        _deal: bool = True,
    ) -> None:
        self._blank(players, seed, options)
        if _deal:
            events: list[Event] = []
            self._start_round(events)
            self._remember(events)

    # the protocol ------------------------------------------------------------------------

    def waiting_for(self) -> tuple[str, ...]:
        return () if self.is_over else self._waiting[self._actor]

    # actions -----------------------------------------------------------------------------

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
                if kind is ChooseColour and action.colour.__class__ is Colour:  # type: ignore[union-attr]
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

    # views, snapshots --------------------------------------------------------------------

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
