"""Classic UNO (docs/rules.md C1–C11), 2 to 10 players: what only classic UNO has.

The 108-card deck and seven-card hands (C1, C2), a Wild Draw 4 turned up first
goes back (C3), the Wild Draw 4 challenge judged on the active colour alone
(C7), and its scoring (C11); the house rules a table may turn on (H1–H4) are
engine/house.py's. Everything else is shared with Pocket Pizza Pizza
(engine/dealing.py) and every variant (engine/turn.py).
"""

from __future__ import annotations

import dataclasses
from functools import partial

from engine import dealing, house
from engine.actions import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    KeepDrawn,
    Play,
)
from engine.cards import Card, Face, classic_deck
from engine.options import Options
from engine.scoring import points_table
from engine.wild_draw import colour_legit

HAND_SIZE = 7  # C2
RETURNED = frozenset({Face.WILD_DRAW_FOUR})  # C3
POINTS = points_table(classic_deck(), action=20, wild=50, wild_draw_four=50)  # C11


def deck(options: Options) -> list[Card]:
    return classic_deck()


RULES = dealing.dealt_rules(
    variant="classic",
    title="classic UNO",
    seats=(2, 10),
    deck=deck,
    points=POINTS,
    actions=frozenset({Play, Draw, KeepDrawn, ChooseColour, Accept, Challenge, CallUno, CatchUno}),
    hand_size=HAND_SIZE,
    returned=RETURNED,
    final=dealing.final_draws,
    special_wild=dealing.plain_wild,
    legit=colour_legit,
)
RULES = dataclasses.replace(RULES, tailor=partial(house.tailor, RULES))  # H1–H4
