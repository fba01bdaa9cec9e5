"""Computer players: always legal, and the greedy one beats the random one."""

from __future__ import annotations

import importlib.util
import random

import pytest

from engine.actions import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Give,
    Play,
)
from engine.cards import Colour, card
from engine.match import Match, PizzaOptions, Variant, new_match
from engine.players import GreedyPlayer, Player, RandomPlayer, card_value, play_out
from tests.engine.pizza_helpers import pizza, play_all

VARIANTS: list[tuple[Variant, int]] = [("pizza", n) for n in (2, 3, 4, 5)]
if importlib.util.find_spec("engine.duo") is not None:
    VARIANTS.insert(0, ("duo", 2))


def _checked_play(match: Match, seats: dict[str, Player], max_steps: int = 50_000) -> None:
    """play_out, asserting every choice and reaction is legal."""
    for _ in range(max_steps):
        if match.is_over:
            return
        for player in match.players:
            reaction = seats[player].react(match, player)
            if reaction is not None:
                assert reaction in match.legal_actions(player)
                match.apply(player, reaction)
        player = match.waiting_for()[0]
        action = seats[player].choose(match, player)
        assert action in match.legal_actions(player)
        match.apply(player, action)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(("variant", "n"), VARIANTS)
def test_players_always_choose_legal_actions(variant: Variant, n: int) -> None:
    for seed in range(6):
        ids = [f"p{i}" for i in range(n)]
        m = new_match(variant, players=ids, seed=seed)
        rng = random.Random(seed)
        seats: dict[str, Player] = {
            p: GreedyPlayer() if (i + seed) % 2 else RandomPlayer(rng) for i, p in enumerate(ids)
        }
        _checked_play(m, seats)
        assert m.is_over


@pytest.mark.parametrize(("variant", "n"), VARIANTS)
def test_greedy_beats_random_most_of_the_time(variant: Variant, n: int) -> None:
    games = 30
    wins = 0
    for seed in range(games):
        ids = [f"p{i}" for i in range(n)]
        greedy = ids[seed % n]
        seats: dict[str, Player] = {
            p: RandomPlayer(random.Random(seed * 7 + i)) for i, p in enumerate(ids)
        }
        seats[greedy] = GreedyPlayer()
        m = new_match(variant, players=ids, seed=seed)
        play_out(m, seats)
        wins += m.public_view().winner == greedy
    # A fair seat would win 1/n of the games; demand far more than that.
    assert wins / games >= 0.7, f"greedy won {wins} of {games}"


def test_greedy_sheds_the_most_points_and_calls_uno_with_the_play() -> None:
    m = pizza({"a": "R1 RS", "b": "Y1 Y2"}, top="R7", turn="a")
    assert GreedyPlayer().choose(m, "a") == Play(card("RS"), uno=True)
    m = pizza({"a": "R1 R9 W B7", "b": "Y1 Y2"}, top="R7", turn="a")
    assert GreedyPlayer().choose(m, "a") == Play(card("W"))


def test_greedy_catches_an_exposed_player() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    m.apply("a", Play(card("R1")))
    assert GreedyPlayer().react(m, "c") == CatchUno()
    assert GreedyPlayer().react(m, "a") == CallUno()
    assert GreedyPlayer().choose(m, "b") == CatchUno()


def test_greedy_names_the_colour_it_holds_most_and_gives_its_highest_card() -> None:
    m = pizza({"a": "WDIP G1 G2 B9 RS", "b": "Y1 Y2"}, top="R7", draw="Y3", turn="a")
    m.apply("a", Play(card("WDIP")))
    assert GreedyPlayer().choose(m, "a") == ChooseColour(Colour.GREEN)
    m.apply("a", ChooseColour(Colour.GREEN))
    assert GreedyPlayer().choose(m, "a") == Give(card("RS"))


def test_greedy_challenges_only_when_likely_to_win() -> None:
    m = pizza({"a": "W+2 R1 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(Colour.BLUE))])
    assert GreedyPlayer().choose(m, "b") == Challenge()
    m = pizza({"a": "W+2 Y5", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    play_all(m, [("a", Play(card("W+2"), uno=True)), ("a", ChooseColour(Colour.BLUE))])
    assert GreedyPlayer().choose(m, "b") == Accept()


def test_card_value_follows_each_variant() -> None:
    assert card_value("pizza", card("RS")) == 20
    assert card_value("pizza", card("W+2")) == 50
    assert card_value("duo", card("RS")) == 10
    assert card_value("duo", card("W+4")) == 20
    assert card_value("duo", card("W")) == 15
    assert card_value("duo", card("R7")) == 7


def test_random_player_is_reproducible() -> None:
    def run(seed: int) -> dict[str, object]:
        m = new_match("pizza", players="abc", seed=1, options=PizzaOptions(target=60))
        rng = random.Random(seed)
        play_out(m, {p: RandomPlayer(rng) for p in "abc"})
        return m.to_snapshot()

    assert run(4) == run(4)
