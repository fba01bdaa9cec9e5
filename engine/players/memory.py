"""What a player watching the table remembers of the round, from the public record.

A person at the table sees every event as it happens: the cards laid (so the
discard pile), who drew instead of playing and on what, what a challenge showed
them, which card they gave. `Memory.observe` reads the new events at the end of
`PublicView.recent` each time the seat is asked, and keeps:

- the discard pile, bottom first;
- the draw pile as far as it is known (Duo turns the draft pile and the discard
  pile face down unshuffled, so their order is public; a shuffled refill is only
  known as a set of cards, `recycled`);
- cards known to be in an opponent's hand (a challenged hand shown, a card given,
  a known card drawn);
- "passes": an opponent who drew on their turn held nothing matching then
  (numbers and colour; in Duo wilds are not ruled out, people keep them);
- at Pizza and classic tables, what an opponent's choices show of their hand,
  read as the normal player would have made them: a draw means nothing could
  be played, wilds included (and a drawn card not played could not be either);
  the card played among those held and the colour named are kept as `Choice`s
  until the hand changes unseen (a draw, a card given), for
  `engine.players.reading` to weigh the sampled hands by.

Whatever it missed it gives up on, never guesses: `engine.players.world` checks
every count against the views.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import MATCHING, Card, Colour
from engine.events import (
    CardGiven,
    CardPlayed,
    CardReturned,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    ColourDumped,
    DirectionChanged,
    DraftPicked,
    DrawnCardKept,
    DrawPileRefilled,
    DrawReason,
    Event,
    FirstCardTurned,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    PlayerRemoved,
    RoundStarted,
    TurnStarted,
)
from engine.players.tactics import DRAW_WILDS
from engine.views import PrivateView, PublicView

Constraint = tuple[frozenset[Card], int]
"""Cards an opponent held none of, and how many of their cards that covers."""


@dataclass(slots=True)
class Choice:
    """An opponent's choice, seen at a Pizza or classic table: the card they played
    (`card`, on `top` with `active` the colour, `danger`: the next seat held 2 cards
    or fewer) or the colour they named (`colour`). Their hand then was their hand now
    plus `laid`, the cards they laid since (the played card included)."""

    card: Card | None
    colour: Colour | None
    top: Card | None
    active: Colour | None
    danger: bool
    laid: list[Card]


def new_events(old: tuple[Event, ...], new: tuple[Event, ...]) -> tuple[Event, ...]:
    """The events at the end of `new` that `old` did not end with (the longest overlap)."""
    for k in range(min(len(old), len(new)), 0, -1):
        if old[len(old) - k :] == new[:k]:
            return new[k:]
    return new


class Memory:
    """The public record of the round as one seat saw it."""

    __slots__ = (
        "_drew",
        "_handlers",
        "_me",
        "_next_pile",
        "_recent",
        "_seated",
        "active",
        "choices",
        "clockwise",
        "constraints",
        "counts",
        "discard",
        "draft",
        "known",
        "pile",
        "player",
        "recycled",
        "top_by",
        "variant",
        "wd_active",
        "wd_top",
    )

    def __init__(self, player: str) -> None:
        self.player = player
        self.variant = ""
        self._recent: tuple[Event, ...] = ()
        self._me: PrivateView | None = None
        self.counts: dict[str, int] = {}
        self.clockwise = True
        self._seated: tuple[str, ...] = ()
        self._handlers: dict[type, Callable[[object], None]] = {
            RoundStarted: self._round_started,
            DraftPicked: self._draft_picked,
            FirstCardTurned: self._first_card,
            CardReturned: self._card_returned,
            CardPlayed: self._card_played,
            ColourChosen: self._colour_chosen,
            ColourDumped: self._colour_dumped,
            CardsDrawn: self._cards_drawn,
            DrawPileRefilled: self._refilled,
            ChallengeResolved: self._challenge,
            CardGiven: self._given,
            HandsShuffled: self._hands_shuffled,
            PlayerRemoved: self._removed,
            DirectionChanged: self._direction,
            TurnStarted: self._turn_started,
            DrawnCardKept: self._kept,
            HandsSwapped: self._hands_moved,
            HandsPassed: self._hands_moved,
        }
        self._reset()

    def _reset(self) -> None:
        self.discard: list[Card] = []
        # The draw pile as a list whose end is the top; None is a card not known.
        self.pile: list[Card | None] = []
        self._next_pile: list[Card | None] | None = None
        self.recycled: list[Card] = []
        self.known: dict[str, list[Card]] = {}
        self.constraints: dict[str, list[Constraint]] = {}
        self.draft: list[Card] = []
        self.active: Colour | None = None
        self.top_by: str | None = None
        self.wd_top: Card | None = None
        self.wd_active: Colour | None = None
        self.choices: dict[str, list[Choice]] = {}
        self._drew: str | None = None  # who drew on their turn, until they play or pass

    def observe(self, me: PrivateView, table: PublicView) -> None:
        """Take in what changed since the last call (call it after every change)."""
        self.variant = table.variant
        self._me = me
        self._seated = tuple(s.player for s in table.seats if s.seated)
        for event in new_events(self._recent, table.recent):
            handler = self._handlers.get(type(event))
            if handler is not None:
                handler(event)
        self._recent = table.recent
        self.clockwise = table.clockwise
        self._reconcile(table)

    # ------------------------------------------------------------------ the events

    def _round_started(self, _: object) -> None:
        self._reset()
        self.clockwise = True

    def _draft_picked(self, event: object) -> None:
        assert isinstance(event, DraftPicked)
        if event.shown is not None:
            self.draft.append(event.shown)

    def _first_card(self, event: object) -> None:
        assert isinstance(event, FirstCardTurned)
        if self.variant == "duo" and len(self.draft) == 14:
            # D3: the draft pile, flipped as one stack, lies under the draw pile. The
            # unknown rest goes on top; _reconcile trims it to the real count.
            self.pile = [*reversed(self.draft), *([None] * 120)]
        if self.pile:
            self.pile.pop()
        self.discard = [event.card]
        self.active = event.card.colour
        self.top_by = None

    def _card_returned(self, event: object) -> None:
        assert isinstance(event, CardReturned)
        if self.discard and self.discard[-1] is event.card:
            self.discard.pop()  # P3: shuffled back into the draw pile
            self.recycled.append(event.card)

    def _card_played(self, event: object) -> None:
        assert isinstance(event, CardPlayed)
        card = event.card
        if self.variant != "duo" and event.player != self.player:
            self._chose(event.player, card)
        if card.face in DRAW_WILDS:
            self.wd_top = self.discard[-1] if self.discard else None
            self.wd_active = self.active
        self.discard.append(card)
        if card.colour is not None:
            self.active = card.colour
        self.top_by = event.player
        self._lose(event.player, (card,))

    def _colour_chosen(self, event: object) -> None:
        assert isinstance(event, ColourChosen)
        self.active = event.colour
        if self.variant != "duo" and event.player != self.player:
            named = Choice(None, event.colour, None, None, False, [])
            self.choices.setdefault(event.player, []).append(named)

    def _chose(self, player: str, card: Card) -> None:
        """Keep what choosing `card` shows of their hand (not a card just drawn: no choice)."""
        choices = self.choices.setdefault(player, [])
        for choice in choices:
            choice.laid.append(card)
        if self._drew == player:
            self._drew = None
            return
        top = self.discard[-1] if self.discard else None
        danger = self.counts.get(self._next_of(player), 99) <= 2
        choices.append(Choice(card, None, top, self.active, danger, [card]))

    def _next_of(self, player: str) -> str:
        seated = self._seated
        if player not in seated:
            return player
        step = 1 if self.clockwise else -1
        return seated[(seated.index(player) + step) % len(seated)]

    def _direction(self, event: object) -> None:
        assert isinstance(event, DirectionChanged)
        self.clockwise = event.clockwise

    def _turn_started(self, event: object) -> None:
        """A player drew on their turn and the turn moved on: the card drawn could not be
        played either (a wild could, and the normal player keeps one only when it says so)."""
        assert isinstance(event, TurnStarted)
        drew, self._drew = self._drew, None
        if drew is None or drew == event.player:
            return
        layers = self.constraints.get(drew)
        if layers:
            cards, n = layers[0]
            layers[0] = (cards, n + 1)

    def _kept(self, _: object) -> None:
        self._drew = None

    def _colour_dumped(self, event: object) -> None:
        assert isinstance(event, ColourDumped)
        self.discard.extend(event.cards)
        if event.cards:
            self.active = event.cards[-1].colour
        self.top_by = event.player
        self._lose(event.player, event.cards)

    def _lose(self, player: str, cards: tuple[Card, ...]) -> None:
        """A player laid these: no longer in their hand."""
        if player in self.counts:
            self.counts[player] -= len(cards)
        known = self.known.get(player)
        for card in cards:
            if known is not None and card in known:
                known.remove(card)
            else:
                self._one_unknown_fewer(player, card)

    def _one_unknown_fewer(self, player: str, card: Card | None = None) -> None:
        """A card not known left their hand: it may have been one a pass covered.

        At a table, a card a pass ruled out (`card`, when seen) was not one it covered.
        """
        layers = self.constraints.get(player)
        if not layers:
            return
        if card is None or self.variant == "duo":
            self.constraints[player] = [(cards, n - 1) for cards, n in layers if n > 1]
            return
        kept = [(cards, n if card in cards else n - 1) for cards, n in layers]
        self.constraints[player] = [(cards, n) for cards, n in kept if n > 0]

    def _cards_drawn(self, event: object) -> None:
        assert isinstance(event, CardsDrawn)
        player = event.player
        self.choices.pop(player, None)  # their hand changed unseen: the choices can't be read
        if event.reason is DrawReason.TURN and player != self.player and self.discard:
            passed = self._passed(player)
            self._drew = player if passed and self.variant != "duo" else None
        for _ in range(event.count):
            if not self.pile and self._next_pile is not None:
                self.pile, self._next_pile = self._next_pile, None
            card = self.pile.pop() if self.pile else None
            if card is not None and player != self.player:
                self.known.setdefault(player, []).append(card)
        if self._next_pile is not None:  # the refill was not needed after all
            self.pile, self._next_pile = self._next_pile, None
        if player in self.counts:
            self.counts[player] += event.count

    def _passed(self, player: str) -> bool:
        """They drew instead of playing: none of their cards matched (wilds aside in Duo).
        Whether that ruled out anything (a new first layer)."""
        held = self.counts.get(player, 0) - len(self.known.get(player, []))
        if held <= 0:
            return False
        matching = MATCHING[self.discard[-1]][self.active]
        # At a table a wild is ruled out too: the normal player plays one rather than draw.
        table = self.variant != "duo"
        ruled_out = matching if table else frozenset(c for c in matching if c.colour is not None)
        layers = [(cards, min(n, held)) for cards, n in self.constraints.get(player, [])]
        self.constraints[player] = [(ruled_out, held), *layers]
        return True

    def _refilled(self, event: object) -> None:
        assert isinstance(event, DrawPileRefilled)
        rest = self.discard[:-1]
        complete = len(rest) == event.size
        if self.variant == "duo" and complete:
            # D12: turned face down unshuffled, the oldest card on top (the end).
            self._next_pile = list(reversed(rest))
        else:
            self._next_pile = [None] * event.size
            self.recycled = list(rest) if complete else []
        self.discard = self.discard[-1:]

    def _challenge(self, event: object) -> None:
        assert isinstance(event, ChallengeResolved)
        me = self._me
        if event.challenger == self.player and me is not None and me.revealed_hand is not None:
            self.known[event.challenged] = list(me.revealed_hand)
            self.constraints[event.challenged] = []

    def _given(self, event: object) -> None:
        assert isinstance(event, CardGiven)
        me = self._me
        giver, receiver = event.giver, event.receiver
        self.choices.pop(giver, None)
        self.choices.pop(receiver, None)
        if giver == self.player and me is not None and me.given is not None:
            self.known.setdefault(receiver, []).append(me.given)
        known = self.known.get(giver)
        received = me.received if me is not None and receiver == self.player else None
        if known is not None and received is not None and received in known:
            known.remove(received)
        else:
            self._one_unknown_fewer(giver)
            if known and received is None and giver != self.player:
                # Given unseen, it may have been a card we knew they held (one they had
                # been given, say): still certain is what stays whichever card it was,
                # one card of each kind fewer.
                for kind in dict.fromkeys(known):
                    known.remove(kind)
        if giver in self.counts:
            self.counts[giver] -= 1
        if receiver in self.counts:
            self.counts[receiver] += 1

    def _hands_shuffled(self, _: object) -> None:
        self.known = {}
        self.constraints = {}
        self.choices = {}

    def _hands_moved(self, _: object) -> None:
        self.choices = {}

    def _removed(self, event: object) -> None:
        assert isinstance(event, PlayerRemoved)
        self.known.pop(event.player, None)
        self.constraints.pop(event.player, None)
        self.choices.pop(event.player, None)

    # ------------------------------------------------------------------ the counts

    def _reconcile(self, table: PublicView) -> None:
        """Hold the memory to the counts the table shows; drop what cannot be true."""
        self.counts = {s.player: s.cards for s in table.seats}
        for player, held in self.counts.items():
            cards = self.known.get(player)
            if cards is not None:
                del cards[held:]
            unknown = held - len(cards or ())
            self.constraints[player] = [
                (c, min(n, unknown)) for c, n in self.constraints.get(player, []) if unknown > 0
            ]
        if self._next_pile is not None:
            self.pile, self._next_pile = self._next_pile, None
        size = table.draw_pile
        if len(self.pile) > size:
            del self.pile[size:]
        else:
            self.pile.extend([None] * (size - len(self.pile)))
        if table.top is None or not self.discard or self.discard[-1] is not table.top:
            self.discard = [table.top] if table.top is not None else []
        del self.discard[: max(0, len(self.discard) - table.discard_pile)]
