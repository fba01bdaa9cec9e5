"""Skill ratings: updated with each result, ranked by mu - 3 sigma, forgotten with the member."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from db.database import Database
from db.errors import InvalidResults, StorageError
from db.models import PlayerResult, Rating, RoundResult, Variant
from db.skill import DEFAULT_MU, DEFAULT_SIGMA, ranks_of, rate, replay_ratings

from .conftest import GUILD, Clock, play, start, win

A, B, C, D = 1, 2, 3, 4
OTHER_GUILD = GUILD + 1


async def rating_of(db: Database, user_id: int, variant: Variant = "duo") -> Rating:
    rating = await db.ratings.rating(guild_id=GUILD, user_id=user_id, variant=variant)
    assert rating is not None
    return rating


def count(path: Path, sql: str) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute(sql).fetchone()[0])


async def test_the_winner_rates_above_the_loser(db: Database) -> None:
    await win(db, Clock(), A, B)
    a, b = await rating_of(db, A), await rating_of(db, B)
    assert a.mu > DEFAULT_MU > b.mu
    assert a.sigma == b.sigma < DEFAULT_SIGMA  # one match taught as much about each
    assert a.conservative > b.conservative
    assert (a.matches, b.matches) == (1, 1)
    assert await db.ratings.rating(guild_id=GUILD, user_id=C, variant="duo") is None
    # Stored to the bit: the write goes through JSON text, which must not round.
    [(mu_a, sigma_a), (mu_b, sigma_b)] = rate([(DEFAULT_MU, DEFAULT_SIGMA)] * 2, [1, 2])
    assert (a.mu, a.sigma, b.mu, b.sigma) == (mu_a, sigma_a, mu_b, sigma_b)


async def test_a_match_ended_by_record_action_is_rated_too(db: Database) -> None:
    """The group-commit path (the bot's own) rates in the transaction of the result."""
    mid = await start(db, A, B)
    await db.tables.record_action(
        mid, seq=1, player_id=A, action={}, state="{}", deadline=None,
        round_result=RoundResult(round_no=1, winner_id=A, points={B: 210}),
        results=[
            PlayerResult(user_id=A, score=0, place=1, outcome="won"),
            PlayerResult(user_id=B, score=210, place=2, outcome="lost"),
        ],
    )  # fmt: skip
    assert (await rating_of(db, A)).mu > (await rating_of(db, B)).mu
    [change] = await db.ratings.history(guild_id=GUILD, user_id=A, variant="duo")
    assert change.match_id == mid


async def test_a_rating_is_never_stored_without_its_result(db: Database, db_path: Path) -> None:
    mid = await start(db, A, B)
    with pytest.raises(InvalidResults):  # scores differ from the (absent) round points
        await db.tables.finish_match(
            mid,
            [
                PlayerResult(user_id=A, score=0, place=1, outcome="won"),
                PlayerResult(user_id=B, score=200, place=2, outcome="lost"),
            ],
        )
    assert count(db_path, "SELECT COUNT(*) FROM ratings") == 0


async def test_a_failing_rating_write_stores_no_result(db: Database, db_path: Path) -> None:
    """One transaction: if the rating change cannot be written, the result is not either."""
    mid = await start(db, A, B)
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "CREATE TRIGGER no_changes BEFORE INSERT ON rating_changes"
            " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
    with pytest.raises(StorageError, match="refused by the test"):
        await db.tables.finish_match(
            mid,
            [
                PlayerResult(user_id=A, score=0, place=1, outcome="won"),
                PlayerResult(user_id=B, score=0, place=2, outcome="lost"),
            ],
        )
    assert count(db_path, "SELECT COUNT(*) FROM results") == 0
    assert count(db_path, "SELECT COUNT(*) FROM ratings") == 0
    assert (await db.tables.get_match(mid)).status == "running"


def test_x3_ranks_put_a_leaver_last_whatever_place_they_were_given() -> None:
    assert ranks_of([(1, "won"), (2, "forfeit"), (3, "lost")]) == [1, 3, 2]
    assert ranks_of([(1, "won"), (2, "lost"), (2, "lost"), (4, "forfeit")]) == [1, 2, 2, 3]
    assert ranks_of([(1, "won"), (2, "forfeit")]) == [1, 2]


async def test_x3_a_leaver_rates_below_the_players_who_stayed(db: Database) -> None:
    clock = Clock()
    mid = await start(db, A, B, C, variant="pizza")
    await db.tables.record_round(mid, RoundResult(round_no=1, winner_id=A, points={A: 260}))
    # B left; even given place 2 (above C), the leaver ranks last.
    await db.tables.finish_match(
        mid,
        [
            PlayerResult(user_id=A, score=260, place=1, outcome="won"),
            PlayerResult(user_id=B, score=0, place=2, outcome="forfeit"),
            PlayerResult(user_id=C, score=0, place=3, outcome="lost"),
        ],
        ended_at=clock.next(),
    )
    a, b, c = [await rating_of(db, u, "pizza") for u in (A, B, C)]
    assert a.mu > c.mu > b.mu


async def test_the_board_ranks_by_mu_minus_3_sigma_not_mu(db: Database) -> None:
    """X won all 5 of their matches (high mu, still uncertain); Y won 20 of 30 (lower
    mu, well known). mu alone would put X first; the conservative estimate puts Y."""
    clock = Clock()
    x, y = 10, 20
    for n in range(5):
        await win(db, clock, x, 100 + n)
    for n in range(30):
        if n % 3 == 2:
            await win(db, clock, 200 + n, y)
        else:
            await win(db, clock, y, 200 + n)
    rx, ry = await rating_of(db, x), await rating_of(db, y)
    assert rx.mu > ry.mu
    assert ry.conservative > rx.conservative
    board = await db.ratings.leaderboard(guild_id=GUILD, variant="duo")
    assert [e.user_id for e in board.entries] == [y, x]  # the 35 opponents played once each
    top = board.entries[0]
    assert (top.place, top.played, top.won) == (1, 30, 20)
    assert (top.mu, top.sigma) == (ry.mu, ry.sigma)
    assert top.conservative == pytest.approx(ry.conservative)
    assert top.points == 10 * 200  # conceded in the 10 matches y lost (D14)


async def test_the_board_needs_5_matches(db: Database) -> None:
    clock = Clock()
    for _ in range(4):
        await win(db, clock, A, B)
    board = await db.ratings.leaderboard(guild_id=GUILD, variant="duo")
    assert (board.total, board.entries, board.pages, board.min_played) == (0, [], 1, 5)
    await win(db, clock, B, A)
    board = await db.ratings.leaderboard(guild_id=GUILD, variant="duo")
    assert [(e.place, e.user_id, e.played, e.won) for e in board.entries] == [
        (1, A, 5, 4),
        (2, B, 5, 1),
    ]
    await win(db, clock, C, D)
    loose = await db.ratings.leaderboard(guild_id=GUILD, variant="duo", min_played=1)
    assert {e.user_id for e in loose.entries} == {A, B, C, D}


async def test_board_paging_and_ties(db: Database) -> None:
    clock = Clock()
    # Three pairs with the same record: equal ratings share a place.
    for winner, loser in ((A, B), (C, D), (5, 6)):
        for _ in range(5):
            await win(db, clock, winner, loser)
    page1 = await db.ratings.leaderboard(guild_id=GUILD, variant="duo", page_size=4)
    assert [(e.place, e.user_id) for e in page1.entries] == [(1, A), (1, C), (1, 5), (4, B)]
    page2 = await db.ratings.leaderboard(guild_id=GUILD, variant="duo", page=2, page_size=4)
    assert [(e.place, e.user_id) for e in page2.entries] == [(4, D), (4, 6)]
    assert (page2.total, page2.pages) == (6, 2)
    beyond = await db.ratings.leaderboard(guild_id=GUILD, variant="duo", page=9, page_size=4)
    assert (beyond.entries, beyond.total) == ([], 6)
    with pytest.raises(ValueError, match="start at 1"):
        await db.ratings.leaderboard(guild_id=GUILD, variant="duo", page=0)
    with pytest.raises(ValueError, match="beyond any leaderboard"):
        await db.ratings.leaderboard(guild_id=GUILD, variant="duo", page=2**62, page_size=4)


async def test_ratings_are_per_guild_and_variant(db: Database) -> None:
    clock = Clock()
    await win(db, clock, A, B)
    await play(
        db, clock, players=[A, B], rounds=[(B, {B: 250})], outcomes={A: "lost", B: "won"},
        variant="pizza",
    )  # fmt: skip
    await play(
        db, clock, players=[A, B], rounds=[(A, {B: 200})], outcomes={A: "won", B: "lost"},
        guild_id=OTHER_GUILD,
    )  # fmt: skip
    assert (await rating_of(db, A, "duo")).mu > DEFAULT_MU
    assert (await rating_of(db, A, "pizza")).mu < DEFAULT_MU
    other = await db.ratings.rating(guild_id=OTHER_GUILD, user_id=A, variant="duo")
    assert other is not None
    assert other.matches == 1
    assert (await rating_of(db, A, "duo")).matches == 1


async def test_classic_matches_are_stored_and_rated(db: Database) -> None:
    players = list(range(1, 11))  # C: 2 to 10 players
    await play(
        db, Clock(), players=players, variant="classic",
        rounds=[(1, {1: 520})], outcomes={p: "won" if p == 1 else "lost" for p in players},
    )  # fmt: skip
    assert (await rating_of(db, 1, "classic")).mu > (await rating_of(db, 2, "classic")).mu
    with pytest.raises(ValueError, match="2-10 players"):
        await start(db, *range(20, 31), variant="classic")


async def test_practice_moves_no_rating_and_no_board(db: Database) -> None:
    clock = Clock()
    for _ in range(5):
        mid = await play(
            db, clock, players=[A, B], rounds=[(A, {B: 200})], outcomes={A: "won", B: "lost"},
            practice=True,
        )  # fmt: skip
    match = await db.tables.get_match(mid)
    assert (match.practice, match.status) == (True, "finished")  # recorded all the same
    assert await db.ratings.rating(guild_id=GUILD, user_id=A, variant="duo") is None
    assert (await db.ratings.leaderboard(guild_id=GUILD, variant="duo", min_played=1)).total == 0
    assert (await db.scores.leaderboard(guild_id=GUILD, variant="duo")).total == 0
    assert await db.scores.member_stats(guild_id=GUILD, user_id=A, variant="duo") is None
    # A rated match afterwards counts alone.
    await win(db, clock, A, B)
    assert (await rating_of(db, A)).matches == 1
    board = await db.ratings.leaderboard(guild_id=GUILD, variant="duo", min_played=1)
    assert [(e.user_id, e.played, e.won) for e in board.entries] == [(A, 1, 1), (B, 1, 0)]


async def test_history_gives_the_last_20_changes_oldest_first(db: Database) -> None:
    clock = Clock()
    mids = [await win(db, clock, A, B) if n % 4 else await win(db, clock, B, A) for n in range(23)]
    history = await db.ratings.history(guild_id=GUILD, user_id=A, variant="duo")
    assert [h.match_id for h in history] == mids[-20:]
    for earlier, later in itertools.pairwise(history):
        assert (later.mu_before, later.sigma_before) == (earlier.mu_after, earlier.sigma_after)
        assert later.ended_at > earlier.ended_at
    current = await rating_of(db, A)
    assert (history[-1].mu_after, history[-1].sigma_after) == (current.mu, current.sigma)
    assert history[-1].conservative_after == pytest.approx(current.conservative)
    assert len(await db.ratings.history(guild_id=GUILD, user_id=A, variant="duo", limit=3)) == 3
    assert await db.ratings.history(guild_id=GUILD, user_id=A, variant="pizza") == []


async def test_forgetting_a_member_erases_their_ratings_and_prefs(
    db: Database, db_path: Path
) -> None:
    clock = Clock()
    await win(db, clock, A, B)
    await play(
        db, clock, players=[A, B], rounds=[(A, {B: 200})], outcomes={A: "won", B: "lost"},
        guild_id=OTHER_GUILD,
    )  # fmt: skip
    await db.prefs.update(A, pings=False)
    b_before = await rating_of(db, B)

    await db.scores.forget_member(A, guild_id=OTHER_GUILD)
    assert await db.ratings.rating(guild_id=OTHER_GUILD, user_id=A, variant="duo") is None
    assert await rating_of(db, A)  # still rated in the other guild
    assert (await db.prefs.get(A)).pings is False  # a preference belongs to no guild

    await db.scores.forget_member(A)
    assert await db.ratings.rating(guild_id=GUILD, user_id=A, variant="duo") is None
    assert await db.ratings.history(guild_id=GUILD, user_id=A, variant="duo") == []
    assert count(db_path, f"SELECT COUNT(*) FROM ratings WHERE user_id = {A}") == 0
    assert count(db_path, "SELECT COUNT(*) FROM rating_changes WHERE user_id < 0") == 0
    assert count(db_path, f"SELECT COUNT(*) FROM member_prefs WHERE user_id = {A}") == 0
    assert (await db.prefs.get(A)).pings is True
    # The other member keeps their rating and its history.
    assert await rating_of(db, B) == b_before
    assert len(await db.ratings.history(guild_id=GUILD, user_id=B, variant="duo")) == 1


async def test_record_action_rates_to_the_bit_as_the_replay_does(
    db: Database, db_path: Path, tmp_path: Path
) -> None:
    """A match's end reads the ratings with its checks and builds the update from them,
    not from the stored rows: the replay of the stored results must give the same."""
    for n in range(3):  # the later matches start from stored, not default, ratings
        mid = await start(db, A, B, C, D, variant="pizza")
        first = RoundResult(round_no=1, winner_id=B, points={B: 120})
        await db.tables.record_action(
            mid, seq=1, player_id=A, action={}, state="{}", deadline=None, round_result=first
        )
        await db.tables.record_action(
            mid, seq=2, player_id=C, action={}, state="{}", deadline=None,
            round_result=RoundResult(round_no=2, winner_id=C, points={C: 140 + n}),
            results=[
                PlayerResult(user_id=C, score=140 + n, place=1, outcome="won"),
                PlayerResult(user_id=B, score=120, place=2, outcome="lost"),
                PlayerResult(user_id=D, score=0, place=3, outcome="lost"),
                PlayerResult(user_id=A, score=0, place=3 - n % 2, outcome="forfeit"),
            ],
        )  # fmt: skip
    sql = "SELECT * FROM rating_changes ORDER BY change_id"
    with sqlite3.connect(db_path) as conn:
        live = conn.execute(sql).fetchall()
        ratings = conn.execute("SELECT * FROM ratings ORDER BY user_id").fetchall()
    assert len(live) == 12
    copy = tmp_path / "copy.db"
    with sqlite3.connect(db_path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    async with aiosqlite.connect(copy, isolation_level=None) as conn:
        await replay_ratings(conn)
        assert list(await conn.execute_fetchall(sql)) == live
        # updated_at is the match's end in both
        replayed = await conn.execute_fetchall("SELECT * FROM ratings ORDER BY user_id")
        assert list(replayed) == ratings
