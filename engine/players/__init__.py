"""Computer players.

For people: `new_computer(strength, player, seed=...)` gives a `Computer` of
strength easy, normal or hard (`EasyPlayer`, `NormalPlayer`, `HardPlayer`). It
sees what a person in its seat sees and nothing more: `act(me, table)` takes that
seat's `PrivateView` and the `PublicView` and answers one of `me.legal` or None.
`next_move` / `play_computers` show the loop a table runs.

For the engine's tests and benchmarks: `RandomPlayer`, `GreedyPlayer` and
`play_out` read a `Match` directly.
"""

from engine.players.computer import STRENGTHS, Computer, Strength
from engine.players.easy import EasyPlayer
from engine.players.factory import new_computer
from engine.players.greedy_player import GreedyPlayer
from engine.players.hard import HardPlayer
from engine.players.normal import NormalPlayer
from engine.players.play_out import play_out
from engine.players.player import Player
from engine.players.random_player import RandomPlayer
from engine.players.table import next_move, play_computers
from engine.players.values import card_value

__all__ = [
    "STRENGTHS",
    "Computer",
    "EasyPlayer",
    "GreedyPlayer",
    "HardPlayer",
    "NormalPlayer",
    "Player",
    "RandomPlayer",
    "Strength",
    "card_value",
    "new_computer",
    "next_move",
    "play_computers",
    "play_out",
]
