"""What a computer seat is: a decision from the two views a person in that seat has.

A computer never holds the match. The table asks it, after every change, with
the seat's `PrivateView` and the `PublicView`; it answers with one of
`me.legal` (its decision, or an out-of-turn UNO call or catch) or None (nothing
to do now). Asking after every change also lets it remember what was played,
as a person watching the table would.
"""

from __future__ import annotations

from typing import Literal, Protocol

from engine.actions import Action
from engine.views import PrivateView, PublicView

Strength = Literal["easy", "normal", "hard"]
STRENGTHS: tuple[Strength, ...] = ("easy", "normal", "hard")


class Computer(Protocol):
    """A computer opponent in one seat."""

    def act(self, me: PrivateView, table: PublicView) -> Action | None:
        """One of `me.legal`, or None when it does nothing now.

        When `table.to_act == me.player` the answer is never None.
        """
        ...
