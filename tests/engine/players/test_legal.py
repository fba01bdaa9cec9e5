"""Every move a computer makes is legal, in every variant, for every strength."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action
from engine.match import Match, Variant
from engine.players import Computer, HardPlayer, next_move
from tests.engine.players.helpers import HOUSE, VARIANTS, computer, play, short_match

kinds = st.sampled_from(["easy", "normal", "hard"])


def _legal(match: Match, player: str, action: Action) -> None:
    assert action in match.legal_actions(player), (player, action)


@settings(deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.lists(kinds, min_size=10, max_size=10))
def test_easy_and_normal_moves_are_legal_to_the_end(
    variant: tuple[Variant, int], seed: int, strengths: list[str]
) -> None:
    name, players = variant
    match = short_match(name, players, seed)
    kinds = ["normal" if k == "hard" else k for k in strengths[:players]]
    seats = {
        p: computer(k, p, seed + i)
        for i, (p, k) in enumerate(zip(match.players, kinds, strict=True))
    }
    play(match, seats, check=_legal)
    assert match.is_over


@settings(deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 200), st.booleans())
def test_hard_moves_are_legal(
    variant: tuple[Variant, int], seed: int, start: int, watched: bool
) -> None:
    """From anywhere in a match, the hard seat's next six decisions and its reactions.

    Normal players hold every seat until `start`; the hard player then takes one over,
    having watched the table from the beginning or not (its memory then starts late).
    """
    name, players = variant
    match = short_match(name, players, seed)
    hard_seat = match.players[seed % players]
    seats: dict[str, Computer] = {
        p: computer("normal", p, seed + i) for i, p in enumerate(match.players)
    }
    hard = computer("hard", hard_seat, seed)
    assert isinstance(hard, HardPlayer)
    decisions = 0
    for step in range(20_000):
        if step == start:
            seats[hard_seat] = hard
        elif watched and step < start:
            hard.act(match.private_view(hard_seat), match.public_view())
        move = next_move(match, seats)
        if move is None or decisions >= 6:
            break
        _legal(match, *move)
        decisions += move[0] == hard_seat and step >= start
        match.apply(*move)
    assert hard.failures == 0  # every sampled world was one the engine accepts


@settings(deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32), st.lists(kinds, min_size=10, max_size=10))
def test_h1_h4_easy_and_normal_moves_are_legal_with_every_house_rule(
    players: int, seed: int, strengths: list[str]
) -> None:
    match = short_match("classic", players, seed, HOUSE)
    kinds = ["normal" if k == "hard" else k for k in strengths[:players]]
    seats = {
        p: computer(k, p, seed + i)
        for i, (p, k) in enumerate(zip(match.players, kinds, strict=True))
    }
    # Not to the end: easy computers drawing to match (H4) while they could play make
    # very long rounds; legality is the point here.
    for _ in range(3000):
        move = next_move(match, seats)
        if move is None:
            break
        _legal(match, *move)
        match.apply(*move)
    assert match.version > 0


@settings(deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32), st.integers(0, 200))
def test_h1_h4_hard_moves_are_legal_with_every_house_rule(
    players: int, seed: int, start: int
) -> None:
    match = short_match("classic", players, seed, HOUSE)
    hard_seat = match.players[seed % players]
    seats: dict[str, Computer] = {
        p: computer("normal", p, seed + i) for i, p in enumerate(match.players)
    }
    hard = computer("hard", hard_seat, seed, HOUSE)
    assert isinstance(hard, HardPlayer)
    decisions = 0
    for step in range(20_000):
        if step == start:
            seats[hard_seat] = hard
        move = next_move(match, seats)
        if move is None or decisions >= 6:
            break
        _legal(match, *move)
        decisions += move[0] == hard_seat and step >= start
        match.apply(*move)
    assert hard.failures == 0  # every sampled world was one the engine accepts
