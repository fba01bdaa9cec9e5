"""What a player can do. Actions are immutable values; the actor is passed
beside them to `Match.apply(player, action)`.

Each action has a JSON form (`to_json` / `from_json`) for the action log, so a
match replays from its seed and log (X4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Card, Colour


@dataclass(frozen=True, slots=True)
class KeepCard:
    """D3: keep the drafted card you are looking at."""


@dataclass(frozen=True, slots=True)
class RejectCard:
    """D3: reject the drafted card; you must keep the next one."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from the hand. `uno` calls UNO together with the play (D11, P8)."""

    card: Card
    uno: bool = False


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card on your turn (D5, P4); a pass when nothing is left (D12)."""


@dataclass(frozen=True, slots=True)
class KeepDrawn:
    """Keep the card just drawn instead of playing it; the turn ends (D5, P4)."""


@dataclass(frozen=True, slots=True)
class ChooseColour:
    """Name the colour for a wild (D4, D8, P3, P6)."""

    colour: Colour


@dataclass(frozen=True, slots=True)
class TakeVolley:
    """D7: draw the running total of a Draw 2 volley instead of stacking."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge a Wild Draw 4 (D10) or a Wild Draw 2 (P7)."""


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept a Wild Draw 4 (D8) or a Wild Draw 2 (P6): draw and lose the turn."""


@dataclass(frozen=True, slots=True)
class Dump:
    """D9: lay every card of the colour, `last` laid last (only it has an effect).

    `order` is the whole order laid, `last` included, as the player chose it; it
    is the order the cards go onto the discard pile. Left empty, the other cards
    go in hand order (`engine.cards.hand_order`) and then `last`: what
    `legal_actions` offers, and how action logs written before the order could
    be chosen replay.
    """

    last: Card
    uno: bool = False
    order: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class NoDump:
    """D9: keep your cards after playing a Reverse."""


@dataclass(frozen=True, slots=True)
class Give:
    """P6: after a Dip, give this card to the next player."""

    card: Card


@dataclass(frozen=True, slots=True)
class SwapHands:
    """H2 Seven-O: after playing a 7, swap hands with this player."""

    target: str


@dataclass(frozen=True, slots=True)
class JumpIn:
    """H3: play a card identical to the top card, out of turn."""

    card: Card
    uno: bool = False


@dataclass(frozen=True, slots=True)
class CallUno:
    """Call UNO while exposed (D11, P8)."""


@dataclass(frozen=True, slots=True)
class CatchUno:
    """Catch the exposed player before they call: they draw 2 (D11, P8)."""


Action = (
    KeepCard
    | RejectCard
    | Play
    | Draw
    | KeepDrawn
    | ChooseColour
    | TakeVolley
    | Challenge
    | Accept
    | Dump
    | NoDump
    | Give
    | SwapHands
    | JumpIn
    | CallUno
    | CatchUno
)

_TYPES: dict[str, type[Action]] = {
    "keep_card": KeepCard,
    "reject_card": RejectCard,
    "play": Play,
    "draw": Draw,
    "keep_drawn": KeepDrawn,
    "choose_colour": ChooseColour,
    "take_volley": TakeVolley,
    "challenge": Challenge,
    "accept": Accept,
    "dump": Dump,
    "no_dump": NoDump,
    "give": Give,
    "swap_hands": SwapHands,
    "jump_in": JumpIn,
    "call_uno": CallUno,
    "catch_uno": CatchUno,
}
_NO_FIELDS: dict[type[Action], Action] = {
    cls: cls()
    for cls in (
        KeepCard,
        RejectCard,
        Draw,
        KeepDrawn,
        TakeVolley,
        Challenge,
        Accept,
        NoDump,
        CallUno,
        CatchUno,
    )
}
_NAMES: dict[type[Action], str] = {cls: name for name, cls in _TYPES.items()}


def to_json(action: Action) -> dict[str, Any]:
    """The action as a JSON-ready dict: `{"type": "play", "card": "R5", "uno": true}`."""
    data: dict[str, Any] = {"type": _NAMES[type(action)]}
    if isinstance(action, Play | JumpIn):
        data["card"] = action.card.code
        if action.uno:
            data["uno"] = True
    elif isinstance(action, Dump):
        data["last"] = action.last.code
        if action.uno:
            data["uno"] = True
        if action.order:
            data["order"] = [c.code for c in action.order]
    elif isinstance(action, Give):
        data["card"] = action.card.code
    elif isinstance(action, ChooseColour):
        data["colour"] = action.colour.value
    elif isinstance(action, SwapHands):
        data["target"] = action.target
    return data


def from_json(data: dict[str, Any]) -> Action:
    """Rebuild an action from `to_json`'s output; ValueError if malformed."""
    try:
        cls = _TYPES[data["type"]]
    except (KeyError, TypeError):
        raise ValueError(f"unknown action {data!r}") from None
    if cls is Play:
        return Play(Card.parse(data["card"]), uno=bool(data.get("uno", False)))
    if cls is Dump:
        order = tuple(Card.parse(code) for code in data.get("order", ()))
        return Dump(Card.parse(data["last"]), uno=bool(data.get("uno", False)), order=order)
    if cls is Give:
        return Give(Card.parse(data["card"]))
    if cls is JumpIn:
        return JumpIn(Card.parse(data["card"]), uno=bool(data.get("uno", False)))
    if cls is SwapHands:
        return SwapHands(str(data["target"]))
    if cls is ChooseColour:
        return ChooseColour(Colour(data["colour"]))
    if cls in _NO_FIELDS:
        return _NO_FIELDS[cls]
    raise ValueError(f"malformed action {data!r}")
