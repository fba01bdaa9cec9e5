"""The normal computer's rules of thumb, and that they beat random play."""

from __future__ import annotations

import random

from engine.actions import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Give,
    JumpIn,
    Play,
    SwapHands,
)
from engine.builders import table_for_test
from engine.cards import Colour, card
from engine.match import ClassicOptions, Match
from engine.players import NormalPlayer
from engine.players.normal import CATCH_RATE
from tests.engine.pizza_helpers import pizza, play_all
from tests.engine.players.helpers import computer, play, short_match


def _normal(m: Match, player: str, seed: int = 0) -> Action | None:
    return NormalPlayer(player, random.Random(seed)).act(m.private_view(player), m.public_view())


def test_keeps_wilds_and_plays_the_colour_it_holds_most() -> None:
    m = pizza({"a": "W R1 G2 G5 G9", "b": "Y1 Y2 Y3"}, top="G7", turn="a")
    assert _normal(m, "a") in (Play(card("G2")), Play(card("G5")), Play(card("G9")))
    m = pizza({"a": "W R1 B2 G2 Y9", "b": "Y1 Y2 Y3"}, top="R7", turn="a")
    assert _normal(m, "a") == Play(card("R1"))


def test_aims_an_action_card_at_a_player_about_to_go_out() -> None:
    m = pizza({"a": "R9 R8 RS G2", "b": "Y1 Y2", "c": "B1 B2 B3"}, top="R7", turn="a")
    assert _normal(m, "a") == Play(card("RS"))


def test_names_the_colour_it_holds_most_and_calls_uno_with_the_play() -> None:
    m = pizza({"a": "W B1 B2 G5", "b": "Y1 Y2 Y3"}, top="R7", turn="a")
    m.apply("a", Play(card("W")))
    assert _normal(m, "a") == ChooseColour(Colour.BLUE)
    m = pizza({"a": "R1 G2", "b": "Y1 Y2 Y3"}, top="R7", turn="a")
    assert _normal(m, "a") == Play(card("R1"), uno=True)


def test_calls_when_exposed_and_catches_often() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    m.apply("a", Play(card("R1")))
    assert _normal(m, "a") == CallUno()
    catches = sum(_normal(m, "c", seed) == CatchUno() for seed in range(200))
    assert abs(catches / 200 - CATCH_RATE) < 0.15


def test_gives_its_highest_coloured_card() -> None:
    m = pizza({"a": "WDIP G1 G2 B9 RS", "b": "Y1 Y2"}, top="R7", draw="Y3", turn="a")
    play_all(m, [("a", Play(card("WDIP"))), ("a", ChooseColour(Colour.GREEN))])
    assert _normal(m, "a") == Give(card("RS"))


def test_challenges_only_when_the_odds_favour_it() -> None:
    # Three cards left after the Wild Draw 2: likely one could have been played.
    m = pizza({"a": "W+2 R1 G2 B3", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(Colour.BLUE))])
    assert _normal(m, "b") == Challenge()
    # One card left: probably a fair play.
    m = pizza({"a": "W+2 Y5", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    play_all(m, [("a", Play(card("W+2"), uno=True)), ("a", ChooseColour(Colour.BLUE))])
    assert _normal(m, "b") == Accept()


def test_normal_beats_easy_in_duo() -> None:
    matches = 40
    wins = 0
    for seed in range(matches):
        match = short_match("duo", 2, seed)
        normal = match.players[seed % 2]
        seats = {
            p: computer("normal" if p == normal else "easy", p, seed * 2 + i)
            for i, p in enumerate(match.players)
        }
        play(match, seats)
        wins += match.public_view().winner == normal
    assert wins / matches >= 0.6, f"normal won {wins} of {matches}"


def test_h2_swaps_hands_with_the_smallest_hand() -> None:
    m = table_for_test(
        "classic",
        players=["a", "b", "c", "d"],
        hands=["R7 R1 R2", "G5 G6 G7", "Y5", "B1 B2"],
        discard="R3",
        turn="a",
        options=ClassicOptions(seven_o=True),
    )
    m.apply("a", Play(card("R7")))
    assert _normal(m, "a") == SwapHands("c")


def test_h3_every_computer_jumps_in_with_a_twin_of_the_top_card() -> None:
    def jumped(kind: str, seed: int) -> Action | None:
        m = table_for_test(
            "classic",
            players=["a", "b", "c"],
            hands=["R5 G1 G2", "B1 B2 B3", "R5 Y7"],
            discard="R4",
            turn="a",
            options=ClassicOptions(jump_in=True),
        )
        m.apply("a", Play(card("R5")))  # c holds its twin, and is not in turn
        player = computer(kind, "c", seed, ClassicOptions(jump_in=True))
        return player.act(m.private_view("c"), m.public_view())

    with_uno = JumpIn(card("R5"), uno=True)  # it leaves one card: UNO is called with it
    assert jumped("normal", 1) == with_uno
    assert jumped("hard", 1) == with_uno
    easy = [jumped("easy", seed) for seed in range(60)]
    assert {JumpIn(card("R5")), with_uno} >= set(easy) - {None}
    assert 5 < sum(move is not None for move in easy) < 40  # now and then
