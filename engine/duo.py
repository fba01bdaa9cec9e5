"""UNO Duo (RULES.md D1–D14, X1–X4): the two-player rules engine.

`DuoMatch` implements `engine.match.Match`. The hot path (`legal_actions`,
`check`, `apply`) is plain Python over lists of interned cards; pydantic only
validates snapshots (`engine.duo_snapshot`). Piles are lists whose *end* is the
top, so drawing and playing are `pop()` / `append()`.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

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
from engine.cards import Card, Colour, Face, cards, duo_deck, hand_order, matches
from engine.duo_snapshot import DuoSnapshot, decode_event, encode_event
from engine.errors import (
    CardDoesNotMatch,
    CardNotInHand,
    IllegalAction,
    MatchOver,
    NotYourTurn,
    UnknownPlayer,
    WrongMoment,
)
from engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    ColourDumped,
    CutForPlayerOne,
    DraftPicked,
    DrawnCardKept,
    DrawPileRefilled,
    DrawReason,
    DumpDeclined,
    Event,
    FirstCardTurned,
    HandsShuffled,
    MatchEnded,
    PlayerRemoved,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
    UnoCaught,
    UnoExposed,
    VolleyRaised,
)
from engine.match import SNAPSHOT_SCHEMA, DuoOptions, Variant
from engine.views import Pending, Phase, PrivateView, PublicView, SeatView

DRAFT_PICKS = 14  # D3: 7 cards each
RECENT_EVENTS = 10  # shown in PublicView.recent
_KEPT_EVENTS = 20  # kept, TurnStarted included (left out of the view: to_act says it)

_NONE = Pending.NONE
_REVERSE_DUMP = Pending.REVERSE_DUMP
_DRAWN_CARD = Pending.DRAWN_CARD
_COLOUR = Pending.COLOUR
_DRAFT_PICK = Pending.DRAFT_PICK
_DRAFT_FORCED = Pending.DRAFT_FORCED
_VOLLEY = Pending.VOLLEY
_WILD_DRAW = Pending.WILD_DRAW
_DUMP_PENDING = Pending.DUMP
_TURN = DrawReason.TURN
_W4 = Face.WILD_DRAW_FOUR
_WSH = Face.WILD_SHUFFLE_HANDS
_D2 = Face.DRAW_TWO
_SKIP = Face.SKIP
_REV = Face.REVERSE

# Actions are immutable values: build each once, hand out shared instances.
_ALL_CARDS = [Card.parse(code) for code in sorted(Card._interned)]
# Keyed by id(card): interned cards live forever, and an int hashes fast.
_PLAY = {id(c): Play(c) for c in _ALL_CARDS}
_PLAY_UNO = {id(c): Play(c, uno=True) for c in _ALL_CARDS}
_DUMP = {id(c): Dump(c) for c in _ALL_CARDS if c.colour is not None}
_DUMP_UNO = {id(c): Dump(c, uno=True) for c in _ALL_CARDS if c.colour is not None}
_CHOOSE = tuple(ChooseColour(colour) for colour in Colour)
_KEEP_CARD = KeepCard()
_REJECT_CARD = RejectCard()
_DRAW = Draw()
_KEEP_DRAWN = KeepDrawn()
_TAKE_VOLLEY = TakeVolley()
_CHALLENGE = Challenge()
_ACCEPT = Accept()
_NO_DUMP = NoDump()
_CALL_UNO = CallUno()
_CATCH_UNO = CatchUno()


def card_points(card: Card) -> int:
    """D14: number cards face value; Draw 2, Reverse, Skip 10; wilds 15; Wild Draw 4 20."""
    number = card.face.number
    if number is not None:
        return number
    if card.face is _W4:
        return 20
    return 15 if card.colour is None else 10


_POINTS = {id(c): card_points(c) for c in _ALL_CARDS}


def _legal_dumps(hand: list[Card], colour: Colour | None, acts: list[Action]) -> None:
    """D9: one Dump per distinct card of the colour, as the last card laid."""
    same = [c for c in hand if c.colour is colour]
    if not same:
        return
    rest = len(hand) - len(same)
    seen: set[int] = set()
    for c in same:
        k = id(c)
        if k not in seen:
            seen.add(k)
            acts.append(_DUMP[k])
            if rest == 1:
                acts.append(_DUMP_UNO[k])


def _remove(hand: list[Card], card: Card) -> None:
    """Remove one `card` by identity (cards are interned; == would be slower)."""
    for k, c in enumerate(hand):
        if c is card:
            del hand[k]
            return
    raise ValueError(card)


def _as_cards(value: str | Sequence[Card]) -> list[Card]:
    return cards(value) if isinstance(value, str) else list(value)


class DuoMatch:
    """A match of UNO Duo between exactly two players, rounds until the target (D14)."""

    __slots__ = (
        "_active",
        "_call",
        "_discard",
        "_draft",
        "_draw",
        "_drawn",
        "_ev_draw1",
        "_ev_kept",
        "_ev_skip",
        "_ev_turn",
        "_exposed",
        "_first_colour",
        "_hands",
        "_idx",
        "_lc",
        "_lc_version",
        "_options",
        "_p1",
        "_pending",
        "_phase",
        "_picks",
        "_recent",
        "_removed",
        "_revealed",
        "_revealed_to",
        "_rng",
        "_round",
        "_scores",
        "_turn",
        "_volley",
        "_waits",
        "_wd4_active",
        "_wd4_hand",
        "_wd4_top",
        "_winner",
        "players",
        "seed",
        "version",
    )

    variant: Variant = "duo"
    players: tuple[str, ...]
    seed: int
    version: int
    _options: DuoOptions
    _rng: random.Random
    _idx: dict[str, int]
    _round: int
    _scores: list[int]
    _p1: int  # seat index of Player 1 this round (D2)
    _phase: Phase
    _pending: Pending
    _turn: int  # seat index of the player who must decide
    _hands: list[list[Card]]
    _draw: list[Card]  # top is the end
    _discard: list[Card]  # top is the end
    _draft: list[Card]  # D3: oldest first
    _active: Colour | None
    _picks: int
    _drawn: Card | None  # D5: the drawn card that may be played
    _volley: int  # D7: running total owed while pending is VOLLEY
    _exposed: int  # D11: seat index of the exposed player, -1 if none
    _call: bool  # D11: UNO called together with the play being carried out
    _first_colour: bool  # D4: Player 1 names the colour of a first-card wild
    _wd4_hand: list[Card] | None  # D10: the hand held when the WD4 was played
    _wd4_top: Card | None
    _wd4_active: Colour | None
    _revealed_to: int  # D10: the challenger, -1 if none
    _revealed: tuple[Card, ...]
    _removed: int  # X3: seat index of the forfeiting player, -1 if none
    _winner: int
    _waits: tuple[tuple[str], tuple[str]]
    _recent: deque[Event]
    _ev_turn: tuple[TurnStarted, TurnStarted]
    _ev_skip: tuple[TurnSkipped, TurnSkipped]
    _ev_kept: tuple[DrawnCardKept, DrawnCardKept]
    _ev_draw1: tuple[CardsDrawn, CardsDrawn]
    _lc_version: int
    _lc: list[list[Action] | None]

    def __init__(
        self, *, players: Sequence[str], seed: int, options: DuoOptions | None = None
    ) -> None:
        self._blank(players, seed, options or DuoOptions())
        events: list[Event] = []
        self._cut(events)
        self._start_round(events)
        self._recent.extend(events)

    def _blank(self, players: Sequence[str], seed: int, options: DuoOptions) -> None:
        players = tuple(players)
        if len(players) != 2 or players[0] == players[1]:
            raise ValueError("UNO Duo needs exactly two different players")
        self.players = players
        self.seed = seed
        self.version = 0
        self._options = options
        self._rng = random.Random(seed)
        self._idx = {p: i for i, p in enumerate(players)}
        self._waits = ((players[0],), (players[1],))
        self._round = 1
        self._scores = [0, 0]
        self._p1 = 0
        self._phase = Phase.DRAFT
        self._pending = Pending.DRAFT_PICK
        self._turn = 0
        self._hands = [[], []]
        self._draw = []
        self._discard = []
        self._draft = []
        self._active = None
        self._picks = 0
        self._drawn = None
        self._volley = 0
        self._exposed = -1
        self._call = False
        self._first_colour = False
        self._wd4_hand = None
        self._wd4_top = None
        self._wd4_active = None
        self._revealed_to = -1
        self._revealed = ()
        self._removed = -1
        self._winner = -1
        self._recent = deque(maxlen=_KEPT_EVENTS)
        # Events are immutable: the frequent per-seat ones are built once.
        self._ev_turn = (TurnStarted(players[0]), TurnStarted(players[1]))
        self._ev_skip = (TurnSkipped(players[0]), TurnSkipped(players[1]))
        self._ev_kept = (DrawnCardKept(players[0]), DrawnCardKept(players[1]))
        self._ev_draw1 = (
            CardsDrawn(players[0], 1, DrawReason.TURN),
            CardsDrawn(players[1], 1, DrawReason.TURN),
        )
        self._lc_version = -1
        self._lc = [None, None]

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
        self._rng.shuffle(deck)
        self._draw = deck
        self._hands = [[], []]
        self._discard = []
        self._draft = []
        self._active = None
        self._picks = 0
        self._reset_turn_state()
        self._phase = Phase.DRAFT
        self._pending = Pending.DRAFT_PICK
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

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.MATCH_OVER

    def waiting_for(self) -> tuple[str, ...]:
        if self._phase is Phase.MATCH_OVER:
            return ()
        return self._waits[self._turn]

    def _seat(self, player: str) -> int:
        i = self._idx.get(player)
        if i is None:
            raise UnknownPlayer("You're not playing in this match.")
        return i

    def legal_actions(self, player: str) -> list[Action]:
        i = self._idx.get(player)
        if i is None or self._phase is Phase.MATCH_OVER:
            return []
        # Cached per version: apply() recognises these very objects as legal.
        if self._lc_version != self.version:
            self._lc_version = self.version
            self._lc = [None, None]
        cached = self._lc[i]
        if cached is None:
            cached = self._lc[i] = self._legal(i)
        return list(cached)

    def _legal(self, i: int) -> list[Action]:
        # Hot path: cards are interned, so tables are keyed by id() (an int hashes
        # far faster than a dataclass of enums).
        acts: list[Action] = []
        if self._turn == i:
            pending = self._pending
            hand = self._hands[i]
            if pending is _NONE or pending is _REVERSE_DUMP:
                top = self._discard[-1]
                active = self._active
                top_face = top.face if top.colour is not None else None
                two = len(hand) == 2
                seen: list[int] = []
                for c in hand:
                    colour = c.colour
                    if colour is None or colour is active or c.face is top_face:
                        k = id(c)
                        if k in seen:
                            continue
                        seen.append(k)
                        acts.append(_PLAY[k])
                        if (two or c.face is _WSH) and self._after_play(i, c) == 1:
                            acts.append(_PLAY_UNO[k])
                acts.append(_DRAW)
                if pending is _REVERSE_DUMP:
                    _legal_dumps(hand, top.colour, acts)
            elif pending is _DRAWN_CARD:
                drawn = self._drawn
                assert drawn is not None
                acts.append(_PLAY[id(drawn)])
                if self._after_play(i, drawn) == 1:
                    acts.append(_PLAY_UNO[id(drawn)])
                acts.append(_KEEP_DRAWN)
            elif pending is _COLOUR:
                acts += _CHOOSE
            elif pending is _DRAFT_PICK:
                acts += (_KEEP_CARD, _REJECT_CARD)
            elif pending is _DRAFT_FORCED:
                acts.append(_KEEP_CARD)
            elif pending is _VOLLEY:
                two = len(hand) == 2
                seen = []
                for c in hand:
                    k = id(c)
                    if c.face is _D2 and k not in seen:
                        seen.append(k)
                        acts.append(_PLAY[k])
                        if two:
                            acts.append(_PLAY_UNO[k])
                acts.append(_TAKE_VOLLEY)
            elif pending is _WILD_DRAW:
                acts += (_CHALLENGE, _ACCEPT)
            elif pending is _DUMP_PENDING:
                _legal_dumps(hand, self._discard[-1].colour, acts)
                acts.append(_NO_DUMP)
        exposed = self._exposed
        if exposed >= 0:
            acts.append(_CALL_UNO if exposed == i else _CATCH_UNO)
        return acts

    def _after_play(self, i: int, card: Card) -> int:
        """Cards left after playing `card`, its whole effect included (D11)."""
        left = len(self._hands[i]) - 1
        if card.face is _WSH and left:
            # D1: pooled and dealt back starting with the opponent.
            left = (left + len(self._hands[1 - i])) // 2
        return left

    # ------------------------------------------------------------------ check

    def check(self, player: str, action: Action) -> None:
        i = self._seat(player)
        if self._phase is Phase.MATCH_OVER:
            raise MatchOver("The match is over.")
        kind = type(action)
        if kind is CallUno:
            if self._exposed != i:
                raise WrongMoment(
                    "There's nothing to call: UNO is called when your own play leaves you one card."
                )
            return
        if kind is CatchUno:
            if self._exposed != 1 - i:
                raise WrongMoment("There's nobody to catch: the other player owes no UNO call.")
            return
        if self._turn != i:
            if self._phase is Phase.DRAFT:
                raise NotYourTurn("It's not your pick — the other player is drafting.")
            raise NotYourTurn("It's not your turn — the other player is deciding.")
        pending = self._pending
        if pending is Pending.NONE or pending is Pending.REVERSE_DUMP:
            if isinstance(action, Play):
                self._check_play(i, action.card, action.uno)
            elif isinstance(action, Dump):
                if pending is Pending.NONE:
                    raise WrongMoment("You can only dump a colour right after a Reverse.")
                self._check_dump(i, action, self._discard[-1].colour)
            elif kind is not Draw:
                if pending is Pending.REVERSE_DUMP:
                    title = self._colour_title(self._discard[-1].colour)
                    raise WrongMoment(f"It's your turn: play a card, draw, or dump your {title}.")
                raise WrongMoment("It's your turn: play a card or draw.")
        elif pending is Pending.DRAFT_PICK:
            if kind is not KeepCard and kind is not RejectCard:
                raise WrongMoment("Keep or reject the card you're looking at first.")
        elif pending is Pending.DRAFT_FORCED:
            if kind is not KeepCard:
                raise WrongMoment("You rejected a card, so you must keep this one.")
        elif pending is Pending.DRAWN_CARD:
            drawn = self._drawn
            assert drawn is not None
            if isinstance(action, Play):
                if action.card is not drawn:
                    raise WrongMoment(
                        f"You can only play the card you just drew ({drawn.title}), or keep it."
                    )
                self._check_play(i, drawn, action.uno)
            elif kind is not KeepDrawn:
                raise WrongMoment("Play the card you just drew, or keep it.")
        elif pending is Pending.COLOUR:
            if not isinstance(action, ChooseColour) or not isinstance(action.colour, Colour):
                raise WrongMoment("Name a colour for your wild first.")
        elif pending is Pending.VOLLEY:
            if isinstance(action, Play):
                card = action.card
                if card not in self._hands[i]:
                    raise CardNotInHand(f"You don't have a {card.title}.")
                if card.face is not _D2:
                    raise WrongMoment(
                        f"Only a Draw 2 can be stacked on a volley; "
                        f"a {card.title} can't — or take the {self._volley} cards."
                    )
                if action.uno and len(self._hands[i]) != 2:
                    raise WrongMoment("Call UNO with a play only when it leaves you one card.")
            elif kind is not TakeVolley:
                raise WrongMoment(f"Stack a Draw 2 or take the volley of {self._volley} cards.")
        elif pending is Pending.WILD_DRAW:
            if kind is not Challenge and kind is not Accept:
                raise WrongMoment("Challenge the Wild Draw 4 or accept it first.")
        elif pending is Pending.DUMP:
            colour = self._discard[-1].colour
            if isinstance(action, Dump):
                self._check_dump(i, action, colour)
            elif kind is not NoDump:
                title = self._colour_title(colour)
                raise WrongMoment(f"Dump your {title} or keep them first.")
        else:  # pragma: no cover - Duo never waits on another Pending
            raise WrongMoment("That isn't part of UNO Duo.")

    @staticmethod
    def _colour_title(colour: Colour | None) -> str:
        return f"{colour.title} cards" if colour is not None else "cards"

    def _check_play(self, i: int, card: Card, uno: bool) -> None:
        if card not in self._hands[i]:
            raise CardNotInHand(f"You don't have a {card.title}.")
        top = self._discard[-1]
        active = self._active
        if not matches(card, top=top, active=active):
            if top.colour is None and active is not None:
                raise CardDoesNotMatch(
                    f"A {card.title} doesn't match the {top.title}: {active.title} was named."
                )
            raise CardDoesNotMatch(f"A {card.title} doesn't match {top.title}.")
        if uno and self._after_play(i, card) != 1:
            raise WrongMoment("Call UNO with a play only when it leaves you one card.")

    def _check_dump(self, i: int, action: Dump, colour: Colour | None) -> None:
        last = action.last
        hand = self._hands[i]
        if last not in hand:
            raise CardNotInHand(f"You don't have a {last.title}.")
        if last.colour is None:
            raise WrongMoment("Wilds are never dumped.")
        if last.colour is not colour:
            raise WrongMoment(f"Only your {self._colour_title(colour)} can be dumped now.")
        if action.uno and sum(1 for c in hand if c.colour is not colour) != 1:
            raise WrongMoment("Call UNO with a dump only when it leaves you one card.")

    # ------------------------------------------------------------------ apply

    def apply(self, player: str, action: Action) -> list[Event]:
        i = self._idx.get(player, -1)
        # Fast path: an action object handed out by legal_actions for this very
        # version is legal (legal_actions == what check accepts, property-tested).
        lc = self._lc[i] if i >= 0 and self._lc_version == self.version else None
        if lc is None:
            self.check(player, action)
        else:
            for a in lc:
                if a is action:
                    break
            else:
                self.check(player, action)
        events: list[Event] = []
        if self._revealed_to == i:  # D10: shown until the challenger's next action
            self._revealed_to = -1
            self._revealed = ()
        kind = type(action)
        if isinstance(action, Play):
            self._play(i, action.card, action.uno, events)
        elif kind is Draw:
            self._turn_draw(i, events)
        elif isinstance(action, ChooseColour):
            self._choose_colour(i, action.colour, events)
        elif isinstance(action, Dump):
            self._dump(i, action.last, action.uno, events)
        elif kind is KeepCard:
            self._keep_card(i, events)
        elif kind is RejectCard:
            self._reject_card(i, events)
        elif kind is KeepDrawn:
            self._drawn = None
            events.append(self._ev_kept[i])
            self._give_turn(1 - i, _NONE, events)
        elif kind is TakeVolley:
            self._take_volley(i, events)
        elif kind is Accept:
            self._accept(i, events)
        elif kind is Challenge:
            self._challenge(i, events)
        elif kind is NoDump:
            events.append(DumpDeclined(self.players[i]))
            self._settle_uno(i, events)
            # D9: a Reverse with nothing after it lets the opponent dump (as in D4).
            self._give_turn(1 - i, Pending.REVERSE_DUMP, events)
        elif kind is CallUno:
            self._exposed = -1
            events.append(UnoCalled(self.players[i]))
        elif kind is CatchUno:
            self._exposed = -1
            events.append(UnoCaught(self.players[i], self.players[1 - i]))
            self._draw_cards(1 - i, 2, DrawReason.UNO_PENALTY, events)
        self.version += 1
        self._recent.extend(events)
        return events

    def _give_turn(self, i: int, pending: Pending, events: list[Event]) -> None:
        self._turn = i
        self._pending = pending
        events.append(self._ev_turn[i])

    # D3 ----------------------------------------------------------------------

    def _keep_card(self, i: int, events: list[Event]) -> None:
        draw = self._draw
        self._hands[i].append(draw.pop())
        if self._pending is Pending.DRAFT_PICK:
            shown = draw.pop()  # the next card is turned face up onto the draft pile
            self._draft.append(shown)
            events.append(DraftPicked(self.players[i], True, shown))
        self._picks += 1
        if self._picks < DRAFT_PICKS:
            self._turn = 1 - i
            self._pending = Pending.DRAFT_PICK
        else:
            self._end_draft(events)

    def _reject_card(self, i: int, events: list[Event]) -> None:
        shown = self._draw.pop()
        self._draft.append(shown)
        events.append(DraftPicked(self.players[i], False, shown))
        self._pending = Pending.DRAFT_FORCED

    def _end_draft(self, events: list[Event]) -> None:
        # D3: flipped as one stack (oldest on top), unshuffled, under the draw pile.
        draft = self._draft
        draft.reverse()
        self._draw[:0] = draft
        self._draft = []
        self._phase = Phase.PLAY
        self._first_card(events)

    def _first_card(self, events: list[Event]) -> None:
        """D4: turn up the first card; Player 2 carries out its action."""
        top = self._draw.pop()
        self._discard.append(top)
        self._active = top.colour
        events.append(FirstCardTurned(top))
        p1 = self._p1
        p2 = 1 - p1
        face = top.face
        if top.colour is None:
            self._turn = p1
            self._pending = Pending.COLOUR
            self._first_colour = True
        elif face is _SKIP:
            events.append(self._ev_skip[p2])
            self._give_turn(p1, Pending.NONE, events)
        elif face is _D2:
            self._draw_cards(p2, 2, DrawReason.FIRST_CARD, events)
            self._give_turn(p1, Pending.NONE, events)
        elif face is _REV:
            self._give_turn(p2, Pending.REVERSE_DUMP, events)
        else:
            self._give_turn(p2, Pending.NONE, events)

    # D5, D12 -----------------------------------------------------------------

    def _draw_cards(self, i: int, n: int, reason: DrawReason, events: list[Event]) -> int:
        """Draw up to n cards, refilling once empty (D12); return how many came."""
        draw = self._draw
        hand = self._hands[i]
        got = 0
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
            events.append(CardsDrawn(self.players[i], got, reason))
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
        if self._draw_cards(i, 1, DrawReason.TURN, events):
            card = self._hands[i][-1]
            top = self._discard[-1]
            if (
                card.colour is None
                or card.colour is self._active
                or (top.colour is not None and card.face is top.face)
            ):
                self._drawn = card
                self._pending = Pending.DRAWN_CARD
                return
        self._give_turn(1 - i, _NONE, events)

    # Plays: D6, D7, D8, D9, D13 ---------------------------------------------------

    def _play(self, i: int, card: Card, uno: bool, events: list[Event]) -> None:
        hand = self._hands[i]
        prev_top = self._discard[-1]
        prev_active = self._active
        _remove(hand, card)
        self._discard.append(card)
        self._exposed = -1  # D11: any card played ends exposure
        self._drawn = None
        self._call = uno
        o = 1 - i
        events.append(CardPlayed(self.players[i], card))
        face = card.face
        if card.colour is None:
            self._active = None
            if not hand:
                # D13: a last wild names no colour; a last WD4 is drawn, unchallenged.
                if face is _W4:
                    self._draw_cards(o, 4, DrawReason.WILD_DRAW, events)
                self._end_round(i, events)
                return
            if face is _W4:
                # D10: judged on this hand, against the previous top and colour.
                self._wd4_hand = hand.copy()
                self._wd4_top = prev_top
                self._wd4_active = prev_active
            self._pending = Pending.COLOUR
            return
        self._active = card.colour
        if face is _D2:
            total = self._volley + 2
            if not hand:  # D13: the volley is drawn first
                self._volley = 0
                self._draw_cards(o, total, DrawReason.VOLLEY, events)
                self._end_round(i, events)
                return
            self._volley = total
            events.append(VolleyRaised(self.players[i], self.players[o], total))
            self._settle_uno(i, events)
            self._give_turn(o, Pending.VOLLEY, events)
            return
        if not hand:
            self._end_round(i, events)
        elif face is _SKIP:  # D6
            events.append(self._ev_skip[o])
            self._settle_uno(i, events)
            self._give_turn(i, Pending.NONE, events)
        elif face is _REV:  # D9: the dump decision is part of this play
            self._pending = Pending.DUMP
        else:
            self._settle_uno(i, events)
            self._give_turn(o, Pending.NONE, events)

    def _settle_uno(self, i: int, events: list[Event]) -> None:
        """D11: judged after the play's whole effect."""
        if len(self._hands[i]) == 1:
            if self._call:
                events.append(UnoCalled(self.players[i]))
            else:
                self._exposed = i
                events.append(UnoExposed(self.players[i]))
        self._call = False

    def _choose_colour(self, i: int, colour: Colour, events: list[Event]) -> None:
        self._active = colour
        events.append(ColourChosen(self.players[i], colour))
        o = 1 - i
        face = self._discard[-1].face
        if self._first_colour:  # D4: Player 1 names it; no shuffle, no challenge
            self._first_colour = False
            if face is _W4:
                self._draw_cards(o, 4, DrawReason.FIRST_CARD, events)
                self._give_turn(i, Pending.NONE, events)
            else:
                self._give_turn(o, Pending.NONE, events)
            return
        if face is _W4:  # D8: the opponent challenges or accepts
            self._settle_uno(i, events)
            self._give_turn(o, Pending.WILD_DRAW, events)
            return
        if face is _WSH:  # D1: pool, shuffle, deal back starting with the opponent
            pool = self._hands[i] + self._hands[o]
            self._rng.shuffle(pool)
            self._hands[o] = pool[0::2]
            self._hands[i] = pool[1::2]
            events.append(HandsShuffled(self.players[i]))
        self._settle_uno(i, events)
        self._give_turn(o, Pending.NONE, events)

    def _take_volley(self, i: int, events: list[Event]) -> None:
        total = self._volley
        self._volley = 0
        self._exposed = -1
        self._draw_cards(i, total, DrawReason.VOLLEY, events)
        # D7: the player who laid the last Draw 2 takes a normal turn.
        self._give_turn(1 - i, _NONE, events)

    def _accept(self, i: int, events: list[Event]) -> None:
        self._exposed = -1
        self._wd4_hand = self._wd4_top = self._wd4_active = None
        self._draw_cards(i, 4, DrawReason.WILD_DRAW, events)
        self._give_turn(1 - i, _NONE, events)  # D8: the WD4 player goes again

    def _challenge(self, i: int, events: list[Event]) -> None:
        o = 1 - i
        hand = self._wd4_hand
        top = self._wd4_top
        assert hand is not None
        assert top is not None
        active = self._wd4_active
        if self._options.classic_challenge:
            guilty = active is not None and any(c.colour is active for c in hand)
        else:  # D10 literal: colour, number, symbol or a wild (not another WD4)
            guilty = any(c.face is not _W4 and matches(c, top=top, active=active) for c in hand)
        self._wd4_hand = self._wd4_top = self._wd4_active = None
        self._revealed_to = i
        self._revealed = tuple(sorted(hand, key=hand_order))
        self._exposed = -1  # a challenge penalty is a draw
        events.append(ChallengeResolved(self.players[i], self.players[o], not guilty))
        if guilty:  # the named colour stands; the challenger plays next
            self._draw_cards(o, 4, DrawReason.CHALLENGE, events)
            self._give_turn(i, Pending.NONE, events)
        else:
            self._draw_cards(i, 6, DrawReason.CHALLENGE, events)
            self._give_turn(o, Pending.NONE, events)

    def _dump(self, i: int, last: Card, uno: bool, events: list[Event]) -> None:
        """D9: lay every card of the colour, `last` last; only it has an effect."""
        colour = last.colour
        hand = self._hands[i]
        laid = [c for c in hand if c.colour is colour]
        _remove(laid, last)
        laid.sort(key=hand_order)
        laid.append(last)
        hand = self._hands[i] = [c for c in hand if c.colour is not colour]
        self._discard += laid
        self._active = colour
        self._exposed = -1
        self._call = uno
        o = 1 - i
        events.append(ColourDumped(self.players[i], tuple(laid)))
        face = last.face
        if not hand:
            if face is _D2:  # D9/D13: the opponent still draws 2
                self._draw_cards(o, 2, DrawReason.VOLLEY, events)
            self._end_round(i, events)
        elif face is _SKIP:
            events.append(self._ev_skip[o])
            self._settle_uno(i, events)
            self._give_turn(i, Pending.NONE, events)
        elif face is _D2:
            self._volley = 2
            events.append(VolleyRaised(self.players[i], self.players[o], 2))
            self._settle_uno(i, events)
            self._give_turn(o, Pending.VOLLEY, events)
        elif face is _REV:
            self._settle_uno(i, events)
            self._give_turn(o, Pending.REVERSE_DUMP, events)
        else:
            self._settle_uno(i, events)
            self._give_turn(o, Pending.NONE, events)

    # D13, D14 ------------------------------------------------------------------

    def _score_pairs(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(self.players, self._scores, strict=True))

    def _end_round(self, winner: int, events: list[Event]) -> None:
        loser = 1 - winner
        points = [0, 0]
        points[loser] = sum(_POINTS[id(c)] for c in self._hands[loser])
        self._scores[loser] += points[loser]
        hands = tuple(
            (p, tuple(sorted(h, key=hand_order)))
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
            self._phase = Phase.MATCH_OVER
            self._pending = Pending.NONE
            self._winner = winner
            events.append(MatchEnded(self.players[winner], self._score_pairs()))
            return
        self._round += 1
        self._p1 = 1 - self._p1  # D2: roles swap every round
        self._start_round(events)

    # X3 ------------------------------------------------------------------------

    def remove_player(self, player: str) -> list[Event]:
        i = self._seat(player)
        if self._phase is Phase.MATCH_OVER:
            raise MatchOver("The match is over.")
        o = 1 - i
        self._reset_turn_state()
        self._phase = Phase.MATCH_OVER
        self._pending = Pending.NONE
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
        if self._phase is Phase.MATCH_OVER:
            raise MatchOver("The match is over.")
        if self._turn != i:
            raise NotYourTurn("It's not your turn — the other player is deciding.")
        pending = self._pending
        if pending is Pending.DRAFT_PICK or pending is Pending.DRAFT_FORCED:
            return _KEEP_CARD
        if pending is Pending.DRAWN_CARD:
            return _KEEP_DRAWN
        if pending is Pending.VOLLEY:
            return _TAKE_VOLLEY
        if pending is Pending.WILD_DRAW:
            return _ACCEPT
        if pending is Pending.DUMP:
            return _NO_DUMP
        if pending is Pending.COLOUR:
            counts = dict.fromkeys(Colour, 0)
            for c in self._hands[i]:
                if c.colour is not None:
                    counts[c.colour] += 1
            # max() keeps the first of equals, so ties go by Colour order.
            return _CHOOSE[list(Colour).index(max(Colour, key=counts.__getitem__))]
        return _DRAW  # NONE and REVERSE_DUMP: draw (and pass), no dump

    # ------------------------------------------------------------------ views

    def public_view(self) -> PublicView:
        over = self._phase is Phase.MATCH_OVER
        pending = self._pending
        if pending is Pending.VOLLEY:
            owed = self._volley
        elif pending is Pending.WILD_DRAW:
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
        i = self._seat(player)
        mine = self._turn == i and self._phase is not Phase.MATCH_OVER
        pending = self._pending
        looking = None
        if mine and (pending is Pending.DRAFT_PICK or pending is Pending.DRAFT_FORCED):
            looking = self._draw[-1]
        return PrivateView(
            player=player,
            hand=tuple(sorted(self._hands[i], key=hand_order)),
            legal=tuple(self.legal_actions(player)),
            looking_at=looking,
            drawn=self._drawn if mine and pending is Pending.DRAWN_CARD else None,
            revealed_hand=self._revealed if self._revealed_to == i else None,
            received=None,
            given=None,
        )

    # -------------------------------------------------------------- snapshots

    def to_snapshot(self) -> dict[str, Any]:
        def codes(pile: Sequence[Card]) -> list[str]:
            return [c.code for c in pile]

        def colour(value: Colour | None) -> str | None:
            return None if value is None else value.value

        version, internal, gauss = self._rng.getstate()
        wd4: dict[str, Any] | None = None
        if self._wd4_hand is not None and self._wd4_top is not None:
            wd4 = {
                "hand": codes(self._wd4_hand),
                "top": self._wd4_top.code,
                "active": colour(self._wd4_active),
            }
        opts = self._options
        return {
            "schema": SNAPSHOT_SCHEMA,
            "variant": "duo",
            "players": list(self.players),
            "seed": self.seed,
            "options": {
                "target": opts.target,
                "classic_deck": opts.classic_deck,
                "classic_challenge": opts.classic_challenge,
            },
            "version": self.version,
            "round": self._round,
            "scores": list(self._scores),
            "p1": self._p1,
            "phase": self._phase.value,
            "pending": self._pending.value,
            "turn": self._turn,
            "hands": [codes(h) for h in self._hands],
            "draw": codes(self._draw),
            "discard": codes(self._discard),
            "draft": codes(self._draft),
            "active": colour(self._active),
            "picks": self._picks,
            "drawn": None if self._drawn is None else self._drawn.code,
            "volley": self._volley,
            "exposed": self._exposed,
            "call": self._call,
            "first_colour": self._first_colour,
            "wd4": wd4,
            "revealed_to": self._revealed_to,
            "revealed": codes(self._revealed),
            "removed": self._removed,
            "winner": self._winner,
            "recent": [encode_event(e) for e in self._recent],
            "rng": [version, list(internal), gauss],
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> DuoMatch:
        """Rebuild a match from `to_snapshot()`; ValueError when the data is not valid."""
        snap = DuoSnapshot.model_validate(data)
        match = cls.__new__(cls)
        opts = snap.options
        match._blank(snap.players, snap.seed, DuoOptions(**opts.model_dump()))
        match.version = snap.version
        match._round = snap.round
        match._scores = list(snap.scores)
        match._p1 = snap.p1
        match._phase = Phase(snap.phase)
        match._pending = Pending(snap.pending)
        match._turn = snap.turn
        match._hands = [cards(" ".join(h)) if h else [] for h in snap.hands]
        match._draw = [Card.parse(c) for c in snap.draw]
        match._discard = [Card.parse(c) for c in snap.discard]
        match._draft = [Card.parse(c) for c in snap.draft]
        match._active = None if snap.active is None else Colour(snap.active)
        match._picks = snap.picks
        match._drawn = None if snap.drawn is None else Card.parse(snap.drawn)
        match._volley = snap.volley
        match._exposed = snap.exposed
        match._call = snap.call
        match._first_colour = snap.first_colour
        if snap.wd4 is not None:
            match._wd4_hand = [Card.parse(c) for c in snap.wd4.hand]
            match._wd4_top = Card.parse(snap.wd4.top)
            match._wd4_active = None if snap.wd4.active is None else Colour(snap.wd4.active)
        match._revealed_to = snap.revealed_to
        match._revealed = tuple(Card.parse(c) for c in snap.revealed)
        match._removed = snap.removed
        match._winner = snap.winner
        match._recent.extend(decode_event(e) for e in snap.recent)
        rng_version, internal, gauss = snap.rng
        match._rng.setstate((rng_version, tuple(internal), gauss))
        match._validate()
        return match

    def _validate(self) -> None:
        """Refuse a snapshot whose cards could not come from one deck (D1)."""
        deck: dict[Card, int] = {}
        for c in duo_deck(classic=self._options.classic_deck):
            deck[c] = deck.get(c, 0) + 1
        for pile in (*self._hands, self._draw, self._discard, self._draft):
            for c in pile:
                left = deck.get(c, 0)
                if left == 0:
                    raise ValueError(f"snapshot holds more {c.code} than the deck")
                deck[c] = left - 1
        if self._phase is Phase.PLAY and not self._discard:
            raise ValueError("snapshot in play has no discard pile")

    # ------------------------------------------------------------- test helpers

    @classmethod
    def for_test(
        cls,
        *,
        hands: tuple[str | Sequence[Card], str | Sequence[Card]],
        discard: str | Sequence[Card],
        draw: str | Sequence[Card] = "",
        players: tuple[str, str] = ("p1", "p2"),
        player_one: str | None = None,
        turn: str | None = None,
        active: Colour | None = None,
        pending: Pending = Pending.NONE,
        seed: int = 0,
        options: DuoOptions | None = None,
        scores: tuple[int, int] = (0, 0),
        round: int = 1,
        fill: bool = False,
    ) -> DuoMatch:
        """Build a match in an explicit play state, for tests.

        `hands` in seat order; `discard` bottom to top (its last card is the top);
        `draw` in the order the cards will be drawn. `player_one` defaults to the
        first seat, `turn` to Player 2 (D2). `pending` may be NONE or, with a
        Reverse on top, REVERSE_DUMP. With `fill`, the rest of the deck goes,
        shuffled by the match's generator, under `draw`. The cards must come from
        one deck; from then on the engine plays by its real rules.
        """
        if pending is not Pending.NONE and pending is not Pending.REVERSE_DUMP:
            raise ValueError("for_test starts at a turn: pending NONE or REVERSE_DUMP")
        match = cls.__new__(cls)
        match._blank(players, seed, options or DuoOptions())
        match._p1 = 0 if player_one is None else match._idx[player_one]
        match._hands = [_as_cards(hands[0]), _as_cards(hands[1])]
        match._discard = _as_cards(discard)
        if not match._discard:
            raise ValueError("for_test needs a top card")
        top = match._discard[-1]
        if top.colour is None and active is None:
            raise ValueError("a wild on top needs the named colour (active)")
        if pending is Pending.REVERSE_DUMP and top.face is not _REV:
            raise ValueError("REVERSE_DUMP needs a Reverse on top")
        match._active = top.colour if active is None else active
        match._draw = _as_cards(draw)[::-1]
        match._phase = Phase.PLAY
        match._pending = pending
        match._turn = 1 - match._p1 if turn is None else match._idx[turn]
        match._scores = list(scores)
        match._round = round
        match._validate()
        if fill:
            match._fill()
        return match

    @classmethod
    def for_draft_test(
        cls,
        *,
        draw: str | Sequence[Card],
        players: tuple[str, str] = ("p1", "p2"),
        player_one: str | None = None,
        seed: int = 0,
        options: DuoOptions | None = None,
        fill: bool = False,
    ) -> DuoMatch:
        """Build a match at the start of the draft (D3) with `draw` on top, in draw order."""
        match = cls.__new__(cls)
        match._blank(players, seed, options or DuoOptions())
        match._p1 = 0 if player_one is None else match._idx[player_one]
        match._turn = match._p1
        match._draw = _as_cards(draw)[::-1]
        match._validate()
        if fill:
            match._fill()
        if len(match._draw) < 2 * DRAFT_PICKS + 1:
            raise ValueError("the draft needs 29 cards in the draw pile")
        return match

    def _fill(self) -> None:
        deck: dict[Card, int] = {}
        for c in duo_deck(classic=self._options.classic_deck):
            deck[c] = deck.get(c, 0) + 1
        for pile in (*self._hands, self._draw, self._discard, self._draft):
            for c in pile:
                deck[c] -= 1
        rest = [c for c, n in deck.items() for _ in range(n)]
        self._rng.shuffle(rest)
        self._draw[:0] = rest


__all__ = ["DuoMatch", "IllegalAction", "card_points"]
