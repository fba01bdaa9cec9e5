"""UNO Duo, the moves of a turn: drawing on a turn, playing a card and its effect,
naming a colour, volleys, challenges, dumps and UNO (RULES.md D5-D11, D13).

`DuoMoves` carries out actions already judged legal; `engine.duo.DuoMatch.apply`
judges them (fast paths, or `check()`) and calls these.
"""

from __future__ import annotations

from engine.actions import Dump
from engine.cards import HAND_ORDER, MATCHING, Card, Colour, shuffle
from engine.duo_legal import (
    _ALL_CARDS,
    _COLOUR,
    _D2,
    _DRAWN_CARD,
    _DUMP_PENDING,
    _NONE,
    _REV,
    _REVERSE_DUMP,
    _SKIP,
    _TURN,
    _VOLLEY,
    _W4,
    _WILD_DRAW,
    _WSH,
)
from engine.duo_round import _BY_FIRST_CARD, _NEW, DuoRound
from engine.events import (
    PLAYED,
    ChallengeResolved,
    ColourDumped,
    DrawReason,
    Event,
    HandsShuffled,
    VolleyRaised,
    card_played,
)

# What may be played on a card once it is on top: a coloured card with its own colour
# active, a wild before its colour is named.
_ON = {c: MATCHING[c][c.colour] for c in _ALL_CARDS if c.colour is not None}
_ON_WILD = {c: MATCHING[c][None] for c in _ALL_CARDS if c.colour is None}
_BY_VOLLEY = DrawReason.VOLLEY
_BY_WILD_DRAW = DrawReason.WILD_DRAW
_BY_CHALLENGE = DrawReason.CHALLENGE

# Built through their slots, as in engine.duo_round.
_RAISE_PLAYER, _RAISE_TARGET, _RAISE_TOTAL = (
    vars(VolleyRaised)[name].__set__ for name in ("player", "target", "total")
)
_JUDGED_BY, _JUDGED_PLAYER, _JUDGED_LEGIT = (
    vars(ChallengeResolved)[name].__set__ for name in ("challenger", "challenged", "legitimate")
)
_DUMPED_PLAYER, _DUMPED_CARDS = (vars(ColourDumped)[name].__set__ for name in ("player", "cards"))


