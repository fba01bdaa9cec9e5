"""UNO Duo (RULES.md D1–D14, X1–X4): the two-player rules engine.

`DuoMatch` implements `engine.match.Match`: what happens when an action is
applied, the views and the timeouts. It builds on `engine.duo_state.DuoState`
(the fields, snapshots, test builders) and `engine.duo_legal.DuoRules`
(`legal_actions` and `check`). The hot path is plain Python over lists of
interned cards; pydantic only validates snapshots (`engine.duo_snapshot`).
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
from engine.cards import HAND_ORDER, MATCHING, Card, Colour, Face, duo_deck, shuffle
from engine.duo_legal import (
    _ACCEPT,
    _ALL_CARDS,
    _CHOOSE,
    _COLOUR,
    _D2,
    _DRAFT_FORCED,
    _DRAFT_PHASE,
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
    _PLAY_PHASE,
    _REV,
    _REVERSE_DUMP,
    _SKIP,
    _TAKE_VOLLEY,
    _TURN,
    _VOLLEY,
    _W4,
    _WILD_DRAW,
    _WSH,
    DuoRules,
)
from engine.duo_state import DRAFT_PICKS, RECENT_EVENTS, card_points
from engine.errors import MatchOver, NotYourTurn
from engine.events import (
    PLAYED,
    CardsDrawn,
    ChallengeResolved,
    ColourDumped,
    CutForPlayerOne,
    DraftPicked,
    DrawPileRefilled,
    DrawReason,
    Event,
    FirstCardTurned,
    HandsShuffled,
    MatchEnded,
    PlayerRemoved,
    RoundEnded,
    RoundStarted,
    TurnStarted,
    UnoCaught,
    VolleyRaised,
    card_played,
)
from engine.match import DuoOptions
from engine.views import Pending, PrivateView, PublicView, SeatView

_POINTS = {c: card_points(c) for c in _ALL_CARDS}
# What may be played on a coloured card once it is on top (its own colour active).
_ON = {c: MATCHING[c][c.colour] for c in _ALL_CARDS if c.colour is not None}
_ON_WILD = {c: MATCHING[c][None] for c in _ALL_CARDS if c.colour is None}
_BY_VOLLEY = DrawReason.VOLLEY
_BY_FIRST_CARD = DrawReason.FIRST_CARD
_BY_WILD_DRAW = DrawReason.WILD_DRAW
_BY_CHALLENGE = DrawReason.CHALLENGE
_BY_UNO_PENALTY = DrawReason.UNO_PENALTY

# Frequent events with varying fields are built through their slots, in place: a frozen
# dataclass __init__ goes through object.__setattr__ per field (measured: ~0.7 us, these
# ~0.35 us). CardPlayed, the commonest, is shared instead (engine.events.PLAYED); events
# naming one seat only are built once per match (DuoState._ev_*).
_NEW = object.__new__
_PICK_PLAYER, _PICK_KEPT, _PICK_SHOWN = (
    vars(DraftPicked)[name].__set__ for name in ("player", "kept", "shown")
)
_RAISE_PLAYER, _RAISE_TARGET, _RAISE_TOTAL = (
    vars(VolleyRaised)[name].__set__ for name in ("player", "target", "total")
)
_DRAWN_PLAYER, _DRAWN_COUNT, _DRAWN_REASON = (
    vars(CardsDrawn)[name].__set__ for name in ("player", "count", "reason")
)
_JUDGED_BY, _JUDGED_PLAYER, _JUDGED_LEGIT = (
    vars(ChallengeResolved)[name].__set__ for name in ("challenger", "challenged", "legitimate")
)
_DUMPED_PLAYER, _DUMPED_CARDS = (vars(ColourDumped)[name].__set__ for name in ("player", "cards"))


_CHOOSE_FOR = dict(zip(Colour, _CHOOSE, strict=True))
_NUMBERS = frozenset(face for face in Face if face.number is not None)


class DuoMatch(DuoRules):
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

    # ----------------------------------------------------------------- set-up

    def _cut(self, events: list[Event]) -> None:
        """D2: each cuts a random card; the higher number is Player 1; ties cut again."""
        deck = duo_deck(classic=self._options.classic_deck)
        cuts: list[tuple[str, Card]] = []
        while True:
            a, b = self._rng.sample(deck, 2)
            cuts += [(self.players[0], a), (self.players[1], b)]
            va, vb = a.face.number or 0, b.face.number or 0
            if va != vb:
                break
        self._p1 = 0 if va > vb else 1
        events.append(CutForPlayerOne(tuple(cuts), self.players[self._p1]))

    def _start_round(self, events: list[Event]) -> None:
        """D3: shuffle the whole deck; no deal, Player 1 picks first."""
        deck = duo_deck(classic=self._options.classic_deck)
        shuffle(self._rng, deck)
        self._draw = deck
        self._hands = [[], []]
        self._discard = []
        self._draft = []
        self._active = None
        self._sync_playable()
        self._picks = 0
        self._reset_turn_state()
        self._phase = _DRAFT_PHASE
        self._pending = _DRAFT_PICK
        self._turn = self._p1
        p1 = self._p1
        events.append(RoundStarted(self._round, self.players[1 - p1], self.players[p1]))

    def _reset_turn_state(self) -> None:
        self._drawn = None
        self._volley = 0
        self._exposed = -1
        self._call = False
        self._first_colour = False
        self._wd4_hand = None
        self._wd4_top = None
        self._wd4_active = None

    # ----------------------------------------------------------- the protocol

    def waiting_for(self) -> tuple[str, ...]:
        """Who must decide now (one player in Duo; nobody once over)."""
        if self.is_over:
            return ()
        return self._waits[self._turn]

    # ------------------------------------------------------------------ apply

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

    def _no_dump(self, i: int, events: list[Event]) -> None:
        events.append(self._ev_declined[i])
        self._settle_uno(i, events)
        # D9: a Reverse with nothing after it lets the opponent dump (as in D4).
        self._turn = o = 1 - i  # _give_turn, inlined
        self._pending = _REVERSE_DUMP
        events.append(self._ev_turn[o])

    def _give_turn(self, i: int, pending: Pending, events: list[Event]) -> None:
        self._turn = i
        self._pending = pending
        events.append(self._ev_turn[i])

    # D3 ----------------------------------------------------------------------

    def _keep_card(self, i: int, events: list[Event]) -> None:
        draw = self._draw
        self._hands[i].append(draw.pop())
        if self._pending is _DRAFT_PICK:
            shown = draw.pop()  # the next card is turned face up onto the draft pile
            self._draft.append(shown)
            event: DraftPicked = _NEW(DraftPicked)
            _PICK_PLAYER(event, self.players[i])
            _PICK_KEPT(event, True)
            _PICK_SHOWN(event, shown)
            events.append(event)
        self._picks += 1
        if self._picks < DRAFT_PICKS:
            self._turn = 1 - i
            self._pending = _DRAFT_PICK
        else:
            self._end_draft(events)

    def _reject_card(self, i: int, events: list[Event]) -> None:
        shown = self._draw.pop()
        self._draft.append(shown)
        event: DraftPicked = _NEW(DraftPicked)
        _PICK_PLAYER(event, self.players[i])
        _PICK_KEPT(event, False)
        _PICK_SHOWN(event, shown)
        events.append(event)
        self._pending = _DRAFT_FORCED

    def _end_draft(self, events: list[Event]) -> None:
        # D3: flipped as one stack (oldest on top), unshuffled, under the draw pile.
        draft = self._draft
        draft.reverse()
        self._draw[:0] = draft
        self._draft = []
        self._phase = _PLAY_PHASE
        self._first_card(events)

    def _first_card(self, events: list[Event]) -> None:
        """D4: turn up the first card; Player 2 carries out its action."""
        top = self._draw.pop()
        self._discard.append(top)
        self._active = top.colour
        self._sync_playable()
        events.append(FirstCardTurned(top))
        p1 = self._p1
        p2 = 1 - p1
        face = top.face
        if top.colour is None:
            self._turn = p1
            self._pending = _COLOUR
            self._first_colour = True
        elif face is _SKIP:
            events.append(self._ev_skip[p2])
            self._give_turn(p1, _NONE, events)
        elif face is _D2:
            self._draw_cards(p2, 2, _BY_FIRST_CARD, events)
            self._give_turn(p1, _NONE, events)
        elif face is _REV:
            self._give_turn(p2, _REVERSE_DUMP, events)
        else:
            self._give_turn(p2, _NONE, events)

    # D5, D12 -----------------------------------------------------------------

    def _draw_cards(self, i: int, n: int, reason: DrawReason, events: list[Event]) -> int:
        """Draw up to n cards, refilling once empty (D12); return how many came."""
        draw = self._draw
        hand = self._hands[i]
        got = 0
        if 0 < n <= len(draw):  # the common case: n pops from the top, in one slice
            taken = draw[-n:]
            del draw[-n:]
            taken.reverse()
            hand += taken
            got = n
        while got < n:
            if not draw:
                if not self._refill(events):
                    break  # D12: nothing left anywhere, the rest is dropped
                draw = self._draw
            hand.append(draw.pop())
            got += 1
        if got == 1 and reason is _TURN:
            events.append(self._ev_draw1[i])
        else:
            event: CardsDrawn = _NEW(CardsDrawn)
            _DRAWN_PLAYER(event, self.players[i])
            _DRAWN_COUNT(event, got)
            _DRAWN_REASON(event, reason)
            events.append(event)
        return got

    def _refill(self, events: list[Event]) -> bool:
        """D12: keep the top discard; the rest, turned face down unshuffled, is the draw pile."""
        discard = self._discard
        if len(discard) < 2:
            return False
        top = discard.pop()
        discard.reverse()  # flipped as one stack: the oldest card ends on top (the end)
        self._draw = discard
        self._discard = [top]
        events.append(DrawPileRefilled(len(discard)))
        return True

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

    # Plays: D6, D7, D8, D9, D13 ---------------------------------------------------

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

    # D13, D14 ------------------------------------------------------------------

    def _score_pairs(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(self.players, self._scores, strict=True))

    def _end_round(self, winner: int, events: list[Event]) -> None:
        loser = 1 - winner
        points = [0, 0]
        points[loser] = sum(_POINTS[c] for c in self._hands[loser])
        self._scores[loser] += points[loser]
        hands = tuple(
            (p, tuple(sorted(h, key=HAND_ORDER.__getitem__)))
            for p, h in zip(self.players, self._hands, strict=True)
        )
        events.append(
            RoundEnded(
                self._round,
                self.players[winner],
                tuple(zip(self.players, points, strict=True)),
                self._score_pairs(),
                hands,
            )
        )
        self._reset_turn_state()
        if self._scores[loser] >= self._options.target:
            self._phase = _MATCH_OVER
            self.is_over = True
            self._pending = _NONE
            self._winner = winner
            events.append(MatchEnded(self.players[winner], self._score_pairs()))
            return
        self._round += 1
        self._p1 = 1 - self._p1  # D2: roles swap every round
        self._start_round(events)

    # X3 ------------------------------------------------------------------------

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

    # ---------------------------------------------------------------- timeout

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

    # ------------------------------------------------------------------ views

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
