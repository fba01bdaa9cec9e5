"""UNO Duo match state: the fields, their JSON snapshot, and test builders.

`DuoState` holds everything a match is; `engine.duo_legal.DuoRules` adds what
may be done, `engine.duo.DuoMatch` what happens. Piles are lists whose *end*
is the top, so drawing and playing are `pop()` / `append()`.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any, Self

from engine.cards import HAND_ORDER, MATCHING, Card, Colour, Face, cards, duo_deck, shuffle
from engine.duo_snapshot import DuoSnapshot, decode_event, encode_event
from engine.errors import UnknownPlayer
from engine.events import (
    CardsDrawn,
    ColourChosen,
    DrawnCardKept,
    DrawReason,
    DumpDeclined,
    Event,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
    UnoExposed,
)
from engine.match import SNAPSHOT_SCHEMA, DuoOptions, Variant
from engine.views import Pending, Phase

DRAFT_PICKS = 14  # D3: 7 cards each
RECENT_EVENTS = 10  # shown in PublicView.recent
KEPT_EVENTS = 20  # kept, TurnStarted included (left out of the view: to_act says it)
_NO_CARDS: frozenset[Card] = frozenset()


def card_points(card: Card) -> int:
    """D14: number cards face value; Draw 2, Reverse, Skip 10; wilds 15; Wild Draw 4 20."""
    number = card.face.number
    if number is not None:
        return number
    if card.face is Face.WILD_DRAW_FOUR:
        return 20
    return 15 if card.colour is None else 10


def _as_cards(value: str | Sequence[Card]) -> list[Card]:
    return cards(value) if isinstance(value, str) else list(value)


class DuoState:
    """The whole state of a UNO Duo match, as plain slots."""

    __slots__ = (
        "_active",
        "_call",
        "_discard",
        "_draft",
        "_draw",
        "_drawn",
        "_ev_called",
        "_ev_colour",
        "_ev_declined",
        "_ev_draw1",
        "_ev_exposed",
        "_ev_kept",
        "_ev_skip",
        "_ev_turn",
        "_exposed",
        "_first_colour",
        "_hands",
        "_idx",
        "_options",
        "_p1",
        "_pending",
        "_phase",
        "_picks",
        "_playable",
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
        "is_over",
        "players",
        "seed",
        "version",
    )

    variant: Variant = "duo"
    players: tuple[str, ...]
    seed: int
    version: int
    is_over: bool  # a plain slot, read by every loop; set with the MATCH_OVER phase
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
    # MATCHING[top][active], kept in step with both: the ordinary turn's test of a card
    # is then one set lookup, without finding the top and the colour first.
    _playable: frozenset[Card]
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
    _revealed: tuple[Card, ...]  # in hand order; sorted when shown
    _removed: int  # X3: seat index of the forfeiting player, -1 if none
    _winner: int
    _waits: tuple[tuple[str], tuple[str]]
    _recent: deque[Event]
    _ev_turn: tuple[TurnStarted, TurnStarted]
    _ev_skip: tuple[TurnSkipped, TurnSkipped]
    _ev_kept: tuple[DrawnCardKept, DrawnCardKept]
    _ev_draw1: tuple[CardsDrawn, CardsDrawn]
    _ev_colour: tuple[dict[Colour, ColourChosen], dict[Colour, ColourChosen]]
    _ev_called: tuple[UnoCalled, UnoCalled]
    _ev_exposed: tuple[UnoExposed, UnoExposed]
    _ev_declined: tuple[DumpDeclined, DumpDeclined]

    def _blank(self, players: Sequence[str], seed: int, options: DuoOptions) -> None:
        players = tuple(players)
        if len(players) != 2 or players[0] == players[1]:
            raise ValueError("UNO Duo needs exactly two different players")
        self.players = players
        self.seed = seed
        self.version = 0
        self.is_over = False
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
        self._playable = _NO_CARDS
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
        self._recent = deque(maxlen=KEPT_EVENTS)
        # Events are immutable: the frequent per-seat ones are built once.
        self._ev_turn = (TurnStarted(players[0]), TurnStarted(players[1]))
        self._ev_skip = (TurnSkipped(players[0]), TurnSkipped(players[1]))
        self._ev_kept = (DrawnCardKept(players[0]), DrawnCardKept(players[1]))
        self._ev_draw1 = (
            CardsDrawn(players[0], 1, DrawReason.TURN),
            CardsDrawn(players[1], 1, DrawReason.TURN),
        )
        self._ev_colour = (
            {c: ColourChosen(players[0], c) for c in Colour},
            {c: ColourChosen(players[1], c) for c in Colour},
        )
        self._ev_called = (UnoCalled(players[0]), UnoCalled(players[1]))
        self._ev_exposed = (UnoExposed(players[0]), UnoExposed(players[1]))
        self._ev_declined = (DumpDeclined(players[0]), DumpDeclined(players[1]))

    def _sync_playable(self) -> None:
        """Recompute `_playable` after the top card or the active colour changed."""
        self._playable = MATCHING[self._discard[-1]][self._active] if self._discard else _NO_CARDS

    def _seat(self, player: str) -> int:
        i = self._idx.get(player)
        if i is None:
            raise UnknownPlayer("You're not playing in this match.")
        return i

    # -------------------------------------------------------------- snapshots

    def to_snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, the generator's state included (X4)."""

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
            "revealed": codes(sorted(self._revealed, key=HAND_ORDER.__getitem__)),
            "removed": self._removed,
            "winner": self._winner,
            "recent": [encode_event(e) for e in self._recent],
            "rng": [version, list(internal), gauss],
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Self:
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
        match.is_over = match._phase is Phase.MATCH_OVER
        match._pending = Pending(snap.pending)
        match._turn = snap.turn
        match._hands = [cards(" ".join(h)) if h else [] for h in snap.hands]
        match._draw = [Card.parse(c) for c in snap.draw]
        match._discard = [Card.parse(c) for c in snap.discard]
        match._draft = [Card.parse(c) for c in snap.draft]
        match._active = None if snap.active is None else Colour(snap.active)
        match._sync_playable()
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
    ) -> Self:
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
        if pending is Pending.REVERSE_DUMP and top.face is not Face.REVERSE:
            raise ValueError("REVERSE_DUMP needs a Reverse on top")
        match._active = top.colour if active is None else active
        match._sync_playable()
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
    ) -> Self:
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
        shuffle(self._rng, rest)
        self._draw[:0] = rest
