"""UNO Duo (RULES.md D1–D14, X1–X4): the two-player rules engine.

`DuoMatch` implements `engine.match.Match`: it judges and applies actions, and
answers the views and the timeouts. It builds on, in order,
`engine.duo_state.DuoState` (the fields, snapshots, test builders),
`engine.duo_legal.DuoRules` (`legal_actions` and `check`),
`engine.duo_round.DuoRound` (cut, draft, draws, scoring) and
`engine.duo_moves.DuoMoves` (plays and decisions). The hot path is plain Python
over lists of interned cards; pydantic only validates snapshots
(`engine.duo_snapshot`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Dump,
    KeepCard,
    KeepDrawn,
    NoDump,
    Play,
    RejectCard,
    TakeVolley,
)
from engine.cards import HAND_ORDER, MATCHING, Card, Colour, Face
from engine.duo_legal import (
    _ACCEPT,
    _CHOOSE,
    _COLOUR,
    _D2,
    _DRAFT_FORCED,
    _DRAFT_PICK,
    _DRAW,
    _DRAWN_CARD,
    _DUMP_PENDING,
    _KEEP_CARD,
    _KEEP_DRAWN,
    _MATCH_OVER,
    _NO_DUMP,
    _NONE,
    _PLAY,
    _REVERSE_DUMP,
    _TAKE_VOLLEY,
    _VOLLEY,
    _W4,
    _WILD_DRAW,
    _WSH,
)
from engine.duo_moves import _ON, DuoMoves
from engine.duo_state import RECENT_EVENTS, card_points
from engine.errors import MatchOver, NotYourTurn
from engine.events import (
    PLAYED,
    DrawReason,
    Event,
    MatchEnded,
    PlayerRemoved,
    TurnStarted,
    UnoCaught,
    card_played,
)
from engine.match import DuoOptions
from engine.views import PrivateView, PublicView, SeatView

_BY_UNO_PENALTY = DrawReason.UNO_PENALTY
_CHOOSE_FOR = dict(zip(Colour, _CHOOSE, strict=True))
_NUMBERS = frozenset(face for face in Face if face.number is not None)


class DuoMatch(DuoMoves):
    """A match of UNO Duo between exactly two players, rounds until the target (D14)."""

    __slots__ = ()

    def __init__(
        self, *, players: Sequence[str], seed: int, options: DuoOptions | None = None
    ) -> None:
        self._blank(players, seed, options or DuoOptions())
        events: list[Event] = []
        self._cut(events)
        self._start_round(events)
        self._recent.extend(events)

    # the protocol ------------------------------------------------------------------------

    def waiting_for(self) -> tuple[str, ...]:
        """Who must decide now (one player in Duo; nobody once over)."""
        if self.is_over:
            return ()
        return self._waits[self._turn]

    # apply -------------------------------------------------------------------------------

    def apply(self, player: str, action: Action) -> list[Event]:
        """Carry out a legal action and return its public events; illegal: raise, no change."""
        try:
            i = self._idx[player]  # a subscript costs less than a .get() call
        except KeyError:
            i = -1  # check() below refuses
        kind = action.__class__
        events: list[Event] | None = None
        if i == self._turn and not self.is_over:
            # Fast paths for every decision of the player to act: the same judgement as
            # check() for these cases, without its generality, and the common cases of
            # the moves inlined (a call costs about a tenth of an action). Anything else,
            # including every refusal, goes through check() and _apply_checked().
            pending = self._pending
            if pending is _NONE or pending is _REVERSE_DUMP:  # D9: a turn offered with a dump
                if kind is Draw:
                    draw = self._draw
                    if draw:  # D5, without the general draw's refill bookkeeping
                        self._exposed = -1  # D11: any draw ends exposure
                        card = draw.pop()
                        self._hands[i].append(card)
                        if card in self._playable:
                            self._drawn = card
                            self._pending = _DRAWN_CARD
                            events = [self._ev_draw1[i]]
                        else:
                            self._turn = o = 1 - i
                            self._pending = _NONE
                            events = [self._ev_draw1[i], self._ev_turn[o]]
                    else:
                        events = []
                        self._turn_draw(i, events)
                elif kind is Play:
                    play: Play = action  # type: ignore[assignment]
                    card = play.card
                    hand = self._hands[i]
                    try:
                        at = hand.index(card)  # in C, by identity: every Card is interned
                    except ValueError:
                        at = -1  # not held: check() below words the refusal
                    if (
                        at >= 0
                        and hand[at] is card  # not merely == (a foreign object's __eq__)
                        and card in self._playable
                        and (not play.uno or self._after_play(i, card) == 1)
                    ):
                        if card.face in _NUMBERS and len(hand) > 2:
                            # A number card leaving two or more cards (most plays): only
                            # the card and the turn move, as in _play, without the call
                            # (and no card was just drawn: _drawn is already None).
                            del hand[at]
                            self._exposed = -1  # D11: any card played ends exposure
                            self._discard.append(card)
                            self._active = card.colour
                            self._playable = _ON[card]
                            self._turn = o = 1 - i
                            self._pending = _NONE
                            try:  # the shared event (engine.events.PLAYED)
                                event = PLAYED[card][player]
                            except KeyError:
                                event = card_played(self.players[i], card)
                            events = [event, self._ev_turn[o]]
                        else:
                            events = []
                            self._play(i, card, play.uno, events, at)
                elif kind is Dump and pending is _REVERSE_DUMP:
                    events = self._fast_dump(i, action)  # type: ignore[arg-type]
            elif pending is _DRAWN_CARD:
                if kind is KeepDrawn:
                    self._drawn = None
                    self._turn = o = 1 - i
                    self._pending = _NONE
                    events = [self._ev_kept[i], self._ev_turn[o]]
                elif kind is Play:
                    play = action  # type: ignore[assignment]
                    card = play.card
                    if card is self._drawn and (not play.uno or self._after_play(i, card) == 1):
                        hand = self._hands[i]
                        at = hand.index(card)  # the first copy, as _play would remove
                        if card.face in _NUMBERS and len(hand) > 2:
                            # As the ordinary turn's number card above.
                            del hand[at]
                            self._exposed = -1
                            self._drawn = None
                            self._discard.append(card)
                            self._active = card.colour
                            self._playable = _ON[card]
                            self._turn = o = 1 - i
                            self._pending = _NONE
                            try:
                                event = PLAYED[card][player]
                            except KeyError:
                                event = card_played(self.players[i], card)
                            events = [event, self._ev_turn[o]]
                        else:
                            events = []
                            self._play(i, card, play.uno, events, at)
            elif pending is _COLOUR:
                if kind is ChooseColour:
                    colour = action.colour  # type: ignore[union-attr]
                    if colour.__class__ is Colour:  # as check(): a Colour, nothing else
                        top = self._discard[-1]
                        face = top.face
                        if not self._first_colour and face is not _W4 and face is not _WSH:
                            # A plain wild's colour (D5): the common case of _choose_colour.
                            self._active = colour
                            self._playable = MATCHING[top][colour]
                            events = [self._ev_colour[i][colour]]
                            if len(self._hands[i]) == 1:
                                self._settle_uno(i, events)
                            else:
                                self._call = False  # as _settle_uno
                            self._turn = o = 1 - i
                            self._pending = _NONE
                            events.append(self._ev_turn[o])
                        else:
                            events = []
                            self._choose_colour(i, colour, events)
            # The other decisions, as check() judges them.
            elif pending is _VOLLEY:
                if kind is TakeVolley:
                    events = []
                    self._take_volley(i, events)
                elif kind is Play:  # D7: stack a Draw 2
                    play = action  # type: ignore[assignment]
                    card = play.card
                    hand = self._hands[i]
                    try:
                        at = hand.index(card)
                    except ValueError:
                        at = -1
                    if (
                        at >= 0
                        and hand[at] is card
                        and card.face is _D2
                        and (not play.uno or len(hand) == 2)
                    ):
                        events = []
                        self._play(i, card, play.uno, events, at)
            elif pending is _DUMP_PENDING:
                if kind is Dump:
                    events = self._fast_dump(i, action)  # type: ignore[arg-type]
                elif kind is NoDump:
                    events = []
                    self._no_dump(i, events)
            elif pending is _DRAFT_PICK or pending is _DRAFT_FORCED:
                if kind is KeepCard:
                    events = []
                    self._keep_card(i, events)
                elif kind is RejectCard and pending is _DRAFT_PICK:
                    events = []
                    self._reject_card(i, events)
            elif pending is _WILD_DRAW:
                if kind is Challenge:
                    # The general route: it hides an earlier reveal before this one.
                    return self._apply_checked(i, action)
                if kind is Accept:
                    events = []
                    self._accept(i, events)
        if events is not None:  # count the accepted action and log its events
            if self._revealed_to == i:  # D10: shown until the challenger's next action
                self._revealed_to = -1
                self._revealed = ()
            self.version += 1
            self._recent.extend(events)
            return events
        self.check(player, action)
        return self._apply_checked(i, action)

    def _apply_checked(self, i: int, action: Action) -> list[Event]:
        """Carry out an action already judged legal, by the general route."""
        events: list[Event] = []
        if self._revealed_to == i:  # D10: shown until the challenger's next action
            self._revealed_to = -1
            self._revealed = ()
        # Exact kinds first (a class test is cheaper than isinstance), then the
        # kinds carrying a value, whose subclasses check() accepts too.
        kind = action.__class__
        if kind is KeepCard:
            self._keep_card(i, events)
        elif kind is TakeVolley:
            self._take_volley(i, events)
        elif kind is RejectCard:
            self._reject_card(i, events)
        elif kind is NoDump:
            self._no_dump(i, events)
        elif kind is Challenge:
            self._challenge(i, events)
        elif kind is Accept:
            self._accept(i, events)
        elif kind is Draw:
            self._turn_draw(i, events)
        elif kind is KeepDrawn:
            self._drawn = None
            events.append(self._ev_kept[i])
            self._give_turn(1 - i, _NONE, events)
        elif kind is CallUno:
            self._exposed = -1
            events.append(self._ev_called[i])
        elif kind is CatchUno:
            self._exposed = -1
            events.append(UnoCaught(self.players[i], self.players[1 - i]))
            self._draw_cards(1 - i, 2, _BY_UNO_PENALTY, events)
        elif isinstance(action, Play):
            card = action.card
            if card not in _PLAY:  # defensive: every Card is interned by Card.__new__
                card = Card.parse(card.code)
            self._play(i, card, action.uno, events)
        elif isinstance(action, Dump):
            last = action.last
            if last not in _PLAY:  # defensive: every Card is interned by Card.__new__
                last = Card.parse(last.code)
            self._dump(i, last, action.uno, events)
        elif isinstance(action, ChooseColour):
            self._choose_colour(i, action.colour, events)
        self.version += 1
        self._recent.extend(events)
        return events

    # X3 ----------------------------------------------------------------------------------

    def remove_player(self, player: str) -> list[Event]:
        """X3: a forfeit; the opponent wins the match, the round is not scored."""
        i = self._seat(player)
        if self._phase is _MATCH_OVER:
            raise MatchOver("The match is over.")
        o = 1 - i
        self._reset_turn_state()
        self._phase = _MATCH_OVER
        self.is_over = True
        self._pending = _NONE
        self._removed = i
        self._winner = o
        events: list[Event] = [
            PlayerRemoved(player),
            MatchEnded(self.players[o], self._score_pairs(), (player,)),
        ]
        self.version += 1
        self._recent.extend(events)
        return events

    # timeout -----------------------------------------------------------------------------

    def timeout_action(self, player: str) -> Action:
        """The safe default (DESIGN.md); deterministic given the state."""
        i = self._seat(player)
        if self._phase is _MATCH_OVER:
            raise MatchOver("The match is over.")
        if self._turn != i:
            raise NotYourTurn("It's not your turn — the other player is deciding.")
        pending = self._pending
        if pending is _DRAFT_PICK or pending is _DRAFT_FORCED:
            return _KEEP_CARD
        if pending is _DRAWN_CARD:
            return _KEEP_DRAWN
        if pending is _VOLLEY:
            return _TAKE_VOLLEY
        if pending is _WILD_DRAW:
            return _ACCEPT
        if pending is _DUMP_PENDING:
            return _NO_DUMP
        if pending is _COLOUR:
            counts = dict.fromkeys(Colour, 0)
            for c in self._hands[i]:
                if c.colour is not None:
                    counts[c.colour] += 1
            # max() keeps the first of equals, so ties go by Colour order.
            return _CHOOSE_FOR[max(Colour, key=counts.__getitem__)]
        return _DRAW  # NONE and REVERSE_DUMP: draw (and pass), no dump

    # views -------------------------------------------------------------------------------

    def public_view(self) -> PublicView:
        """Everything both players (and onlookers) may know."""
        over = self._phase is _MATCH_OVER
        pending = self._pending
        if pending is _VOLLEY:
            owed = self._volley
        elif pending is _WILD_DRAW:
            owed = 4
        else:
            owed = 0
        shown = [e for e in self._recent if e.__class__ is not TurnStarted]
        seats = tuple(
            SeatView(
                p, len(self._hands[i]), self._scores[i], self._exposed == i, self._removed != i
            )
            for i, p in enumerate(self.players)
        )
        return PublicView(
            variant="duo",
            round=self._round,
            target=self._options.target,
            phase=self._phase,
            pending=pending,
            seats=seats,
            to_act=None if over else self.players[self._turn],
            top=self._discard[-1] if self._discard else None,
            active_colour=self._active,
            draw_pile=len(self._draw),
            discard_pile=len(self._discard),
            pending_draw=owed,
            clockwise=True,
            dealer=self.players[self._p1],
            draft_pile=tuple(self._draft),
            recent=tuple(shown[-RECENT_EVENTS:]),
            winner=self.players[self._winner] if self._winner >= 0 else None,
        )

    def private_view(self, player: str) -> PrivateView:
        """The player's own hand, legal actions and what was shown to them alone."""
        i = self._seat(player)
        mine = self._turn == i and self._phase is not _MATCH_OVER
        pending = self._pending
        looking = None
        if mine and (pending is _DRAFT_PICK or pending is _DRAFT_FORCED):
            looking = self._draw[-1]
        return PrivateView(
            player=player,
            hand=tuple(sorted(self._hands[i], key=HAND_ORDER.__getitem__)),
            legal=tuple(self.legal_actions(player)),
            looking_at=looking,
            drawn=self._drawn if mine and pending is _DRAWN_CARD else None,
            revealed_hand=(
                tuple(sorted(self._revealed, key=HAND_ORDER.__getitem__))
                if self._revealed_to == i
                else None
            ),
            received=None,
            given=None,
        )


__all__ = ["DuoMatch", "card_points"]
