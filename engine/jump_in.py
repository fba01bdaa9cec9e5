"""H3 Jump-in, a classic house rule: a player not in turn who holds a card
identical to the top card (colour and face; never a wild) may play it at once.
Play goes on from them; like any play it closes a pending UNO window. The first
action the table receives wins the race.

Decided: a jump-in is open while the match waits for an ordinary turn (the first
card turned up included) or for a drawn card to be played or kept (the drawn
card's chance is lost); not while a colour is named, a volley or draw-wild is
answered, or a 7's swap is chosen.
"""

from __future__ import annotations

from engine.actions import Action, JumpIn
from engine.board import Board
from engine.cards import Card
from engine.errors import CardNotInHand, NotYourTurn, WrongMoment
from engine.events import Event, JumpedIn
from engine.offers import JUMP_IN, JUMP_IN_UNO
from engine.ruleset import Ruleset
from engine.turn import play_card
from engine.views import Pending

_OPEN = frozenset({Pending.NONE, Pending.DRAWN_CARD})


def offers(t: Board, i: int) -> list[Action]:
    """For a seated player not in turn: the jump-in, if they hold the top card's twin."""
    if t.pending not in _OPEN or not t.discard:
        return []
    top = t.discard[-1]
    hand = t.hands[i]
    if top.colour is None or top not in hand:
        return []
    return [JUMP_IN[top], JUMP_IN_UNO[top]] if len(hand) == 2 else [JUMP_IN[top]]


def check(t: Board, i: int, action: JumpIn) -> None:
    card = action.card
    if not isinstance(card, Card) or card not in t.hands[i]:
        raise CardNotInHand("You don't have that card.")
    top = t.discard[-1] if t.discard else None
    if top is None or card is not top or card.colour is None:
        raise NotYourTurn(
            "It's not your turn — you can jump in only with a card identical to the top card."
        )
    if t.pending not in _OPEN:
        raise NotYourTurn("It's not your turn — wait until the player deciding has answered.")
    if action.uno and len(t.hands[i]) != 2:
        raise WrongMoment("Call UNO with a play only when it leaves you one card.")


def jump(t: Board, rules: Ruleset, i: int, action: JumpIn, events: list[Event]) -> None:
    events.append(JumpedIn(t.players[i]))
    play_card(t, rules, i, action.card, action.uno, events)
