"""Property test: scoreboards agree with a plain-Python model of the ranking rules."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from db.database import Database
from db.models import Outcome

from .conftest import GUILD, Clock, play

PLAYERS = [11, 12, 13, 14]

# A Duo match: (winner, loser, the loser forfeited, points the loser conceded).
matches = st.lists(
    st.tuples(
        st.sampled_from(PLAYERS),
        st.sampled_from(PLAYERS),
        st.booleans(),
        st.integers(min_value=200, max_value=400),
    ).filter(lambda m: m[0] != m[1]),
    max_size=14,
)


@dataclass
class Expected:
    played: int = 0
    won: int = 0
    forfeits: int = 0
    points: int = 0
    rounds_won: int = 0
    current: int = 0
    best: int = 0


def model(history: list[tuple[int, int, bool, int]]) -> dict[int, Expected]:
    stats: dict[int, Expected] = {}
    for winner, loser, forfeit, conceded in history:
        w, lost = stats.setdefault(winner, Expected()), stats.setdefault(loser, Expected())
        w.played += 1
        w.won += 1
        w.current += 1
        w.best = max(w.best, w.current)
        lost.played += 1
        lost.current = 0
        if forfeit:
            lost.forfeits += 1
        else:
            lost.points += conceded
            w.rounds_won += 1
    return stats


def ranked(stats: dict[int, Expected], min_played: int) -> list[tuple[int, int]]:
    """(place, user) in board order, ties sharing a place (1, 2, 2, 4)."""

    def key(uid: int) -> tuple[float, ...]:
        s = stats[uid]
        rate = s.won / s.played if s.played >= min_played else -1.0
        return (-s.won, -rate, s.played)

    order = sorted(stats, key=lambda uid: (key(uid), uid))
    places: list[tuple[int, int]] = []
    for i, uid in enumerate(order):
        same = i and key(order[i - 1]) == key(uid)
        places.append((places[-1][0] if same else i + 1, uid))
    return places


async def check(path: Path, history: list[tuple[int, int, bool, int]], min_played: int) -> None:
    async with Database.open(path) as db:
        clock = Clock()
        for winner, loser, forfeit, conceded in history:
            outcomes: dict[int, Outcome] = {winner: "won", loser: "forfeit" if forfeit else "lost"}
            rounds = [] if forfeit else [(winner, {loser: conceded})]
            await play(db, clock, players=[winner, loser], rounds=rounds, outcomes=outcomes)
        expected = model(history)
        board = await db.scores.leaderboard(
            guild_id=GUILD, variant="duo", min_played=min_played, page_size=10
        )
        assert [(e.place, e.stats.user_id) for e in board.entries] == ranked(expected, min_played)
        for entry in board.entries:
            s, want = entry.stats, expected[entry.stats.user_id]
            got = (s.played, s.won, s.forfeits, s.points, s.rounds_won, s.current_streak)
            assert got == (
                want.played, want.won, want.forfeits, want.points, want.rounds_won, want.current
            )  # fmt: skip
            assert s.best_streak == want.best
            assert s.lost == s.played - s.won


@given(history=matches, min_played=st.integers(min_value=1, max_value=4))
def test_board_matches_the_model(
    history: list[tuple[int, int, bool, int]], min_played: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(check(Path(folder) / "uno.db", history, min_played))
