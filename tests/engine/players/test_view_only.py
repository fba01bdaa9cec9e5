"""A computer sees what a person in its seat sees, and nothing more.

It is handed the seat's PrivateView and the PublicView, never the match: the
modules of the computers import neither `Match` nor any variant's rules
(tests/test_architecture.py), their `act` takes the two views only, and shuffling
the cards the seat cannot see (the other hands, the draw pile) changes neither
what it is given nor what it does.
"""

from __future__ import annotations

import inspect
import random
import typing
from collections.abc import Callable
from typing import Any

import pytest

from engine.match import Match, Variant, from_snapshot
from engine.players import Computer, EasyPlayer, HardPlayer, NormalPlayer
from engine.players.computer import Computer as ComputerProtocol
from engine.views import Phase, PrivateView, PublicView
from tests.engine.players.helpers import computer, play, short_match

PLAYERS = [EasyPlayer, NormalPlayer, HardPlayer]


@pytest.mark.parametrize("cls", [ComputerProtocol, *PLAYERS])
def test_act_takes_the_two_views_only(cls: type[Any]) -> None:
    hints = typing.get_type_hints(cls.act)
    params = list(inspect.signature(cls.act).parameters)
    assert params == ["self", "me", "table"]
    assert hints["me"] is PrivateView
    assert hints["table"] is PublicView


@pytest.mark.parametrize("cls", PLAYERS)
def test_no_computer_is_built_from_a_match(cls: type[Any]) -> None:
    hints = typing.get_type_hints(cls.__init__)
    assert Match not in hints.values()
    assert all("Match" not in str(h) for h in hints.values())


def _hide_differently(match: Match, seat: str, rng: random.Random) -> Match:
    """The same match with the cards `seat` cannot see dealt again at random."""
    data = match.to_snapshot()
    players = list(data["players"])
    others = [i for i, p in enumerate(players) if p != seat]
    hidden = [c for i in others for c in data["hands"][i]] + list(data["draw"])
    rng.shuffle(hidden)
    for i in others:
        n = len(data["hands"][i])
        data["hands"][i], hidden = hidden[:n], hidden[n:]
    data["draw"] = hidden
    return from_snapshot(data)


def _decisions(variant: Variant, players: int, seed: int) -> list[tuple[Match, str]]:
    """States of a played match at which some seat decides a move of its own."""
    match = short_match(variant, players, seed)
    seats = {p: computer("normal", p, seed + i) for i, p in enumerate(match.players)}
    found: list[tuple[Match, str]] = []

    def keep(m: Match, player: str, _: object) -> None:
        table = m.public_view()
        if len(found) < 40 and table.to_act == player and table.phase is Phase.PLAY:
            found.append((from_snapshot(m.to_snapshot()), player))

    play(match, seats, check=keep)
    return found[5::7]


Make = Callable[[str, int], Computer]
MAKERS: dict[str, Make] = {
    "easy": lambda p, s: EasyPlayer(random.Random(s)),
    "normal": lambda p, s: NormalPlayer(p, random.Random(s)),
    "hard": lambda p, s: HardPlayer(p, random.Random(s), samples=3, depth=10),
}


@pytest.mark.parametrize(("variant", "players"), [("duo", 2), ("pizza", 4), ("classic", 4)])
@pytest.mark.parametrize("kind", list(MAKERS))
def test_hidden_cards_change_neither_what_it_gets_nor_what_it_does(
    variant: Variant, players: int, kind: str
) -> None:
    states = _decisions(variant, players, seed=11)
    assert len(states) >= 4
    for k, (match, seat) in enumerate(states):
        other = _hide_differently(match, seat, random.Random(k))
        # The hidden cards really moved (else the test proves nothing)...
        assert other.to_snapshot()["hands"] != match.to_snapshot()["hands"] or players == 2
        assert other.to_snapshot()["draw"] != match.to_snapshot()["draw"]
        # ...yet the seat is given the same views, and decides the same.
        me, table = match.private_view(seat), match.public_view()
        assert other.private_view(seat) == me
        assert other.public_view() == table
        first = MAKERS[kind](seat, k).act(me, table)
        again = MAKERS[kind](seat, k).act(other.private_view(seat), other.public_view())
        assert first == again
        assert first in me.legal
