"""Scoreboards and member stats, computed by SQL over match results; forgetting members."""

from __future__ import annotations

import json
from functools import partial
from typing import TYPE_CHECKING, Any

from db.errors import MemberPlaying, wraps_storage_errors
from db.history import forget_in_logs
from db.models import (
    FORGOTTEN_NAME,
    LeaderboardEntry,
    LeaderboardPage,
    MemberStats,
    PlayerStats,
    RecentMatch,
    Seat,
    Variant,
    from_ms,
)
from db.tx import latest

if TYPE_CHECKING:
    from db.access import Access
    from db.tx import Tx

# Why computed on read rather than kept in aggregate rows: results are the one
# source of truth, so a forgotten member, a result entered late (out of end
# order, which would break incremental streaks) or a new statistic needs no
# back-fill and can never drift. Boards are read on a command, not on every
# action, from the reader connection (never blocking writes): measured ~15 ms
# for 1,000 matches of one guild and variant, 100-200 ms for 8,000 on this
# shared 2-core machine. Past that, maintained aggregate rows would be next.
#
# Streaks: `grp` counts the non-wins up to each match (in end order), so a run
# of wins shares one grp; its length is SUM(won) over the grp. The best streak
# is the longest run, the current one the run of the member's highest grp.
# One window pass only: each extra window costs as much as the rest together.
# `last_run` and `names` take a value from each member's latest row (`latest`).
# Forgotten members carry negative placeholder ids and are left out; practice
# matches (against the computer) count in no board.
_STATS_CTE = """
WITH res AS MATERIALIZED (
    SELECT r.user_id, r.outcome, r.score, m.match_id, m.ended_at, p.display_name
    FROM matches AS m
    JOIN results AS r ON r.match_id = m.match_id
    JOIN match_players AS p ON p.match_id = r.match_id AND p.user_id = r.user_id
    WHERE m.guild_id = :guild AND m.variant = :variant AND m.status = 'finished'
      AND m.practice = 0 AND r.user_id >= 0 {user_filter}
),
runs AS MATERIALIZED (
    SELECT user_id, grp, SUM(won) AS run
    FROM (
        SELECT user_id, CASE WHEN outcome = 'won' THEN 1 ELSE 0 END AS won,
               SUM(CASE WHEN outcome = 'won' THEN 0 ELSE 1 END) OVER (
                   PARTITION BY user_id ORDER BY ended_at, match_id ROWS UNBOUNDED PRECEDING
               ) AS grp
        FROM res
    ) AS w
    GROUP BY user_id, grp
),
best AS (SELECT user_id, MAX(run) AS best FROM runs GROUP BY user_id),
last_run AS (SELECT user_id, {latest_run} AS current FROM runs GROUP BY user_id),
names AS (SELECT user_id, {latest_name} AS display_name FROM res GROUP BY user_id),
rounds_won AS (
    SELECT rd.winner_id AS user_id, COUNT(*) AS n
    FROM matches AS m JOIN rounds AS rd ON rd.match_id = m.match_id
    WHERE m.guild_id = :guild AND m.variant = :variant AND m.status = 'finished'
      AND m.practice = 0 AND rd.winner_id >= 0 {winner_filter}
    GROUP BY rd.winner_id
),
agg AS (
    SELECT user_id, COUNT(*) AS played, SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END) AS won,
           SUM(CASE WHEN outcome = 'won' THEN 0 ELSE 1 END) AS lost,
           SUM(CASE WHEN outcome = 'forfeit' THEN 1 ELSE 0 END) AS forfeits,
           SUM(score) AS points
    FROM res GROUP BY user_id
),
board AS (
    SELECT agg.user_id, n.display_name, agg.played, agg.won, agg.lost, agg.forfeits,
           CAST(agg.won AS DOUBLE PRECISION) / agg.played AS win_rate,
           COALESCE(rw.n, 0) AS rounds_won, agg.points, l.current, b.best,
           RANK() OVER (
               ORDER BY agg.won DESC,
                        CASE WHEN agg.played >= :min_played
                             THEN CAST(agg.won AS DOUBLE PRECISION) / agg.played
                             ELSE -1.0 END DESC,
                        agg.played ASC
           ) AS place,
           COUNT(*) OVER () AS total
    FROM agg
    JOIN best AS b ON b.user_id = agg.user_id
    JOIN last_run AS l ON l.user_id = agg.user_id
    JOIN names AS n ON n.user_id = agg.user_id
    LEFT JOIN rounds_won AS rw ON rw.user_id = agg.user_id
)
"""

