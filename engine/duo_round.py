"""UNO Duo, the frame of a round: the cut, the draft, the first card, drawing and
refilling, the end of a round and the scores (RULES.md D2-D4, D12-D14).

`DuoRound` adds these to `engine.duo_legal.DuoRules`; `engine.duo_moves.DuoMoves`
adds the plays, and `engine.duo.DuoMatch` what the bot calls.
"""

from __future__ import annotations

from engine.cards import HAND_ORDER, Card, duo_deck, shuffle
from engine.duo_legal import (
    _ALL_CARDS,
    _COLOUR,
    _D2,
    _DRAFT_FORCED,
    _DRAFT_PHASE,
    _DRAFT_PICK,
    _MATCH_OVER,
    _NONE,
    _PLAY_PHASE,
    _REV,
    _REVERSE_DUMP,
    _SKIP,
    _TURN,
    DuoRules,
)
from engine.duo_state import DRAFT_PICKS, card_points
from engine.events import (
    CardsDrawn,
    CutForPlayerOne,
    DraftPicked,
    DrawPileRefilled,
    DrawReason,
    Event,
    FirstCardTurned,
    MatchEnded,
    RoundEnded,
    RoundStarted,
)
from engine.views import Pending

_POINTS = {c: card_points(c) for c in _ALL_CARDS}
_BY_FIRST_CARD = DrawReason.FIRST_CARD

# Frequent events with varying fields are built through their slots, in place: a frozen
# dataclass __init__ goes through object.__setattr__ per field (measured: ~0.7 us, these
# ~0.35 us). CardPlayed, the commonest, is shared instead (engine.events.PLAYED); events
# naming one seat only are built once per match (DuoState._ev_*).
_NEW = object.__new__
_PICK_PLAYER, _PICK_KEPT, _PICK_SHOWN = (
    vars(DraftPicked)[name].__set__ for name in ("player", "kept", "shown")
)
_DRAWN_PLAYER, _DRAWN_COUNT, _DRAWN_REASON = (
    vars(CardsDrawn)[name].__set__ for name in ("player", "count", "reason")
)


class DuoRound(DuoRules):
    """Rounds of a Duo match: set-up, draws and scoring."""

    __slots__ = ()

    # D2, D3: the cut and the round start -------------------------------------------------

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

    def _give_turn(self, i: int, pending: Pending, events: list[Event]) -> None:
        self._turn = i
        self._pending = pending
        events.append(self._ev_turn[i])

    # D3, D4: the draft and the first card ------------------------------------------------

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

    # D5, D12: drawing --------------------------------------------------------------------

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

    # D13, D14: the end of a round --------------------------------------------------------

    def _score_pairs(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(self.players, self._scores, strict=True))

    def _end_round(self, winner: int, events: list[Event]) -> None:
        loser = 1 - winner
        points = [0, 0]
        points[loser] = sum(map(_POINTS.__getitem__, self._hands[loser]))  # in C
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
