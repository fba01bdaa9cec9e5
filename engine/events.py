"""What happened. `Match.apply` returns these immutable records, in order; the
Discord layer words them for the table log (it knows the names).

Events are public: they never name a card that only one player may see (a
drawn card, a kept draft card, a Dip gift). Private facts live in
`PrivateView`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.cards import EVERY_CARD, Card, Colour


class DrawReason(Enum):
    TURN = "turn"
    VOLLEY = "volley"
    DRAW_ONE = "draw one"
    WILD_DRAW = "wild draw"
    CHALLENGE = "challenge"
    UNO_PENALTY = "uno penalty"
    DIP = "dip"
    FIRST_CARD = "first card"
    DRAW_TWO = "draw two"  # C5: the automatic draw of a classic Draw 2

    # A member is only ever equal to itself: hash in C, not Enum's Python-level
    # hash(name) (a draw's reason keys the shared CardsDrawn events, engine/piles.py).
    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    first: str  # Duo: Player 2 (plays first); Pizza: the player left of the dealer
    dealer: str  # Duo: Player 1; Pizza: the dealer


@dataclass(frozen=True, slots=True)
class CutForPlayerOne:
    """D2: the cut; `cards` maps each player to the card they cut (in order of cuts)."""

    cuts: tuple[tuple[str, Card], ...]
    winner: str


@dataclass(frozen=True, slots=True)
class DraftPicked:
    """D3: a pick; `kept` is public, the kept card is not; `shown` went face up."""

    player: str
    kept: bool
    shown: Card | None


@dataclass(frozen=True, slots=True)
class FirstCardTurned:
    card: Card


@dataclass(frozen=True, slots=True)
class CardReturned:
    """P3: a Wild Draw 2 or Dip turned up first goes back into the deck."""

    card: Card


@dataclass(frozen=True, slots=True)
class CardPlayed:
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class ColourChosen:
    player: str
    colour: Colour


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    player: str
    count: int
    reason: DrawReason


@dataclass(frozen=True, slots=True)
class DrawnCardKept:
    player: str


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    player: str


@dataclass(frozen=True, slots=True)
class DirectionChanged:
    clockwise: bool


@dataclass(frozen=True, slots=True)
class VolleyRaised:
    """D7: the running total now owed by `target`."""

    player: str
    target: str
    total: int


@dataclass(frozen=True, slots=True)
class ChallengeResolved:
    challenger: str
    challenged: str
    legitimate: bool


@dataclass(frozen=True, slots=True)
class ColourDumped:
    """D9: cards laid in order; only the last has an effect."""

    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DumpDeclined:
    player: str


@dataclass(frozen=True, slots=True)
class CardGiven:
    """P6: a card changed hands; which card is private to the two players."""

    giver: str
    receiver: str


@dataclass(frozen=True, slots=True)
class HandsShuffled:
    """D1 Wild Shuffle Hands: both hands pooled and dealt back."""

    player: str


@dataclass(frozen=True, slots=True)
class HandsSwapped:
    """H2: a 7 was played; `player` and `other` swapped hands."""

    player: str
    other: str


@dataclass(frozen=True, slots=True)
class HandsPassed:
    """H2: a 0 was played; every hand passed one seat in the direction of play."""

    player: str
    clockwise: bool


@dataclass(frozen=True, slots=True)
class JumpedIn:
    """H3: `player` plays out of turn (their CardPlayed follows)."""

    player: str


@dataclass(frozen=True, slots=True)
class DrawPileRefilled:
    size: int


@dataclass(frozen=True, slots=True)
class UnoExposed:
    player: str


@dataclass(frozen=True, slots=True)
class UnoCalled:
    player: str


@dataclass(frozen=True, slots=True)
class UnoCaught:
    catcher: str
    player: str


@dataclass(frozen=True, slots=True)
class TurnStarted:
    player: str


@dataclass(frozen=True, slots=True)
class PlayerRemoved:
    """X3: a forfeit."""

    player: str


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int
    winner: str  # who emptied their hand (or the last one seated, X3)
    points: tuple[tuple[str, int], ...]  # points added this round, per player
    scores: tuple[tuple[str, int], ...]  # totals after the round
    hands: tuple[tuple[str, tuple[Card, ...]], ...]  # cards left, shown at round end


@dataclass(frozen=True, slots=True)
class MatchEnded:
    winner: str
    scores: tuple[tuple[str, int], ...]
    forfeited: tuple[str, ...] = ()


Event = (
    RoundStarted
    | CutForPlayerOne
    | DraftPicked
    | FirstCardTurned
    | CardReturned
    | CardPlayed
    | ColourChosen
    | CardsDrawn
    | DrawnCardKept
    | TurnSkipped
    | DirectionChanged
    | VolleyRaised
    | ChallengeResolved
    | ColourDumped
    | DumpDeclined
    | CardGiven
    | HandsShuffled
    | HandsSwapped
    | HandsPassed
    | JumpedIn
    | DrawPileRefilled
    | UnoExposed
    | UnoCalled
    | UnoCaught
    | TurnStarted
    | PlayerRemoved
    | RoundEnded
    | MatchEnded
)


# CardPlayed, the commonest event with a field that varies, is shared rather than built
# per play: building a frozen dataclass goes through object.__setattr__ per field, and
# even built through its slots it cost about five times a lookup here (valgrind). Events
# are immutable values, so one instance serves every match. A card keeps at most
# PLAYED_PER_CARD players, which bounds the table (under 2 MB) however many players the
# bot sees; per-match memory is unchanged.
PLAYED_PER_CARD = 256
PLAYED: dict[Card, dict[str, CardPlayed]] = {card: {} for card in EVERY_CARD}
"""`PLAYED[card][player]`: the shared `CardPlayed`; a KeyError means "use card_played"."""


def card_played(player: str, card: Card) -> CardPlayed:
    """`CardPlayed(player, card)`: the shared instance, built and kept on first use."""
    by_player = PLAYED.get(card)
    if by_player is None:  # not a card of any deck: nothing to share
        return CardPlayed(player, card)
    event = by_player.get(player)
    if event is None:
        if len(by_player) >= PLAYED_PER_CARD:
            by_player.clear()  # crude, but bounded, and O(1) per play
        event = by_player[player] = CardPlayed(player, card)
    return event
