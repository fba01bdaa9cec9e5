"""The hard computer: its search, its UNO calls and its catches."""

from __future__ import annotations

import pickle
import random

from engine.actions import CallUno, CatchUno, Play
from engine.cards import card
from engine.players import STRENGTHS, EasyPlayer, HardPlayer, NormalPlayer, new_computer, next_move
from engine.players.hard import MIN_SAMPLES, better_than
from engine.views import PrivateView, PublicView
from tests.engine.pizza_helpers import pizza
from tests.engine.players.helpers import computer, short_match


def _hard(player: str, seed: int = 0) -> HardPlayer:
    return HardPlayer(player, random.Random(seed), samples=6, depth=20)


def test_keeps_the_usual_move_unless_another_is_clearly_better() -> None:
    # Values per sampled world for three moves; the usual move is the first.
    noisy = [[0.0, 1.0, 0.1], [0.0, -1.0, 0.2], [0.0, 1.0, 0.1], [0.0, -0.9, 0.15]]
    assert better_than(0, noisy) == 2  # 2 is better every time; 1 only on average
    assert better_than(0, [[0.0, 0.5]]) == 0  # one world proves nothing
    assert better_than(1, [[0.3, 0.0], [0.2, 0.0], [0.4, 0.0]]) == 0


def test_calls_uno_with_its_play() -> None:
    m = pizza({"a": "R1 G2", "b": "Y1 Y2 Y3"}, top="R7", turn="a")
    action = _hard("a").act(m.private_view("a"), m.public_view())
    assert action == Play(card("R1"), uno=True)


def test_calls_when_exposed_and_always_catches() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    m.apply("a", Play(card("R1")))
    assert _hard("a").act(m.private_view("a"), m.public_view()) == CallUno()
    for seed in range(20):
        hard = _hard("c", seed)
        assert hard.act(m.private_view("c"), m.public_view()) == CatchUno()


def test_goes_out_when_it_can() -> None:
    m = pizza({"a": "W", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    hard = _hard("a")
    assert hard.act(m.private_view("a"), m.public_view()) == Play(card("W"))
    assert hard.failures == 0


def test_a_computer_and_its_views_travel_to_another_process() -> None:
    # The table may run a search in a worker process: the seat's computer (with its
    # memory) and the two views it is asked with must survive pickling.
    m = short_match("classic", 3, seed=4)
    seats = {p: computer("hard", p, seed=i) for i, p in enumerate(m.players)}
    for _ in range(40):
        move = next_move(m, seats)
        assert move is not None
        m.apply(*move)
    hard = seats[m.players[0]]
    assert isinstance(hard, HardPlayer)
    copy = pickle.loads(pickle.dumps(hard))
    assert copy.memory.discard == hard.memory.discard
    views = (m.private_view(m.players[0]), m.public_view())
    assert pickle.loads(pickle.dumps(views)) == views


def test_new_computer_gives_the_strength_asked_for() -> None:
    kinds = {s: type(new_computer(s, "p1", seed=1)) for s in STRENGTHS}
    assert kinds == {"easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer}


def _turn_with_choices() -> tuple[PrivateView, PublicView]:
    m = pizza({"a": "R1 R2 G2 Y5", "b": "Y1 Y2 Y3", "c": "G1 G3 B4"}, top="R7", turn="a")
    return m.private_view("a"), m.public_view()


def test_the_search_is_sized_by_playouts_not_by_time() -> None:
    me, table = _turn_with_choices()
    hard = HardPlayer("a", random.Random(1), playouts=200, budget_ms=60_000)
    hard.act(me, table)
    candidates = len(hard._candidates(me, table))
    assert candidates >= 2
    assert hard.last_samples == max(MIN_SAMPLES, -(-200 // candidates))
    assert hard.capped == 0


def test_the_time_cap_cuts_a_search_short_and_says_so() -> None:
    me, table = _turn_with_choices()
    hard = HardPlayer("a", random.Random(1), playouts=10_000, budget_ms=0.0)
    action = hard.act(me, table)
    assert action in me.legal
    assert hard.last_samples == 1
    assert hard.capped == 1
