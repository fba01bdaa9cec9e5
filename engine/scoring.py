"""Scoring tables (D14, P11, C11) and the end of a round and of a match
(D13/D14, P10/P11, C10/C11, X3).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import Board
from engine.cards import HAND_ORDER, Card, Face
from engine.events import Event, MatchEnded, RoundEnded
from engine.ruleset import Ruleset
from engine.views import Pending, Phase


def points_table(
    cards: Iterable[Card], *, action: int, wild: int, wild_draw_four: int
) -> dict[Card, int]:
    """Numbers score their face value; other coloured cards `action`; wilds `wild`."""
    table: dict[Card, int] = {}
    for card in cards:
        number = card.face.number
        if number is not None:
            table[card] = number
        elif card.face is Face.WILD_DRAW_FOUR:
            table[card] = wild_draw_four
        else:
            table[card] = wild if card.colour is None else action
    return table


def _round_points(t: Board, rules: Ruleset, winner: int) -> list[int]:
    worth = [sum(map(rules.points.__getitem__, hand)) for hand in t.hands]
    if rules.loser_scores:  # D14: each other player scores their own hand
        worth[winner] = 0
        return worth
    points = [0] * len(t.players)  # P11, C11: the winner scores every other hand
    points[winner] = sum(worth)
    return points


def end_round(t: Board, rules: Ruleset, winner: int, events: list[Event]) -> None:
    """Score the round, then end the match or start the next round."""
    points = _round_points(t, rules, winner)
    for k, gained in enumerate(points):
        t.scores[k] += gained
    players = t.players
    events.append(
        RoundEnded(
            round=t.round,
            winner=players[winner],
            points=tuple(zip(players, points, strict=True)),
            scores=tuple(zip(players, t.scores, strict=True)),
            hands=tuple(
                (p, tuple(sorted(t.hands[k], key=HAND_ORDER.__getitem__)))
                for k, p in enumerate(players)
                if t.seated[k]
            ),
        )
    )
    clear_round_state(t)
    target = t.options.target
    done = max(t.scores) >= target if rules.loser_scores else t.scores[winner] >= target
    if done:
        end_match(t, winner, events)
    else:
        rules.start_round(t, events)


def clear_round_state(t: Board) -> None:
    t.exposed = -1
    t.revealed_to = -1
    t.revealed = ()
    t.wild_draw = None
    t.drawn = None
    t.volley = 0
    t.call = False
    t.first_colour = False


def end_match(t: Board, winner: int, events: list[Event]) -> None:
    t.over = True
    t.phase = Phase.MATCH_OVER
    t.winner = winner
    t.turn = -1
    t.pending = Pending.NONE
    clear_round_state(t)
    forfeited = tuple(p for k, p in enumerate(t.players) if not t.seated[k])
    events.append(
        MatchEnded(t.players[winner], tuple(zip(t.players, t.scores, strict=True)), forfeited)
    )
