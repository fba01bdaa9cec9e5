"""H2 Seven-O, a classic house rule: a 7 swaps the player's hand with a player of
their choice; a 0 passes every hand one seat in the direction of play. Going
out on a 7 or 0 ends the round first (engine/turn.py never carries out a last
card's effect).

Decided: with two players seated the 7's swap is made at once (there is no one
else to choose). A swap or a pass is receiving cards: it exposes nobody to an
UNO catch (D11), and a call made with the 7 or 0 is spent.
"""

from __future__ import annotations

from engine.actions import Action, SwapHands
from engine.board import Board
from engine.cards import Card, Face
from engine.errors import WrongMoment
from engine.events import Event, HandsPassed, HandsSwapped
from engine.seats import give_turn
from engine.views import Pending

_NONE, _SWAP = Pending.NONE, Pending.SWAP
_ZERO = Face.ZERO


def effect(t: Board, i: int, card: Card, events: list[Event]) -> None:
    """A 7 or a 0 played, the hand not empty: pass, swap, or ask whom to swap with."""
    if card.face is _ZERO:
        pass_hands(t, i, events)
        _done(t, i, events)
        return
    others = _others(t, i)
    if len(others) == 1:
        _swap(t, i, others[0], events)
        _done(t, i, events)
        return
    t.turn = i  # a jump-in (H3) may have laid the 7 out of turn
    t.pending = _SWAP


def pass_hands(t: Board, i: int, events: list[Event]) -> None:
    """Every seated hand goes to the next seated player in the direction of play."""
    hands: list[list[Card]] = [[] for _ in t.players]
    for k, hand in enumerate(t.hands):
        if t.seated[k]:
            hands[t.order[k]] = hand
    t.hands = hands
    events.append(HandsPassed(t.players[i], t.clockwise))


def swap(t: Board, i: int, target: str, events: list[Event]) -> None:
    """The 7's player chose whom to swap with (already judged legal)."""
    _swap(t, i, t.players.index(target), events)
    _done(t, i, events)


def offers(t: Board, i: int) -> list[Action]:
    return [SwapHands(t.players[k]) for k in _others(t, i)]


def check(t: Board, i: int, action: Action) -> None:
    if not isinstance(action, SwapHands):
        raise WrongMoment("Choose whom to swap hands with first.")
    target = action.target
    k = t.players.index(target) if isinstance(target, str) and target in t.players else -1
    if k < 0 or k == i or not t.seated[k]:
        raise WrongMoment("Choose another player still at the table to swap hands with.")


def default(t: Board, i: int) -> SwapHands:
    """The timeout's choice: the fewest cards, ties by play order from the player."""
    others = _others(t, i)
    return SwapHands(t.players[min(others, key=lambda k: len(t.hands[k]))])


def _others(t: Board, i: int) -> list[int]:
    """The other seated players, in play order from `i`."""
    found: list[int] = []
    k = t.order[i]
    while k != i and k not in found:
        found.append(k)
        k = t.order[k]
    return found


def _swap(t: Board, i: int, k: int, events: list[Event]) -> None:
    t.hands[i], t.hands[k] = t.hands[k], t.hands[i]
    events.append(HandsSwapped(t.players[i], t.players[k]))


def _done(t: Board, i: int, events: list[Event]) -> None:
    t.call = False
    give_turn(t, t.order[i], _NONE, events)
