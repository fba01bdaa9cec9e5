"""Private notices on a hand panel: whether they are still fresh, and a challenge's reason.

Derived from the public log (`PublicView.recent`) alone, so rendering stays a pure
function of the views: a notice about an event is shown until the player's own next
decision follows that event, then it is gone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cogs.uno.i18n.l10n import t
from cogs.uno.render.words import card_label, colour_label, escaped_name
from engine.cards import Card, Colour, matches
from engine.events import (
    CardGiven,
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    ColourDumped,
    DraftPicked,
    DrawnCardKept,
    DrawReason,
    DumpDeclined,
    Event,
    FirstCardTurned,
    UnoCalled,
)


def _decided(event: Event, player: str) -> bool:
    """Whether `event` records a decision of `player` (not a penalty or a skip)."""
    if isinstance(event, CardGiven):
        return event.giver == player
    if isinstance(event, CardsDrawn):
        return event.player == player and event.reason is DrawReason.TURN
    decisions = (
        CardPlayed,
        ColourChosen,
        ColourDumped,
        DraftPicked,
        DrawnCardKept,
        DumpDeclined,
        UnoCalled,
    )
    return isinstance(event, decisions) and getattr(event, "player", None) == player


def fresh_since(recent: Sequence[Event], player: str, kind: type[Event]) -> Event | None:
    """The latest `kind` event the player has not yet made a decision after, or None."""
    for event in reversed(recent):
        if isinstance(event, kind):
            return event
        if _decided(event, player):
            return None
    return None


def _covered(recent: Sequence[Event], wild_at: int) -> tuple[Card | None, Colour | None]:
    """The top card and colour in force before the card played at `wild_at`."""
    colour: Colour | None = None
    for event in reversed(recent[:wild_at]):
        if isinstance(event, ColourChosen) and colour is None:
            colour = event.colour
        elif isinstance(event, CardPlayed | FirstCardTurned):
            return event.card, colour or event.card.colour
        elif isinstance(event, ColourDumped) and event.cards:
            return event.cards[-1], colour or event.cards[-1].colour
    return None, colour


def challenge_reason(
    recent: Sequence[Event], revealed: Sequence[Card], names: Mapping[str, str]
) -> str | None:
    """Why the last challenge went as it did, from the hand the challenger was shown:
    `alice held 🟩 Green 2, which matched the 🟦 Blue 2 the wild covered`."""
    at = next(
        (i for i in range(len(recent) - 1, -1, -1) if isinstance(recent[i], ChallengeResolved)),
        None,
    )
    if at is None:
        return None
    verdict = recent[at]
    assert isinstance(verdict, ChallengeResolved)
    wild_at = next(
        (
            i
            for i in range(at - 1, -1, -1)
            if isinstance(e := recent[i], CardPlayed) and e.player == verdict.challenged
        ),
        None,
    )
    if wild_at is None:
        return None
    wild = recent[wild_at]
    assert isinstance(wild, CardPlayed)
    top, colour = _covered(recent, wild_at)
    if top is None:
        return None
    who = escaped_name(names, verdict.challenged)
    covered = card_label(top, colour if top.is_wild else None)
    held = [
        c for c in revealed if c.face is not wild.card.face and matches(c, top=top, active=colour)
    ]
    # A card of the colour in play first: under the classic rule only that colour counts.
    held.sort(key=lambda c: c.colour is not colour)
    if held and not verdict.legitimate:
        return t(
            "{who} held {card}, which matched the {covered} the wild covered.",
            who=who,
            card=card_label(held[0]),
            covered=covered,
        )
    if verdict.legitimate and held and colour is not None:
        # The classic rule: a match by number or symbol doesn't count, only the colour.
        return t(
            "{who} held no {colour} card, the only kind that counts: the wild was fair.",
            who=who,
            colour=colour_label(colour),
        )
    if verdict.legitimate:
        return t(
            "{who} held nothing else that could go on the {covered}: the wild was fair.",
            who=who,
            covered=covered,
        )
    return None
