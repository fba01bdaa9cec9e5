"""One table of shared action instances: `legal_actions` hands these out
without building anything (actions are immutable values; cards are interned
and hash by identity, in C).
"""

from __future__ import annotations

from engine.actions import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Dump,
    Give,
    JumpIn,
    KeepCard,
    KeepDrawn,
    NoDump,
    Play,
    RejectCard,
    TakeVolley,
)
from engine.cards import EVERY_CARD, Colour

PLAY = {c: Play(c) for c in EVERY_CARD}
PLAY_UNO = {c: Play(c, uno=True) for c in EVERY_CARD}
DUMP = {c: Dump(c) for c in EVERY_CARD if c.colour is not None}
DUMP_UNO = {c: Dump(c, uno=True) for c in EVERY_CARD if c.colour is not None}
GIVE = {c: Give(c) for c in EVERY_CARD}
JUMP_IN = {c: JumpIn(c) for c in EVERY_CARD if c.colour is not None}
JUMP_IN_UNO = {c: JumpIn(c, uno=True) for c in EVERY_CARD if c.colour is not None}
CHOOSE = {colour: ChooseColour(colour) for colour in Colour}
COLOURS = tuple(CHOOSE.values())
KEEP_CARD = KeepCard()
REJECT_CARD = RejectCard()
DRAW = Draw()
KEEP_DRAWN = KeepDrawn()
TAKE_VOLLEY = TakeVolley()
CHALLENGE = Challenge()
ACCEPT = Accept()
NO_DUMP = NoDump()
CALL = CallUno()
CATCH = CatchUno()
