"""Build UNO Duo matches in an explicit state, then let the real engine play them.

`duo(...)` wraps `Game.for_test`: hands, piles, top card and turn as named,
then every rule is the engine's own. Players are "a" (Player 1 by default)
and "b" (Player 2, who has the turn by default).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.actions import Action, Play
from engine.builders import duo_draft_for_test, table_for_test
from engine.cards import Card, Colour, card, duo_deck
from engine.events import Event
from engine.game import Game
from engine.match import DuoOptions, Match
from engine.views import Pending

A, B = "a", "b"


def duo(
    a: str = "",
    b: str = "",
    *,
    top: str,
    under: str = "",
    draw: str = "",
    turn: str = B,
    active: Colour | None = None,
    pending: Pending = Pending.NONE,
    fill: bool = True,
    scores: tuple[int, int] = (0, 0),
    target: int = 200,
    classic_deck: bool = False,
    classic_challenge: bool = False,
    player_one: str = A,
    seed: int = 0,
) -> Game:
    """A match in round 1: `a` and `b` hold these cards, `top` is on the pile.

    `under` lists the discard pile under the top (oldest first); `draw` the
    draw pile from its top down. With `fill`, every other card of the deck goes
    under the named draw pile (shuffled), so the card count stays honest.
    """
    discard = f"{under} {top}".strip()
    return table_for_test(
        "duo",
        hands=(a, b),
        discard=discard,
        draw=draw,
        players=(A, B),
        dealer=player_one,
        turn=turn,
        active=active,
        pending=pending,
        seed=seed,
        options=DuoOptions(
            target=target, classic_deck=classic_deck, classic_challenge=classic_challenge
        ),
        scores=scores,
        rest="shuffled" if fill else "none",
    )


def play(code: str, *, uno: bool = False) -> Play:
    return Play(card(code), uno=uno)


def hand(match: Game, player: str) -> list[str]:
    """The player's hand as codes, sorted (as the private view shows it)."""
    return [c.code for c in match.private_view(player).hand]


def snap(match: Match) -> dict[str, Any]:
    return match.to_snapshot()


def draw_pile(match: Game) -> list[str]:
    """The draw pile from its top down (from the snapshot, whose end is the top)."""
    return list(reversed(snap(match)["draw"]))


def discard_pile(match: Game) -> list[str]:
    """The discard pile, oldest first; the last is the top."""
    return list(snap(match)["discard"])


def frozen(match: Game) -> str:
    return json.dumps(match.to_snapshot(), sort_keys=True)


def of_type(events: Sequence[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def all_cards(match: Match) -> Counter[Card]:
    """Every card in hands and piles (draft pile included)."""
    data = snap(match)
    codes = data["hands"][0] + data["hands"][1] + data["draw"] + data["discard"] + data["draft"]
    return Counter(Card.parse(c) for c in codes)


def deck_counter(*, classic: bool = False) -> Counter[Card]:
    return Counter(duo_deck(classic=classic))


def act(match: Game, player: str, action: Action) -> list[Event]:
    """Apply after checking that legal_actions agrees (the two must never differ)."""
    assert action in match.legal_actions(player), (action, match.legal_actions(player))
    return match.apply(player, action)


def drafted(
    a7: str,
    b7: str,
    *,
    shown: str,
    first: str,
    fill: bool = True,
    seed: int = 0,
    classic_deck: bool = False,
) -> Game:
    """A match after a draft of 14 keeps: Player 1 "a" kept `a7`, "b" kept `b7`,
    the `shown` cards went face up in this order, then `first` is turned up (D4).
    """
    from engine.actions import KeepCard
    from engine.cards import cards

    a_cards, b_cards, face_up = cards(a7), cards(b7), cards(shown)
    assert len(a_cards) == len(b_cards) == 7
    assert len(face_up) == 14
    order: list[Card] = []
    for k in range(14):
        keeper = a_cards if k % 2 == 0 else b_cards
        order += [keeper[k // 2], face_up[k]]
    order.append(card(first))
    match = duo_draft_for_test(
        draw=order,
        players=(A, B),
        player_one=A,
        seed=seed,
        options=DuoOptions(classic_deck=classic_deck),
        fill_deck=fill,
    )
    for k in range(14):
        match.apply(A if k % 2 == 0 else B, KeepCard())
    return match


# Cards that go face up in `drafted` when a test does not care which.
SHOWN = "R1 R2 R3 R4 R6 R7 R8 Y1 Y2 Y3 Y4 Y6 Y7 Y8"
