"""Matches in an explicit state, for tests: hands, piles, top card and turn as
named; from there on every rule is the engine's own.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import Board
from engine.cards import Card, Colour, Face, cards
from engine.game import Game, new_table
from engine.match import RULES, Options
from engine.piles import check_cards, fill, sync_playable
from engine.seats import set_order
from engine.views import Pending, Phase

CardsLike = str | Sequence[Card]


def _as_cards(value: CardsLike) -> list[Card]:
    return cards(value) if isinstance(value, str) else list(value)


def table_for_test(
    variant: str,
    *,
    players: Sequence[str],
    hands: Sequence[CardsLike],
    discard: CardsLike,
    turn: str,
    options: Options,
    draw: CardsLike = "",
    active: Colour | None = None,
    pending: Pending = Pending.NONE,
    dealer: str | None = None,
    clockwise: bool = True,
    scores: Sequence[int] | None = None,
    seed: int = 0,
    rest: str = "shuffled",
) -> Game:
    """A match in round 1 at a turn.

    `discard` bottom to top (its last card is the top); `draw` in the order the
    cards will be drawn. The rest of the deck goes under `draw`: shuffled by the
    match's generator (`rest="shuffled"`), in deck order (`"draw"`), under the
    discard pile (`"discard"`), or nowhere (`"none"`).
    """
    if pending not in (Pending.NONE, Pending.REVERSE_DUMP):
        raise ValueError("a test match starts at a turn: pending NONE or REVERSE_DUMP")
    rules = RULES[variant]
    t = new_table(rules, players, seed, options)
    t.round = 1
    t.hands = [_as_cards(h) for h in hands]
    t.discard = _as_cards(discard)
    if not t.discard:
        raise ValueError("a test match needs a top card")
    top = t.discard[-1]
    if top.colour is None and active is None:
        raise ValueError("a wild on top needs the named colour (active)")
    if pending is Pending.REVERSE_DUMP and top.face is not Face.REVERSE:
        raise ValueError("REVERSE_DUMP needs a Reverse on top")
    t.active = top.colour if active is None else active
    sync_playable(t)
    t.draw = _as_cards(draw)[::-1]
    t.turn = t.players.index(turn)
    t.pending = pending
    t.clockwise = clockwise
    set_order(t)
    t.dealer = t.players.index(dealer) if dealer is not None else (t.turn - 1) % len(players)
    if scores is not None:
        t.scores = list(scores)
    deck = rules.deck(options)
    check_cards(t, deck)
    _rest(t, deck, rest)
    return Game(rules, t)


def _rest(t: Board, deck: list[Card], rest: str) -> None:
    if rest == "shuffled":
        fill(t, deck, shuffled=True)
    elif rest == "draw":
        fill(t, deck, shuffled=False)
    elif rest == "discard":
        named = t.draw
        t.draw = []
        fill(t, deck, shuffled=False)
        t.discard[:0] = t.draw
        t.draw = named


def duo_draft_for_test(
    *,
    draw: CardsLike,
    players: Sequence[str],
    player_one: str,
    options: Options,
    seed: int = 0,
    fill_deck: bool = True,
) -> Game:
    """A Duo match at the start of the draft (D3) with `draw` on top, in draw order."""
    rules = RULES["duo"]
    t = new_table(rules, players, seed, options)
    t.round = 1
    t.hands = [[], []]
    t.dealer = t.players.index(player_one)
    t.turn = t.dealer
    t.phase = Phase.DRAFT
    t.pending = Pending.DRAFT_PICK
    t.draw = _as_cards(draw)[::-1]
    deck = rules.deck(options)
    check_cards(t, deck)
    if fill_deck:
        fill(t, deck, shuffled=True)
    if len(t.draw) < 29:
        raise ValueError("the draft needs 29 cards in the draw pile")
    return Game(rules, t)