class DuoMoves(DuoRound):
    """The handlers of every action, for a match in any state they are legal in."""

    __slots__ = ()

    # D5: a turn draw ---------------------------------------------------------------------

    def _turn_draw(self, i: int, events: list[Event]) -> None:
        self._exposed = -1  # D11: any draw ends exposure
        draw = self._draw
        if draw:  # the common case, without the general draw's refill bookkeeping
            card = draw.pop()
            self._hands[i].append(card)
            events.append(self._ev_draw1[i])
            top = self._discard[-1]
            if (
                card.colour is self._active
                or card.colour is None
                or (top.colour is not None and card.face is top.face)
            ):
                self._drawn = card
                self._pending = _DRAWN_CARD
                return
            self._turn = o = 1 - i
            self._pending = _NONE  # also after a turn offered with a dump (D9)
            events.append(self._ev_turn[o])
            return
        if self._draw_cards(i, 1, _TURN, events):
            card = self._hands[i][-1]
            top = self._discard[-1]
            if (
                card.colour is None
                or card.colour is self._active
                or (top.colour is not None and card.face is top.face)
            ):
                self._drawn = card
                self._pending = _DRAWN_CARD
                return
        self._give_turn(1 - i, _NONE, events)

    # D6-D9, D11, D13: plays --------------------------------------------------------------

    def _play(self, i: int, card: Card, uno: bool, events: list[Event], at: int = -1) -> None:
        """Play `card` (at index `at` of the hand when the caller found it)."""
        hand = self._hands[i]
        discard = self._discard
        if at >= 0:
            del hand[at]
        else:
            hand.remove(card)  # in C, by identity: every Card is interned
        self._exposed = -1  # D11: any card played ends exposure
        self._drawn = None
        o = 1 - i
        player = self.players[i]
        try:
            events.append(PLAYED[card][player])
        except KeyError:
            events.append(card_played(player, card))
        face = card.face
        colour = card.colour
        if colour is None:
            if face is _W4 and hand:
                # D10: judged on this hand, against the previous top and colour.
                self._wd4_hand = hand.copy()
                self._wd4_top = discard[-1]
                self._wd4_active = self._active
            discard.append(card)
            self._active = None
            self._playable = _ON_WILD[card]
            if not hand:
                # D13: a last wild names no colour; a last WD4 is drawn, unchallenged.
                if face is _W4:
                    self._draw_cards(o, 4, _BY_WILD_DRAW, events)
                self._end_round(i, events)
                return
            self._call = uno  # D11: judged once the colour is named
            self._pending = _COLOUR
            return
        discard.append(card)
        self._active = colour
        self._playable = _ON[card]
        if not hand:
            if face is _D2:  # D13: the volley is drawn first
                total = self._volley + 2
                self._volley = 0
                self._draw_cards(o, total, _BY_VOLLEY, events)
            self._end_round(i, events)
            return
        if face is _REV:  # D9: the dump decision is part of this play
            self._call = uno
            self._pending = _DUMP_PENDING
            return
        one = len(hand) == 1  # D11: judged after the play's whole effect
        if face is _D2:
            total = self._volley = self._volley + 2
            raised: VolleyRaised = _NEW(VolleyRaised)
            _RAISE_PLAYER(raised, player)
            _RAISE_TARGET(raised, self.players[o])
            _RAISE_TOTAL(raised, total)
            events.append(raised)
            if one:
                self._call = uno
                self._settle_uno(i, events)
            self._turn = o
            self._pending = _VOLLEY
            events.append(self._ev_turn[o])
        elif face is _SKIP:  # D6
            events.append(self._ev_skip[o])
            if one:
                self._call = uno
                self._settle_uno(i, events)
            self._pending = _NONE
            events.append(self._ev_turn[i])
        else:
            if one:
                self._call = uno
                self._settle_uno(i, events)
            self._turn = o
            self._pending = _NONE
            events.append(self._ev_turn[o])

    def _settle_uno(self, i: int, events: list[Event]) -> None:
        """D11: judged after the play's whole effect."""
        if len(self._hands[i]) == 1:
            if self._call:
                events.append(self._ev_called[i])
            else:
                self._exposed = i
                events.append(self._ev_exposed[i])
        self._call = False

    def _choose_colour(self, i: int, colour: Colour, events: list[Event]) -> None:
        self._active = colour
        self._sync_playable()
        events.append(self._ev_colour[i][colour])
        o = 1 - i
        face = self._discard[-1].face
        if self._first_colour:  # D4: Player 1 names it; no shuffle, no challenge
            self._first_colour = False
            if face is _W4:
                self._draw_cards(o, 4, _BY_FIRST_CARD, events)
                self._give_turn(i, _NONE, events)
            else:
                self._give_turn(o, _NONE, events)
            return
        if face is _W4:  # D8: the opponent challenges or accepts
            self._settle_uno(i, events)
            self._give_turn(o, _WILD_DRAW, events)
            return
        if face is _WSH:  # D1: pool, shuffle, deal back starting with the opponent
            pool = self._hands[i] + self._hands[o]
            shuffle(self._rng, pool)
            self._hands[o] = pool[0::2]
            self._hands[i] = pool[1::2]
            events.append(HandsShuffled(self.players[i]))
        self._settle_uno(i, events)
        self._give_turn(o, _NONE, events)

    def _take_volley(self, i: int, events: list[Event]) -> None:
        total = self._volley
        self._volley = 0
        self._exposed = -1
        self._draw_cards(i, total, _BY_VOLLEY, events)
        # D7: the player who laid the last Draw 2 takes a normal turn.
        self._turn = o = 1 - i  # _give_turn, inlined
        self._pending = _NONE
        events.append(self._ev_turn[o])

    # D8, D10: a Wild Draw 4 --------------------------------------------------------------

    def _accept(self, i: int, events: list[Event]) -> None:
        self._exposed = -1
        self._wd4_hand = self._wd4_top = self._wd4_active = None
        self._draw_cards(i, 4, _BY_WILD_DRAW, events)
        self._turn = o = 1 - i  # D8: the WD4 player goes again (_give_turn, inlined)
        self._pending = _NONE
        events.append(self._ev_turn[o])

    def _challenge(self, i: int, events: list[Event]) -> None:
        o = 1 - i
        hand = self._wd4_hand
        top = self._wd4_top
        assert hand is not None
        assert top is not None
        active = self._wd4_active
        guilty = False  # loops, not any(): a generator costs more than the test
        if self._options.classic_challenge:
            if active is not None:
                for c in hand:
                    if c.colour is active:
                        guilty = True
                        break
        else:  # D10 literal: colour, number, symbol or a wild (not another WD4)
            ok = MATCHING[top][active]  # matches(), as a table
            for c in hand:
                if c in ok and c.face is not _W4:
                    guilty = True
                    break
        self._wd4_hand = self._wd4_top = self._wd4_active = None
        self._revealed_to = i
        self._revealed = tuple(hand)  # sorted when shown (private_view, to_snapshot)
        self._exposed = -1  # a challenge penalty is a draw
        event: ChallengeResolved = _NEW(ChallengeResolved)
        _JUDGED_BY(event, self.players[i])
        _JUDGED_PLAYER(event, self.players[o])
        _JUDGED_LEGIT(event, not guilty)
        events.append(event)
        # _give_turn, inlined: the named colour stands and the challenger plays next,
        # or the challenger draws 6 and the Wild Draw 4 player goes again.
        turn = i if guilty else o
        self._draw_cards(o if guilty else i, 4 if guilty else 6, _BY_CHALLENGE, events)
        self._turn = turn
        self._pending = _NONE
        events.append(self._ev_turn[turn])

    # D9: dumps ---------------------------------------------------------------------------

    def _fast_dump(self, i: int, dump: Dump) -> list[Event] | None:
        """D9 without UNO: a held card of the Reverse's colour, as _check_dump judges it.

        None sends anything else (an UNO call with it, a refusal) through check().
        """
        last = dump.last
        hand = self._hands[i]
        try:
            at = hand.index(last)  # in C, by identity: every Card is interned
        except ValueError:
            return None
        colour = self._discard[-1].colour
        if dump.uno or hand[at] is not last or colour is None or last.colour is not colour:
            return None
        events: list[Event] = []
        self._dump(i, last, False, events)
        return events

    def _dump(self, i: int, last: Card, uno: bool, events: list[Event]) -> None:
        """D9: lay every card of the colour, `last` last; only it has an effect."""
        colour = last.colour
        laid: list[Card] = []
        hand: list[Card] = []  # one loop: two comprehensions cost almost twice as much
        for c in self._hands[i]:
            if c.colour is colour:
                laid.append(c)
            else:
                hand.append(c)
        self._hands[i] = hand
        laid.remove(last)
        laid.sort(key=HAND_ORDER.__getitem__)
        laid.append(last)
        self._discard += laid
        self._active = colour
        self._playable = _ON[last]
        self._exposed = -1
        o = 1 - i
        event: ColourDumped = _NEW(ColourDumped)
        _DUMPED_PLAYER(event, self.players[i])
        _DUMPED_CARDS(event, tuple(laid))
        events.append(event)
        face = last.face
        if not hand:
            self._call = uno
            if face is _D2:  # D9/D13: the opponent still draws 2
                self._draw_cards(o, 2, _BY_VOLLEY, events)
            self._end_round(i, events)
            return
        # The effect, then UNO (D11: judged after it), then the turn (_give_turn, inlined).
        turn = o
        pending = _NONE
        if face is _SKIP:
            events.append(self._ev_skip[o])
            turn = i
        elif face is _D2:
            self._volley = 2
            raised: VolleyRaised = _NEW(VolleyRaised)
            _RAISE_PLAYER(raised, self.players[i])
            _RAISE_TARGET(raised, self.players[o])
            _RAISE_TOTAL(raised, 2)
            events.append(raised)
            pending = _VOLLEY
        elif face is _REV:
            pending = _REVERSE_DUMP
        if len(hand) == 1:
            self._call = uno
            self._settle_uno(i, events)
        else:
            self._call = False  # as _settle_uno
        self._turn = turn
        self._pending = pending
        events.append(self._ev_turn[turn])

    def _no_dump(self, i: int, events: list[Event]) -> None:
        events.append(self._ev_declined[i])
        self._settle_uno(i, events)
        # D9: a Reverse with nothing after it lets the opponent dump (as in D4).
        self._turn = o = 1 - i  # _give_turn, inlined
        self._pending = _REVERSE_DUMP
        events.append(self._ev_turn[o])
