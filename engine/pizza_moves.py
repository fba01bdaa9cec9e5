"""UNO Pocket Pizza Pizza, the moves of a turn: drawing on a turn, playing a card
and its effect, naming a colour, the Dip's gift, the Wild Draw 2 and UNO
(RULES.md P4-P8, P10).

`PizzaMoves` carries out actions already judged legal; `engine.pizza.PizzaMatch.apply`
judges them (fast paths, or `check()`) and calls these.
"""

from __future__ import annotations

from engine.cards import MATCHING, Card, Colour, matches
from engine.events import (
    PLAYED,
    CardGiven,
    ChallengeResolved,
    DirectionChanged,
    DrawReason,
    Event,
    card_played,
)
from engine.pizza_round import _BY_DRAW_ONE, _DRAW_ONE, _NEW, _REVERSE, _SKIP, _TURN, PizzaRound
from engine.pizza_rules import _COLOUR, _DRAWN, _GIVE_P, _NO_CARDS, _NONE, _WILD_DRAW
from engine.pizza_tables import ALL_CARDS, WD2_CARD, WDIP_CARD, find

_BY_WILD_DRAW, _BY_DIP, _BY_CHALLENGE = DrawReason.WILD_DRAW, DrawReason.DIP, DrawReason.CHALLENGE
_GIVER, _RECEIVER = (vars(CardGiven)[name].__set__ for name in ("giver", "receiver"))
_JUDGED_BY, _JUDGED_PLAYER, _JUDGED_LEGIT = (
    vars(ChallengeResolved)[name].__set__ for name in ("challenger", "challenged", "legitimate")
)
# What may be played on a coloured card once it is on top (its own colour active).
_ON = {c: MATCHING[c][c.colour] for c in ALL_CARDS if c.colour is not None}
_DIRECTION = {True: DirectionChanged(True), False: DirectionChanged(False)}  # immutable, shared


class PizzaMoves(PizzaRound):
    """The handlers of every action, for a match in any state they are legal in."""

    __slots__ = ()

    # P4: a turn draw ---------------------------------------------------------------------

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

    # P5-P8, P10: plays -------------------------------------------------------------------

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
        events.append(self._ev_colour[i][colour])  # built once per seat and colour
        self._playable = MATCHING[top][colour]
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

    # P7: the Wild Draw 2 -----------------------------------------------------------------

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
