"""The memory a computer keeps of the public record is never wrong.

Normal players play whole matches; after every change the memory of one seat is
held against the real match: its discard pile, the known part of the draw pile,
the cards it believes an opponent holds, and what a pass ruled out.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Challenge, ChooseColour, Draw, Give, Play
from engine.cards import Card, Colour, card, cards
from engine.events import TurnSkipped
from engine.match import Match, Variant
from engine.players import NormalPlayer
from engine.players.memory import Memory, new_events
from engine.views import Phase
from tests.engine.pizza_helpers import pizza
from tests.engine.players.helpers import VARIANTS, computer, play, short_match


def _check(memory: Memory, real: dict[str, Any]) -> None:
    discard = [Card.parse(c) for c in real["discard"]]
    assert discard[len(discard) - len(memory.discard) :] == memory.discard
    draw = [Card.parse(c) for c in real["draw"]]
    assert len(memory.pile) == len(draw)
    assert all(m is None or m is c for m, c in zip(memory.pile, draw, strict=True))
    hands = {
        p: [Card.parse(c) for c in h] for p, h in zip(real["players"], real["hands"], strict=True)
    }
    for player, known in memory.known.items():
        assert not Counter(known) - Counter(hands[player]), (player, known)
    for player, layers in memory.constraints.items():
        rest = list((Counter(hands[player]) - Counter(memory.known.get(player, []))).elements())
        for banned, n in layers:
            assert sum(c not in banned for c in rest) >= n, (player, banned, n, rest)


@settings(deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32))
def test_memory_holds_only_what_is_true(variant: tuple[Variant, int], seed: int) -> None:
    name, players = variant
    match = short_match(name, players, seed)
    seats = {p: computer("normal", p, seed + i) for i, p in enumerate(match.players)}
    watcher = seats[match.players[0]]
    assert isinstance(watcher, NormalPlayer)
    learnt = 0

    def check(m: Match, _player: str, _action: Action) -> None:
        nonlocal learnt
        table = m.public_view()
        watcher.memory.observe(m.private_view(m.players[0]), table)
        if table.phase is Phase.PLAY:
            _check(watcher.memory, m.to_snapshot())
            learnt += len(watcher.memory.discard)

    play(match, seats, check=check)
    assert learnt > 0


def test_new_events_finds_the_overlap() -> None:
    a, b, c, d = (TurnSkipped(p) for p in "abcd")
    assert new_events((a, b, c), (b, c, d)) == (d,)
    assert new_events((a, b), (a, b)) == ()
    assert new_events((), (a,)) == (a,)
    assert new_events((a,), (c, d)) == (c, d)


def test_p6_a_card_given_unseen_may_be_one_we_knew_they_held() -> None:
    m = pizza(
        {"a": "B1 G3 Y2 Y3", "b": "W+2 WDIP G5 G8 Y1", "c": "BR G1 G2"},
        top="R7",
        draw="Y4 Y5 Y6 Y7 Y8 Y9",
        turn="b",
        clockwise=False,
    )
    memory = Memory("a")
    moves: list[tuple[str, Action]] = [
        ("b", Play(card("W+2"))),
        ("b", ChooseColour(Colour.BLUE)),
        ("a", Challenge()),  # P7: a sees b's hand
        ("a", Play(card("B1"))),
        ("c", Play(card("BR"))),  # clockwise again: b gives to c, not to a
        ("a", Draw()),
        ("b", Play(card("WDIP"))),
        ("b", ChooseColour(Colour.GREEN)),
        ("b", Give(card("G5"))),  # a does not see which card
    ]
    for player, action in moves:
        m.apply(player, action)
        memory.observe(m.private_view("a"), m.public_view())
        if action == Challenge():
            assert Counter(memory.known["b"]) == Counter(cards("WDIP G5 G8 Y1"))
    assert card("G5") not in memory.known.get("b", [])
    _check(memory, m.to_snapshot())
