"""H1 Stacking, a classic house rule: a Draw 2 hit may be passed on with a Draw 2,
a Wild Draw 4 hit with a Wild Draw 4, the total growing as in Duo's volley (D7,
engine/volley.py). The first who can't or won't stack draws the total and loses
the turn. Only the first Wild Draw 4 of a stack may be challenged (C7), by the
player it hit, before they stack: it waits as a draw-wild (total 4), a stacked
one as a volley. A stack goes with the player who laid its last card, if they
leave (X3, engine/game.py).
"""

from __future__ import annotations

from engine.actions import Action, Play
from engine.board import Board
from engine.cards import Card, Face
from engine.errors import CardNotInHand, WrongMoment
from engine.events import Event
from engine.offers import ACCEPT, CHALLENGE, PLAY, PLAY_UNO
from engine.views import Pending
from engine.volley import raise_volley
from engine.wild_draw import DRAWS

_NONE, _VOLLEY = Pending.NONE, Pending.VOLLEY
_WILD_DRAW_FOUR = Face.WILD_DRAW_FOUR


def draw_two(t: Board, i: int, events: list[Event]) -> tuple[int, Pending]:
    """A Draw 2 is not drawn by itself (C5): the next player stacks or takes the total."""
    victim = t.order[i]
    raise_volley(t, i, victim, 2, events)
    return victim, _VOLLEY


def stack_wild(t: Board, i: int, card: Card, events: list[Event]) -> Pending:
    """Once a Wild Draw 4's colour is named: the first of a stack waits to be accepted,
    challenged or stacked on; one laid on a Wild Draw 4 raises the total, unchallengeable."""
    if card.face is not _WILD_DRAW_FOUR:
        return _NONE
    if t.volley:
        t.wild_draw = None
        raise_volley(t, i, t.order[i], DRAWS[_WILD_DRAW_FOUR], events)
        return _VOLLEY
    t.volley = DRAWS[_WILD_DRAW_FOUR]
    return _NONE


def wild_draw_offers(t: Board, i: int) -> list[Action]:
    """Hit by the first Wild Draw 4: challenge, accept, or stack one."""
    acts: list[Action] = [CHALLENGE, ACCEPT]
    hand = t.hands[i]
    top = t.discard[-1]
    if top in hand:
        acts.append(PLAY[top])
        if len(hand) == 2:
            acts.append(PLAY_UNO[top])
    return acts


def check_stack(t: Board, i: int, action: Play) -> None:
    """A Wild Draw 4 laid on the first of a stack."""
    card = action.card
    hand = t.hands[i]
    if not isinstance(card, Card) or card not in hand:
        raise CardNotInHand("You don't have that card.")
    if card.face is not _WILD_DRAW_FOUR:
        raise WrongMoment(
            "Only a Wild Draw 4 can be stacked on a Wild Draw 4 — or accept it, or challenge it."
        )
    if action.uno and len(hand) != 2:
        raise WrongMoment("Call UNO with a play only when it leaves you one card.")