_INT64_MAX = 2**63 - 1

_BOARD_COLUMNS = (
    "user_id, display_name, played, won, lost, forfeits, win_rate, rounds_won, points,"
    " current, best, place, total"
)


class ScoreRepo:
    """Per-guild, per-variant scoreboards and member stats; forgetting members."""

    def __init__(self, db: Access) -> None:
        self._db = db

    @wraps_storage_errors
    async def leaderboard(
        self,
        *,
        guild_id: int,
        variant: Variant,
        page: int = 1,
        page_size: int = 10,
        min_played: int = 5,
    ) -> LeaderboardPage:
        """Return one page of the board.

        Order: most wins; then higher win rate, counted only for members with at
        least `min_played` matches (the others rank after them); then fewer matches.
        Members equal on all three share a place (1, 2, 2, 4). Pages start at 1.
        """
        if page < 1 or page_size < 1:
            raise ValueError("page and page_size start at 1")
        if (page - 1) * page_size > _INT64_MAX:  # SQLite binds the OFFSET as an int64
            raise ValueError(f"page {page} is beyond any leaderboard")
        params = {"guild": guild_id, "variant": variant, "min_played": min_played}
        sql = self._stats_sql(user_filter="", winner_filter="")
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                sql + f"SELECT {_BOARD_COLUMNS} FROM board ORDER BY place, user_id"
                " LIMIT :limit OFFSET :offset",
                {**params, "limit": page_size, "offset": (page - 1) * page_size},
            )
            if rows:
                total = int(rows[0][-1])
            else:  # past the last page: count alone
                row = await conn.fetchone(sql + "SELECT COUNT(*) FROM board", params)
                total = int(row[0]) if row else 0
        entries = [
            LeaderboardEntry(place=row[-2], stats=_stats_from_row(row, variant)) for row in rows
        ]
        return LeaderboardPage(
            variant=variant, page=page, page_size=page_size, total=total, entries=entries
        )

    @wraps_storage_errors
    async def member_stats(
        self, *, guild_id: int, user_id: int, variant: Variant, recent: int = 5
    ) -> MemberStats | None:
        """Return a member's stats and last `recent` matches (None: no finished match)."""
        params = {"guild": guild_id, "variant": variant, "min_played": 0, "user": user_id}
        sql = self._stats_sql(
            user_filter="AND r.user_id = :user", winner_filter="AND rd.winner_id = :user"
        )
        async with self._db.reading() as conn:
            row = await conn.fetchone(sql + f"SELECT {_BOARD_COLUMNS} FROM board", params)
            if row is None:
                return None
            matches = await _recent_matches(conn, params, recent)
        return MemberStats(stats=_stats_from_row(row, variant), recent=matches)

    @wraps_storage_errors
    async def practice_record(self, *, guild_id: int, user_id: int) -> tuple[int, int]:
        """A member's finished practice matches (against the computer) in this guild,
        every variant: (won, played). Boards, stats and ratings leave these out."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(
                "SELECT COALESCE(SUM(CASE WHEN r.outcome = 'won' THEN 1 ELSE 0 END), 0), COUNT(*)"
                " FROM results AS r JOIN matches AS m ON m.match_id = r.match_id"
                " WHERE r.user_id = :user AND m.guild_id = :guild"
                " AND m.status = 'finished' AND m.practice = 1",
                {"user": user_id, "guild": guild_id},
            )
        return (int(row[0]), int(row[1])) if row else (0, 0)

    @wraps_storage_errors
    async def forget_member(self, user_id: int, guild_id: int | None = None) -> int:
        """Erase a member from finished history (in one guild, or everywhere).

        Their seats get a placeholder name and a negative placeholder id (unique
        within each match), which the foreign keys carry into rounds, results and
        the action log; their stats vanish, while other members' matches keep
        every row and stay consistent. Their ratings and rating history go too
        (in that guild, or everywhere); forgetting them everywhere also erases
        their preferences, which belong to no guild, and rematch offers naming
        them go. Other members' ratings stay as they are. Returns the number of matches touched.
        Raises MemberPlaying if they sit at a running table (remove them first).
        """
        return await self._db.run_in_transaction(partial(_forget, user_id, guild_id))

    def _stats_sql(self, *, user_filter: str, winner_filter: str) -> str:
        dialect = self._db.dialect
        return _STATS_CTE.format(
            user_filter=user_filter,
            winner_filter=winner_filter,
            latest_run=latest(dialect, "run", "grp"),
            latest_name=latest(dialect, "display_name", "ended_at"),
        )


async def _forget(user_id: int, guild_id: int | None, conn: Tx) -> int:
    scope = "m.guild_id = :guild" if guild_id is not None else "TRUE"
    params = {"user": user_id, "guild": guild_id, "name": FORGOTTEN_NAME}
    row = await conn.fetchone(
        "SELECT COUNT(*) FROM match_players AS p JOIN matches AS m USING (match_id)"
        f" WHERE p.user_id = :user AND m.status = 'running' AND {scope}",
        params,
    )
    if row and row[0]:
        raise MemberPlaying(f"user {user_id} is playing; remove them from the table first")
    rating_scope = "guild_id = :guild" if guild_id is not None else "TRUE"
    for table in ("rating_changes", "ratings"):
        await conn.run(f"DELETE FROM {table} WHERE user_id = :user AND {rating_scope}", params)
    if guild_id is None:
        await conn.run("DELETE FROM member_prefs WHERE user_id = :user", {"user": user_id})
    # A rematch offer names its players: one that names them goes.
    offers = await conn.fetchall(
        f"SELECT table_id, seats_json FROM rematch_offers WHERE {rating_scope}", params
    )
    naming = [(tid,) for tid, seats in offers if any(s[0] == user_id for s in json.loads(seats))]
    if naming:
        await conn.run_many("DELETE FROM rematch_offers WHERE table_id = ?", naming)
    await forget_in_logs(conn, scope, params)  # before their id changes
    await _forget_as_host(conn, scope, params)
    return await conn.run(
        "UPDATE match_players SET user_id = -(seat + 1), display_name = :name"
        " WHERE user_id = :user AND match_id IN"
        f" (SELECT match_id FROM matches AS m WHERE {scope})",
        params,
    )


async def _forget_as_host(conn: Tx, scope: str, params: dict[str, Any]) -> None:
    """A match's stored options name who opened it: a forgotten host is named as their
    seat will be, -(seat + 1), like everywhere else."""
    rows = await conn.fetchall(
        "SELECT m.match_id, m.options, p.seat FROM matches AS m"
        " JOIN match_players AS p ON p.match_id = m.match_id"
        f" WHERE p.user_id = :user AND {scope} AND m.options LIKE '%host_id%'",
        params,
    )
    for match_id, text, seat in rows:
        options = json.loads(text)
        if str(options.get("host_id")) == str(params["user"]):
            options["host_id"] = -(seat + 1)
            await conn.run(
                "UPDATE matches SET options = :options WHERE match_id = :id",
                {"options": json.dumps(options, separators=(",", ":")), "id": match_id},
            )


async def _recent_matches(conn: Tx, params: dict[str, Any], limit: int) -> list[RecentMatch]:
    rows = await conn.fetchall(
        "SELECT m.match_id, m.ended_at, r.outcome, r.score, r.place"
        " FROM results AS r JOIN matches AS m ON m.match_id = r.match_id"
        " WHERE r.user_id = :user AND m.guild_id = :guild AND m.variant = :variant"
        " AND m.status = 'finished' AND m.practice = 0"
        " ORDER BY m.ended_at DESC, m.match_id DESC LIMIT :limit",
        {**params, "limit": limit},
    )
    opponents: dict[int, list[Seat]] = {int(row[0]): [] for row in rows}
    if opponents:
        marks = ", ".join("?" * len(opponents))
        for mid, uid, name in await conn.fetchall(
            "SELECT match_id, user_id, display_name FROM match_players"
            f" WHERE match_id IN ({marks}) AND user_id <> ? ORDER BY match_id, seat",
            (*opponents, params["user"]),
        ):
            opponents[int(mid)].append(Seat(user_id=uid, display_name=name))
    return [
        RecentMatch(
            match_id=mid,
            ended_at=from_ms(ended),
            outcome=outcome,
            score=score,
            place=place,
            opponents=opponents[int(mid)],
        )
        for mid, ended, outcome, score, place in rows
    ]


def _stats_from_row(row: Any, variant: Variant) -> PlayerStats:
    uid, name, played, won, lost, forfeits, rate, rounds, points, current, best, _, _ = row
    return PlayerStats(
        user_id=uid,
        display_name=name,
        variant=variant,
        played=played,
        won=won,
        lost=lost,
        forfeits=forfeits,
        win_rate=rate,
        rounds_won=rounds,
        points=points,
        current_streak=current,
        best_streak=best,
    )
