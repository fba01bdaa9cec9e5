"""What each person may see. The Discord layer reads a match only through
these, so a private card cannot leak into a public message by accident.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.actions import Action
from engine.cards import Card, Colour
from engine.events import Event


class Phase(Enum):
    DRAFT = "draft"  # D3
    PLAY = "play"
    MATCH_OVER = "match over"


class Pending(Enum):
    """The decision the match waits for, beyond an ordinary turn."""

    NONE = "none"
    DRAFT_PICK = "draft pick"  # D3: keep or reject the card looked at
    DRAFT_FORCED = "draft forced"  # D3: after a reject, the next card is kept
    DRAWN_CARD = "drawn card"  # D5/P4: play the drawn card or keep it
    COLOUR = "colour"  # name a colour for a wild
    VOLLEY = "volley"  # D7: stack a Draw 2 or take the total
    WILD_DRAW = "wild draw"  # D10/P7: challenge or accept
    DUMP = "dump"  # D9: dump the colour or not (own Reverse)
    REVERSE_DUMP = "reverse dump"  # D9/D4: may dump the colour, or take a normal turn
    GIVE = "give"  # P6: choose the card to give after a Dip
    SWAP = "swap"  # H2: choose whom to swap hands with after a 7


@dataclass(frozen=True, slots=True)
class SeatView:
    player: str
    cards: int
    score: int
    exposed: bool  # must call UNO and has not yet (D11, P8)
    seated: bool  # False once removed or left (X3)


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything everyone at the table may know."""

    variant: str  # "duo" | "pizza"
    round: int
    target: int
    phase: Phase
    pending: Pending
    seats: tuple[SeatView, ...]  # in seat order
    to_act: str | None  # whose decision the match waits for (None when over)
    top: Card | None
    active_colour: Colour | None  # the top card's colour or the colour named for it
    draw_pile: int
    discard_pile: int
    pending_draw: int  # cards owed by a volley or a draw-wild, 0 if none
    clockwise: bool  # Pizza direction; always True in Duo
    dealer: str | None  # Pizza dealer; Duo Player 1
    draft_pile: tuple[Card, ...]  # Duo: face-up draft pile, oldest first
    recent: tuple[Event, ...]  # the last public events, oldest first
    winner: str | None  # the match winner once over


@dataclass(frozen=True, slots=True)
class PrivateView:
    """What one player may see: their own hand and what was shown to them alone."""

    player: str
    hand: tuple[Card, ...]  # sorted by colour then value
    legal: tuple[Action, ...]  # everything this player may do now
    looking_at: Card | None  # D3: the draft card being considered
    drawn: Card | None  # D5/P4: the card just drawn, when it may be played
    revealed_hand: tuple[Card, ...] | None  # D10/P7: the challenged hand, for the challenger
    received: Card | None  # P6: the card given to this player by the last Dip
    given: Card | None  # P6: the card this player gave with the last Dip
    drew: tuple[Card, ...] = ()  # H4: the cards drawn to find `drawn`, in order
