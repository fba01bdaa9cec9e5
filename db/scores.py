"""Scoreboards and member stats, computed by SQL over match results; forgetting members."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import aiosqlite

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

if TYPE_CHECKING:
    from db.access import Access

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
# `last_run` and `names` use SQLite's documented rule that a bare column next
# to a lone MAX() comes from the row holding that maximum.
# Forgotten members carry negative placeholder ids and are left out; practice
# matches (against the computer) count in no board.
_STATS_CTE = """
WITH res AS MATERIALIZED (
    SELECT r.user_id, r.outcome, r.score, m.match_id, m.ended_at, p.display_name
    FROM matches AS m
    JOIN results AS r ON r.match_id = m.match_id
    JOIN match_players AS p ON p.match_id = r.match_id AND p.user_id = r.user_id
    WHERE m.guild_id = :guild AND m.variant = :variant AND m.status = 'finished'
      AND NOT m.practice AND r.user_id >= 0 {user_filter}
),
runs AS MATERIALIZED (
    SELECT user_id, grp, SUM(won) AS run
    FROM (
        SELECT user_id, outcome = 'won' AS won,
               SUM(outcome <> 'won') OVER (
                   PARTITION BY user_id ORDER BY ended_at, match_id ROWS UNBOUNDED PRECEDING
               ) AS grp
        FROM res
    )
    GROUP BY user_id, grp
),
best AS (SELECT user_id, MAX(run) AS best FROM runs GROUP BY user_id),
last_run AS (SELECT user_id, MAX(grp), run AS current FROM runs GROUP BY user_id),
names AS (SELECT user_id, MAX(ended_at), display_name FROM res GROUP BY user_id),
rounds_won AS (
    SELECT rd.winner_id AS user_id, COUNT(*) AS n
    FROM matches AS m JOIN rounds AS rd ON rd.match_id = m.match_id
    WHERE m.guild_id = :guild AND m.variant = :variant AND m.status = 'finished'
      AND NOT m.practice AND rd.winner_id >= 0 {winner_filter}
    GROUP BY rd.winner_id
),
agg AS (
    SELECT user_id, COUNT(*) AS played, SUM(outcome = 'won') AS won,
           SUM(outcome <> 'won') AS lost, SUM(outcome = 'forfeit') AS forfeits,
           SUM(score) AS points
    FROM res GROUP BY user_id
),
board AS (
    SELECT agg.user_id, n.display_name, agg.played, agg.won, agg.lost, agg.forfeits,
           CAST(agg.won AS REAL) / agg.played AS win_rate,
           COALESCE(rw.n, 0) AS rounds_won, agg.points, l.current, b.best,
           RANK() OVER (
               ORDER BY agg.won DESC,
                        CASE WHEN agg.played >= :min_played
                             THEN CAST(agg.won AS REAL) / agg.played ELSE -1.0 END DESC,
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
        sql = _STATS_CTE.format(user_filter="", winner_filter="")
        async with self._db.reading() as conn:
            async with conn.execute(
                sql + f"SELECT {_BOARD_COLUMNS} FROM board ORDER BY place, user_id"
                " LIMIT :limit OFFSET :offset",
                {**params, "limit": page_size, "offset": (page - 1) * page_size},
            ) as cursor:
                rows = list(await cursor.fetchall())
            if rows:
                total = int(rows[0][-1])
            else:  # past the last page: count alone
                async with conn.execute(sql + "SELECT COUNT(*) FROM board", params) as cursor:
                    row = await cursor.fetchone()
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
        sql = _STATS_CTE.format(
            user_filter="AND r.user_id = :user", winner_filter="AND rd.winner_id = :user"
        )
        async with self._db.reading() as conn:
            async with conn.execute(sql + f"SELECT {_BOARD_COLUMNS} FROM board", params) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            matches = await _recent_matches(conn, params, recent)
        return MemberStats(stats=_stats_from_row(row, variant), recent=matches)

    @wraps_storage_errors
    async def practice_record(self, *, guild_id: int, user_id: int) -> tuple[int, int]:
        """A member's finished practice matches (against the computer) in this guild,
        every variant: (won, played). Boards, stats and ratings leave these out."""
        async with (
            self._db.reading() as conn,
            conn.execute(
                "SELECT COALESCE(SUM(r.outcome = 'won'), 0), COUNT(*)"
                " FROM results AS r JOIN matches AS m ON m.match_id = r.match_id"
                " WHERE r.user_id = :user AND m.guild_id = :guild"
                " AND m.status = 'finished' AND m.practice",
                {"user": user_id, "guild": guild_id},
            ) as cursor,
        ):
            row = await cursor.fetchone()
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
        scope = "m.guild_id = :guild" if guild_id is not None else "1"
        params = {"user": user_id, "guild": guild_id, "name": FORGOTTEN_NAME}
        async with self._db.transaction() as conn:
            async with conn.execute(
                "SELECT COUNT(*) FROM match_players AS p JOIN matches AS m USING (match_id)"
                f" WHERE p.user_id = :user AND m.status = 'running' AND {scope}",
                params,
            ) as cursor:
                row = await cursor.fetchone()
            if row and row[0]:
                raise MemberPlaying(f"user {user_id} is playing; remove them from the table first")
            rating_scope = "guild_id = :guild" if guild_id is not None else "1"
            for table in ("rating_changes", "ratings"):
                await conn.execute(
                    f"DELETE FROM {table} WHERE user_id = :user AND {rating_scope}", params
                )
            if guild_id is None:
                await conn.execute("DELETE FROM member_prefs WHERE user_id = :user", params)
            # A rematch offer names its players: one that names them goes.
            await conn.execute(
                f"DELETE FROM rematch_offers WHERE {rating_scope} AND EXISTS (SELECT 1 FROM"
                " json_each(seats_json) WHERE json_extract(value, '$[0]') = :user)",
                params,
            )
            await forget_in_logs(conn, scope, params)  # before their id changes
            cursor = await conn.execute(
                "UPDATE match_players SET user_id = -(seat + 1), display_name = :name"
                " WHERE user_id = :user AND match_id IN"
                f" (SELECT match_id FROM matches AS m WHERE {scope})",
                params,
            )
            return cursor.rowcount


async def _recent_matches(
    conn: aiosqlite.Connection, params: dict[str, Any], limit: int
) -> list[RecentMatch]:
    async with conn.execute(
        "SELECT m.match_id, m.ended_at, r.outcome, r.score, r.place,"
        " (SELECT json_group_array(json_array(o.seat, o.user_id, o.display_name))"
        "  FROM match_players AS o WHERE o.match_id = m.match_id AND o.user_id <> r.user_id)"
        " FROM results AS r JOIN matches AS m ON m.match_id = r.match_id"
        " WHERE r.user_id = :user AND m.guild_id = :guild AND m.variant = :variant"
        " AND m.status = 'finished' AND NOT m.practice"
        " ORDER BY m.ended_at DESC, m.match_id DESC LIMIT :limit",
        {**params, "limit": limit},
    ) as cursor:
        rows = await cursor.fetchall()
    return [
        RecentMatch(
            match_id=mid,
            ended_at=from_ms(ended),
            outcome=outcome,
            score=score,
            place=place,
            opponents=[Seat(user_id=u, display_name=n) for _, u, n in sorted(json.loads(others))],
        )
        for mid, ended, outcome, score, place, others in rows
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
