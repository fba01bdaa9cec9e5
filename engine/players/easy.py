"""The easy computer: any legal move, and a poor memory for UNO.

It plays a random legal move (playing, drawing, challenging or not alike),
forgets to call UNO about half the time and only rarely catches anyone.
"""

from __future__ import annotations

import random

from engine.actions import Action, CallUno, CatchUno, Dump, JumpIn, Play
from engine.views import PrivateView, PublicView

CALL_RATE = 0.5  # calls UNO with the play, or when asked while exposed
CATCH_RATE = 0.05
JUMP_RATE = 0.3  # jumps in (H3) with a twin of the top card, now and then
_CALL = CallUno()
_CATCH = CatchUno()


class EasyPlayer:
    """The easy computer opponent."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, me: PrivateView, table: PublicView) -> Action | None:
        legal = me.legal
        if not legal:
            return None
        rng = self.rng
        if _CALL in legal and rng.random() < CALL_RATE:
            return _CALL
        if _CATCH in legal and rng.random() < CATCH_RATE:
            return _CATCH
        if table.to_act != me.player:
            jumps = [a for a in legal if isinstance(a, JumpIn)]
            return rng.choice(jumps) if jumps and rng.random() < JUMP_RATE else None
        moves = [a for a in legal if not isinstance(a, CallUno | CatchUno) and not _calls(a)]
        move = moves[int(rng.random() * len(moves))]
        calling = _with_call(move)
        if calling is not None and calling in legal and rng.random() < CALL_RATE:
            return calling
        return move


def _calls(action: Action) -> bool:
    return isinstance(action, Play | Dump) and action.uno


def _with_call(action: Action) -> Action | None:
    if isinstance(action, Play):
        return Play(action.card, uno=True)
    if isinstance(action, Dump):
        return Dump(action.last, uno=True)
    return None
