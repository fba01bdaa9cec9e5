"""cogs/uno/boards/embeds.py: the leaderboard and /uno stats read as a member expects."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from cogs.uno.boards import embeds as boards
from db.models import (
    LeaderboardEntry,
    LeaderboardPage,
    MemberStats,
    Outcome,
    PlayerStats,
    RecentMatch,
    Seat,
    Variant,
)

ENDED = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
DAY = f"<t:{int(ENDED.timestamp())}:d>"


def player(name: str = "alice", variant: Variant = "duo", **counts: Any) -> PlayerStats:
    values: dict[str, Any] = {
        "played": 2,
        "won": 2,
        "lost": 0,
        "forfeits": 0,
        "win_rate": 1.0,
        "rounds_won": 2,
        "points": 2,
        "current_streak": 2,
        "best_streak": 2,
    }
    return PlayerStats(user_id=1, display_name=name, variant=variant, **{**values, **counts})


def recent(outcome: Outcome, *, score: int, opponents: list[str], place: int = 2) -> RecentMatch:
    return RecentMatch(
        match_id=1,
        ended_at=ENDED,
        outcome=outcome,
        score=score,
        place=place,
        opponents=[Seat(user_id=i, display_name=n) for i, n in enumerate(opponents, start=2)],
    )


def board(*names: str, total: int | None = None, page: int = 1) -> LeaderboardPage:
    entries = [LeaderboardEntry(place=i, stats=player(n)) for i, n in enumerate(names, start=1)]
    return LeaderboardPage(
        variant="duo",
        page=page,
        page_size=10,
        total=len(names) if total is None else total,
        entries=entries,
    )


def field_lines(embed: discord.Embed, index: int = 0) -> list[str]:
    return (embed.fields[index].value or "").splitlines()


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


# ---------------------------------------------------------------- counts in words


def test_stats_counts_of_one_are_singular() -> None:
    one = player(played=1, won=0, lost=1, forfeits=1, win_rate=0.0, rounds_won=1, points=1)
    record = MemberStats(stats=one, recent=[recent("lost", score=1, opponents=["bob"])])
    lines = field_lines(boards.stats("alice", {"duo": record}))
    assert lines[:2] == [
        "1 played · 0 won · 1 lost (1 forfeit) · 0% won",
        "1 round won · 1 point conceded",
    ]
    assert lines[3] == f"• {DAY} lost vs bob (1 pt, place 2)"


def test_stats_other_counts_stay_plural() -> None:
    many = player(variant="pizza", played=3, won=1, lost=2, win_rate=1 / 3, rounds_won=0, points=0)
    record = MemberStats(stats=many, recent=[recent("lost", score=0, opponents=["bob"])])
    lines = field_lines(boards.stats("alice", {"pizza": record}))
    assert lines[:2] == [
        "3 played · 1 won · 2 lost (0 forfeits) · 33% won",
        "0 rounds won · 0 points scored",
    ]
    assert lines[3] == f"• {DAY} lost vs bob (0 pts, place 2)"


def test_recent_outcomes_read_as_words() -> None:
    matches = [
        recent("won", score=12, opponents=["bob"], place=1),
        recent("lost", score=200, opponents=["bob", "carol"]),
        recent("forfeit", score=0, opponents=["bob"]),
    ]
    record = MemberStats(stats=player(), recent=matches)
    assert field_lines(boards.stats("alice", {"duo": record}))[3:] == [
        f"• {DAY} won vs bob (12 pts, place 1)",
        f"• {DAY} lost vs bob, carol (200 pts, place 2)",
        f"• {DAY} forfeited vs bob (0 pts, place 2)",
    ]


def test_leaderboard_footer_and_points_count_one_player_in_the_singular() -> None:
    embed, _ = boards.leaderboard(board("alice"), guild_name="Uno Club")
    assert embed.footer.text == "Page 1 of 1 · 1 player"
    single = LeaderboardPage(
        variant="duo",
        page=1,
        page_size=10,
        total=1,
        entries=[LeaderboardEntry(place=1, stats=player(points=1, won=1, played=1))],
    )
    line = (boards.leaderboard(single, guild_name="")[0].description or "").splitlines()[0]
    assert line.endswith("— 1 won of 1 (100%), streak 2 (best 2), 1 point conceded")


def test_leaderboard_footer_keeps_zero_and_many_players_plural() -> None:
    empty, _ = boards.leaderboard(board(), guild_name="")
    assert empty.footer.text == "Page 1 of 1 · 0 players"
    full, _ = boards.leaderboard(board("alice", "bob", total=23), guild_name="")
    assert full.footer.text == "Page 1 of 3 · 23 players"
