"""Views to render in the cogs tests: one ordinary Duo turn, changed per test."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.cards import Colour, card
from engine.views import Pending, Phase, PublicView, SeatView

# Discord ids: 18-digit snowflakes; ten seats, as many as classic UNO has.
PLAYERS = (*(str(n) * 18 for n in range(1, 10)), "1" + "0" * 17)
ANN, BOB = PLAYERS[0], PLAYERS[1]


def public_view(**changes: Any) -> PublicView:
    """Ann to play on a Red 7 in round 1 of a Duo match, both seated; `changes` apply."""
    view = PublicView(
        variant="duo",
        round=1,
        target=200,
        phase=Phase.PLAY,
        pending=Pending.NONE,
        seats=(SeatView(ANN, 7, 0, False, True), SeatView(BOB, 7, 0, False, True)),
        to_act=ANN,
        top=card("R7"),
        active_colour=Colour.RED,
        draw_pile=80,
        discard_pile=1,
        pending_draw=0,
        clockwise=True,
        dealer=BOB,
        draft_pile=(),
        recent=(),
        winner=None,
    )
    return replace(view, **changes)
