"""Scoreboards: Duo and Pizza results, streaks, forfeits, leaderboard order and paging."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from db.database import Database
from db.errors import MemberPlaying
from db.models import FORGOTTEN_NAME, PlayerResult, PlayerStats, Seat, Variant

from .conftest import GUILD, Clock, play, start, win

A, B, C, D, E, F, G, Z = 1, 2, 3, 4, 5, 6, 7, 99


async def stats_of(db: Database, user_id: int, variant: Variant = "duo") -> PlayerStats:
    member = await db.scores.member_stats(
        guild_id=GUILD,
        user_id=user_id,
        variant=variant,
    )
    assert member is not None
    return member.stats


async def test_d14_duo_lower_total_wins_and_points_are_conceded(db: Database) -> None:
    clock = Clock()
    # A goes out twice (B concedes 150 then 60), B once (A concedes 30): B reaches
    # 210 >= 200, so B loses and A, with the lower total, wins (D14).
    await play(
        db, clock,
        players=[A, B],
        rounds=[(A, {B: 150}), (B, {A: 30}), (A, {B: 60})],
        outcomes={A: "won", B: "lost"},
    )  # fmt: skip
    a, b = await stats_of(db, A), await stats_of(db, B)
    assert (a.played, a.won, a.lost, a.win_rate, a.rounds_won, a.points) == (1, 1, 0, 1.0, 2, 30)
    assert (b.played, b.won, b.lost, b.win_rate, b.rounds_won, b.points) == (1, 0, 1, 0.0, 1, 210)
    member = await db.scores.member_stats(guild_id=GUILD, user_id=B, variant="duo")
    assert member is not None
    [recent] = member.recent
    assert (recent.outcome, recent.score, recent.place) == ("lost", 210, 2)
    assert [s.user_id for s in recent.opponents] == [A]


async def test_p11_pizza_first_to_target_wins_and_points_are_scored(db: Database) -> None:
    clock = Clock()
    await play(
        db, clock,
        variant="pizza",
        players=[A, B, C],
        rounds=[(B, {B: 120}), (A, {A: 90}), (B, {B: 140})],
        outcomes={A: "lost", B: "won", C: "lost"},
    )  # fmt: skip
    a, b, c = [await stats_of(db, u, "pizza") for u in (A, B, C)]
    assert (b.won, b.rounds_won, b.points, b.current_streak) == (1, 2, 260, 1)
    assert (a.won, a.rounds_won, a.points) == (0, 1, 90)
    assert (c.won, c.rounds_won, c.points, c.played) == (0, 0, 0, 1)
    member = await db.scores.member_stats(guild_id=GUILD, user_id=C, variant="pizza")
    assert member is not None
    assert member.recent[0].place == 3
    # Variants keep separate boards.
    assert await db.scores.member_stats(guild_id=GUILD, user_id=B, variant="duo") is None
    board = await db.scores.leaderboard(guild_id=GUILD, variant="duo")
    assert board.total == 0
    assert board.pages == 1


async def test_x3_forfeit_is_a_loss_for_the_leaver(db: Database) -> None:
    clock = Clock()
    await win(db, clock, A, B, forfeit=True)
    a, b = await stats_of(db, A), await stats_of(db, B)
    assert (a.won, a.played, a.current_streak) == (1, 1, 1)
    assert (b.won, b.lost, b.forfeits, b.played, b.win_rate) == (0, 1, 1, 1, 0.0)
    # An unfinished round is not scored (X3): nothing was recorded, and both totals are 0.
    assert (a.points, b.points, a.rounds_won) == (0, 0, 0)


async def test_pizza_forfeit_mid_match_keeps_earlier_rounds(db: Database) -> None:
    clock = Clock()
    await play(
        db, clock,
        variant="pizza",
        players=[A, B, C],
        rounds=[(C, {C: 80})],
        outcomes={A: "won", B: "forfeit", C: "forfeit"},
    )  # fmt: skip
    c = await stats_of(db, C, "pizza")
    assert (c.forfeits, c.lost, c.points, c.rounds_won) == (1, 1, 80, 1)


async def test_streaks_current_and_best(db: Database) -> None:
    clock = Clock()
    # A: W W L W W W F(orfeit) W  -> best 3, current 1; B mirrors it.
    for a_wins, forfeit in [
        (True, False), (True, False), (False, False), (True, False),
        (True, False), (True, False), (False, True), (True, False),
    ]:  # fmt: skip
        if a_wins:
            await win(db, clock, A, B)
        else:
            await win(db, clock, B, A, forfeit=forfeit)
    a, b = await stats_of(db, A), await stats_of(db, B)
    assert (a.played, a.won, a.lost, a.forfeits) == (8, 6, 2, 1)
    assert (a.best_streak, a.current_streak) == (3, 1)
    assert (b.best_streak, b.current_streak) == (1, 0)
    assert a.win_rate == pytest.approx(6 / 8)
    assert a.rounds_won == 6  # forfeit wins had no round


async def test_streak_order_follows_end_time_not_insertion(db: Database) -> None:
    clock = Clock()
    late = await win(db, clock, A, B)  # ended at minute 1
    clock.n = -10  # the next matches ended earlier
    await win(db, clock, B, A)
    await win(db, clock, B, A)
    a = await stats_of(db, A)
    assert (a.current_streak, a.best_streak) == (1, 1)
    member = await db.scores.member_stats(guild_id=GUILD, user_id=A, variant="duo", recent=2)
    assert member is not None
    assert member.recent[0].match_id == late
    assert len(member.recent) == 2


async def build_board(db: Database) -> None:
    """Wins / played: A 6/6, B 4/4, C 4/8, D 4/8, E 4/5, F 4/4, G 2/2; Z loses or wins the rest."""
    clock = Clock()
    record = {A: (6, 6), B: (4, 4), C: (4, 8), D: (4, 8), E: (4, 5), F: (4, 4), G: (2, 2)}
    for player, (wins, played) in record.items():
        for n in range(played):
            if n < wins:
                await win(db, clock, player, Z)
            else:
                await win(db, clock, Z, player)


async def test_leaderboard_order_ties_and_paging(db: Database) -> None:
    await build_board(db)
    board = await db.scores.leaderboard(guild_id=GUILD, variant="duo", page_size=100)
    placed = [(e.place, e.stats.user_id) for e in board.entries]
    # Z: 9 wins. Then 6 wins. Then 4 wins: E (0.8) before C = D (0.5, tied), the
    # members under 5 matches after them, fewer matches first (B = F tied at 4).
    assert placed == [(1, Z), (2, A), (3, E), (4, C), (4, D), (6, B), (6, F), (8, G)]
    assert board.total == 8

    page1 = await db.scores.leaderboard(guild_id=GUILD, variant="duo", page=1, page_size=3)
    page3 = await db.scores.leaderboard(guild_id=GUILD, variant="duo", page=3, page_size=3)
    page4 = await db.scores.leaderboard(guild_id=GUILD, variant="duo", page=4, page_size=3)
    assert [e.stats.user_id for e in page1.entries] == [Z, A, E]
    assert [(e.place, e.stats.user_id) for e in page3.entries] == [(6, F), (8, G)]
    assert (page1.total, page1.pages, page4.pages, page4.entries) == (8, 3, 3, [])
    assert page3.entries[0].stats.display_name == f"player{F}"


async def test_leaderboard_page_beyond_any_offset_is_a_value_error(db: Database) -> None:
    # (page - 1) * page_size past int64 cannot be bound as an OFFSET: a bad argument.
    with pytest.raises(ValueError, match="page"):
        await db.scores.leaderboard(guild_id=GUILD, variant="duo", page=10**18, page_size=10)
    far = await db.scores.leaderboard(guild_id=GUILD, variant="duo", page=10**17, page_size=10)
    assert far.entries == []


async def test_leaderboard_min_played_changes_who_counts_win_rate(db: Database) -> None:
    await build_board(db)
    board = await db.scores.leaderboard(guild_id=GUILD, variant="duo", min_played=1)
    placed = [(e.place, e.stats.user_id) for e in board.entries]
    # Everybody's rate counts now: B and F (4/4) lead the 4-win group.
    assert placed == [(1, Z), (2, A), (3, B), (3, F), (5, E), (6, C), (6, D), (8, G)]


async def test_leaderboard_is_per_guild(db: Database) -> None:
    clock = Clock()
    await win(db, clock, A, B)
    other = await db.scores.leaderboard(guild_id=GUILD + 1, variant="duo")
    assert (other.total, other.entries) == (0, [])


async def test_running_and_abandoned_matches_do_not_count(db: Database) -> None:
    clock = Clock()
    await win(db, clock, A, B)
    await start(db, A, B)
    abandoned = await start(db, A, B)
    await db.tables.abandon_match(abandoned)
    assert (await stats_of(db, A)).played == 1


async def test_leaderboard_rejects_bad_pages(db: Database) -> None:
    with pytest.raises(ValueError, match="start at 1"):
        await db.scores.leaderboard(guild_id=GUILD, variant="duo", page=0)


async def test_forget_member_keeps_others_history(db: Database, db_path: Path) -> None:
    clock = Clock()
    m1 = await play(
        db, clock, players=[A, B], rounds=[(A, {B: 120}), (B, {A: 40}), (A, {B: 90})],
        outcomes={A: "won", B: "lost"},
    )  # fmt: skip
    await win(db, clock, B, A)
    await win(db, clock, B, C)
    b_before = await stats_of(db, B)

    assert await db.scores.forget_member(A) == 2

    assert await db.scores.member_stats(guild_id=GUILD, user_id=A, variant="duo") is None
    assert await stats_of(db, B) == b_before  # B's record is untouched
    board = await db.scores.leaderboard(guild_id=GUILD, variant="duo", min_played=1)
    assert {e.stats.user_id for e in board.entries} == {B, C}
    match = await db.tables.get_match(m1)
    assert [s.display_name for s in match.players] == [FORGOTTEN_NAME, f"player{B}"]
    assert all(s.user_id != A for s in match.players)
    member = await db.scores.member_stats(guild_id=GUILD, user_id=B, variant="duo")
    assert member is not None
    assert {s.display_name for r in member.recent for s in r.opponents} == {
        FORGOTTEN_NAME,
        f"player{C}",
    }
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        for table, column in [
            ("match_players", "user_id"), ("results", "user_id"), ("round_scores", "user_id"),
            ("rounds", "winner_id"), ("actions", "player_id"),
        ]:  # fmt: skip
            hits = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (A,))
            assert hits.fetchone() == (0,), table
        # A opened m1 (the host is the first seat): the stored options no longer name them.
        options = conn.execute("SELECT options FROM matches WHERE match_id = ?", (m1,))
        assert json.loads(options.fetchone()[0])["host_id"] == -1
        # Every match still has all its results and round scores.
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone() == (6,)
        assert conn.execute(
            "SELECT COUNT(*) FROM round_scores WHERE match_id = ?", (m1,)
        ).fetchone() == (6,)


async def test_forget_member_in_one_guild_only(db: Database) -> None:
    clock = Clock()
    await win(db, clock, A, B)
    await play(
        db, clock, players=[A, B], rounds=[], outcomes={A: "won", B: "forfeit"},
        guild_id=GUILD + 1,
    )  # fmt: skip
    assert await db.scores.forget_member(A, guild_id=GUILD) == 1
    assert await db.scores.member_stats(guild_id=GUILD, user_id=A, variant="duo") is None
    other = await db.scores.member_stats(guild_id=GUILD + 1, user_id=A, variant="duo")
    assert other is not None
    assert other.stats.won == 1


async def test_forget_member_refused_while_playing(db: Database) -> None:
    clock = Clock()
    await win(db, clock, A, B)
    await start(db, A, C)
    with pytest.raises(MemberPlaying):
        await db.scores.forget_member(A)
    assert (await stats_of(db, A)).played == 1  # nothing changed
    assert await db.scores.forget_member(A, guild_id=GUILD + 1) == 0


async def test_board_shows_the_latest_name_history_keeps_the_old_one(db: Database) -> None:
    clock = Clock()
    first = await win(db, clock, A, B)
    mid = await db.tables.start_match(
        guild_id=GUILD, channel_id=1, variant="duo", options={}, seed=1,
        players=[Seat(user_id=A, display_name="Ann v2"), Seat(user_id=B, display_name="Bob")],
        state="{}",
    )  # fmt: skip
    await db.tables.finish_match(
        mid,
        [
            PlayerResult(user_id=B, score=0, place=1, outcome="won"),
            PlayerResult(user_id=A, score=0, place=2, outcome="forfeit"),
        ],
        ended_at=clock.next(),
    )
    board = await db.scores.leaderboard(guild_id=GUILD, variant="duo")
    assert {e.stats.user_id: e.stats.display_name for e in board.entries} == {A: "Ann v2", B: "Bob"}
    assert (await db.tables.get_match(first)).players[0].display_name == f"player{A}"


async def test_practice_record_counts_practice_matches_only(db: Database) -> None:
    clock = Clock()
    for winner, loser in [(A, B), (B, A), (A, B)]:
        await play(
            db, clock, players=[A, B], rounds=[(winner, {loser: 200})],
            outcomes={winner: "won", loser: "lost"}, practice=True,
        )  # fmt: skip
    await play(
        db, clock, players=[A, B], rounds=[(A, {B: 200})], outcomes={A: "won", B: "lost"}
    )  # a rated match: not practice
    running = await start(db, A, B, practice=True)  # unfinished: not counted
    assert running
    assert await db.scores.practice_record(guild_id=GUILD, user_id=A) == (2, 3)
    assert await db.scores.practice_record(guild_id=GUILD, user_id=B) == (1, 3)
    assert await db.scores.practice_record(guild_id=GUILD + 1, user_id=A) == (0, 0)
