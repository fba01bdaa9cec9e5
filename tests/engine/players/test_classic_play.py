"""The hard player's rule of thumb at classic tables (`engine.players.classic_play`)."""

from __future__ import annotations

import random

from engine.actions import Action, ChooseColour, Draw, Play
from engine.builders import table_for_test
from engine.cards import Colour, card
from engine.match import ClassicOptions, Match
from engine.players.classic_play import classic_action
from engine.players.memory import Memory
from engine.players.normal import normal_action

PLAYERS = ["a", "b", "c", "d"]


def _table(hands: list[str], top: str, turn: str = "a") -> Match:
    return table_for_test(
        "classic",
        players=PLAYERS,
        hands=hands,
        discard=top,
        turn=turn,
        options=ClassicOptions(),
        draw="Y9 Y8 Y7",
        rest="draw",
    )


def _both(m: Match, memory: Memory | None = None) -> tuple[Action, Action]:
    """The normal player's move and the classic rule of thumb's, for seat a."""
    me, table = m.private_view("a"), m.public_view()
    rng = random.Random(0)
    return normal_action(me, table, rng, memory), classic_action(me, table, rng, memory)


def test_c7_it_never_bluffs_a_wild_draw_four_while_holding_the_active_colour() -> None:
    m = _table(["W+4 R1 G2 G3", "B1", "B2 B3 B4", "B5 B6 B7"], top="R5")
    usual, classic = _both(m)
    assert usual == Play(card("W+4"))  # the normal player hits the seat about to go out
    assert classic == Play(card("R1"))


def test_c5_a_skip_that_hands_the_turn_to_a_player_about_to_go_out_waits() -> None:
    m = _table(["RS R2 G4 G6", "B1 B2 B3 B4 B6", "B7", "B8 B9 G1"], top="R5")
    usual, classic = _both(m)
    assert usual == Play(card("RS"))  # skips b, so c with one card plays next
    assert classic == Play(card("R2"))


def test_c5_a_reverse_that_hands_the_turn_to_a_player_about_to_go_out_waits() -> None:
    m = _table(["RR R2 G4 G6", "B1 B2 B3 B4", "B6 B8 B9", "B7"], top="R5")
    usual, classic = _both(m)
    assert usual == Play(card("RR"))  # turns the play to d, who holds one card
    assert classic == Play(card("R2"))


def test_names_the_colour_the_next_player_is_known_to_lack() -> None:
    hands = ["B8 W R1 B1 G5", "R3 R4 G6", "B2 B3 G1", "B4 B6 G2"]
    m = _table(hands, top="B5", turn="c")
    memory = Memory("a")
    moves = ["c B2", "d B4", "a B8", "b draw", "c B3", "d B6", "a W"]
    for move in moves:
        player, what = move.split()
        m.apply(player, Draw() if what == "draw" else Play(card(what)))
        memory.observe(m.private_view("a"), m.public_view())
    usual, classic = _both(m, memory)
    assert usual == ChooseColour(Colour.GREEN)  # points break the tie: G5 over R1 and B1
    assert classic == ChooseColour(Colour.BLUE)  # b drew on blue and played nothing
