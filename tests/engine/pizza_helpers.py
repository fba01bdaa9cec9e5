"""Build Pizza matches in an explicit state, then let the real engine play them.

`pizza(...)` writes a snapshot (the engine's public persistence format) with
the hands, piles, turn and direction you name and loads it with
`Game.from_snapshot`; from there on every rule is the engine's own.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any, Literal

from engine.actions import Action
from engine.builders import table_for_test
from engine.cards import Colour, pizza_deck
from engine.events import Event, FirstCardTurned, RoundStarted
from engine.game import Game
from engine.match import Match, PizzaOptions, new_match
from engine.views import Pending

DECK = pizza_deck()


def pizza(
    hands: Mapping[str, str],
    *,
    top: str,
    turn: str,
    draw: str = "",
    discard: str = "",
    active: str | None = None,
    clockwise: bool = True,
    dealer: str | None = None,
    scores: Mapping[str, int] | None = None,
    target: int = 250,
    seed: int = 0,
    rest: Literal["draw", "discard", "none"] = "draw",
    pending: Pending = Pending.NONE,
) -> Game:
    """A match in round 1 with exactly this state.

    `hands` maps each player (in seat order) to card codes; `top` is the face-up
    card and `discard` the cards under it (oldest first); `draw` lists the draw
    pile from its top down. Every other card of the 51 goes to the bottom of the
    draw pile (`rest="draw"`), under the discard pile (`"discard"`), or nowhere
    (`"none"`). `active` names the colour for a wild on top.
    """
    return table_for_test(
        "pizza",
        players=list(hands),
        hands=list(hands.values()),
        discard=f"{discard} {top}".strip(),
        draw=draw,
        turn=turn,
        active=Colour(active) if active is not None else None,
        clockwise=clockwise,
        dealer=dealer,
        scores=[(scores or {}).get(p, 0) for p in hands],
        options=PizzaOptions(target=target),
        seed=seed,
        pending=pending,
        rest=rest,
    )


def state(match: Match) -> str:
    """The whole state as one string, to prove an action changed nothing."""
    return json.dumps(match.to_snapshot(), sort_keys=True)


def hand(match: Match, player: str) -> list[str]:
    """A player's hand as codes, in the view's sorted order."""
    return [c.code for c in match.private_view(player).hand]


def count(match: Match, player: str) -> int:
    return next(s.cards for s in match.public_view().seats if s.player == player)


def all_cards(match: Match) -> Counter[str]:
    """Every card in hands and piles (to check that all 51 exist exactly once)."""
    snap = match.to_snapshot()
    found: Counter[str] = Counter()
    for h in snap["hands"]:
        found.update(h)
    found.update(snap["draw"])
    found.update(snap["discard"])
    return found


def play_all(match: Match, moves: list[tuple[str, Action]]) -> list[Event]:
    """Apply several actions; return every event."""
    out: list[Event] = []
    for player, action in moves:
        out += match.apply(player, action)
    return out


def seed_with_first_card(
    predicate: Any, *, players: int = 3, returned: bool = False, limit: int = 5000
) -> tuple[int, Match]:
    """The first seed whose round opens on a card satisfying `predicate` (real deals).

    With `returned`, the seed must also have sent a card back first (P3).
    """
    ids = [f"p{i}" for i in range(players)]
    for seed in range(limit):
        m = new_match("pizza", players=ids, seed=seed)
        turned = [e.card for e in m.public_view().recent if isinstance(e, FirstCardTurned)]
        if predicate(turned[-1]) and (not returned or len(turned) > 1):
            return seed, m
    raise AssertionError("no seed found")


def round_started(match: Match) -> RoundStarted:
    return next(e for e in match.public_view().recent if isinstance(e, RoundStarted))


def colour(letter: str) -> Colour:
    return Colour(letter)
