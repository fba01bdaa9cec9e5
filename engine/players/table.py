"""Seat computers at a match and play it: the loop the Discord layer runs, in short."""

from __future__ import annotations

from collections.abc import Mapping

from engine.actions import Action
from engine.match import Match
from engine.players.computer import Computer


def next_move(match: Match, seats: Mapping[str, Computer]) -> tuple[str, Action] | None:
    """Ask every computer seat, after a change, what it does now.

    Out-of-turn answers (an UNO call, a catch) come first, then the decision of
    the seat the match waits for. Every seated computer is asked each time, so
    each one sees every state of the table, as a person watching it would.
    """
    if match.is_over:
        return None
    table = match.public_view()
    waiting = match.waiting_for()
    for seat in sorted(table.seats, key=lambda s: s.player in waiting):
        computer = seats.get(seat.player)
        if computer is None or not seat.seated:
            continue
        action = computer.act(match.private_view(seat.player), table)
        if action is not None:
            return seat.player, action
    return None


def play_computers(
    match: Match, seats: Mapping[str, Computer], *, max_steps: int = 100_000
) -> Match:
    """Play the match to its end with a computer in every seat."""
    for _ in range(max_steps):
        move = next_move(match, seats)
        if move is None:
            return match
        match.apply(*move)
    raise RuntimeError("the match did not end")
