"""Skill ratings: the leaderboard by rating, a member's rating and its history.

Ratings are computed by `db.skill` and written by `db.endings`, in the transaction
that records a match's results; this repository only reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from db.errors import wraps_storage_errors
from db.models import (
    Rating,
    RatingBoardPage,
    RatingChange,
    RatingEntry,
    Variant,
    from_ms,
)
from db.tx import latest

if TYPE_CHECKING:
    from db.access import Access

_INT64_MAX = 2**63 - 1

# Wins, matches and points come from results (the source of truth, as in the
# points board), over the same matches ratings count: finished, not practice.
# A member's name is the one of their latest match (`latest`). Ties of
# mu - 3 sigma share a place.
_BOARD = """
WITH rated AS (
    SELECT user_id, mu, sigma, mu - 3 * sigma AS conservative, matches
    FROM ratings
    WHERE guild_id = :guild AND variant = :variant AND matches >= :min_played
),
res AS (
    SELECT r.user_id, r.outcome, r.score, m.ended_at, p.display_name
    FROM rated
    JOIN results AS r ON r.user_id = rated.user_id
    JOIN matches AS m ON m.match_id = r.match_id
    JOIN match_players AS p ON p.match_id = r.match_id AND p.user_id = r.user_id
    WHERE m.guild_id = :guild AND m.variant = :variant AND m.status = 'finished'
      AND m.practice = 0
),
agg AS (
    SELECT user_id, {latest_name} AS display_name, COUNT(*) AS played,
           SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END) AS won, SUM(score) AS points
    FROM res GROUP BY user_id
),
board AS (
    SELECT RANK() OVER (ORDER BY rated.conservative DESC) AS place, rated.user_id,
           agg.display_name, rated.mu, rated.sigma, rated.conservative, agg.played,
           agg.won, agg.points, COUNT(*) OVER () AS total
    FROM rated JOIN agg ON agg.user_id = rated.user_id
)
"""
_COLUMNS = "place, user_id, display_name, mu, sigma, conservative, played, won, points, total"


class RatingRepo:
    """Per-guild, per-variant OpenSkill ratings (Plackett-Luce) of members."""

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
    ) -> RatingBoardPage:
        """Return one page of the board by mu - 3 sigma, highest first.

        Only members with at least `min_played` rated matches appear; equal
        estimates share a place (1, 2, 2, 4). Pages start at 1.
        """
        if page < 1 or page_size < 1:
            raise ValueError("page and page_size start at 1")
        if (page - 1) * page_size > _INT64_MAX:  # SQLite binds the OFFSET as an int64
            raise ValueError(f"page {page} is beyond any leaderboard")
        params = {"guild": guild_id, "variant": variant, "min_played": min_played}
        board = _BOARD.format(latest_name=latest(self._db.dialect, "display_name", "ended_at"))
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                board + f"SELECT {_COLUMNS} FROM board ORDER BY place, user_id"
                " LIMIT :limit OFFSET :offset",
                {**params, "limit": page_size, "offset": (page - 1) * page_size},
            )
            if rows:
                total = int(rows[0][-1])
            else:  # past the last page: count alone
                row = await conn.fetchone(board + "SELECT COUNT(*) FROM board", params)
                total = int(row[0]) if row else 0
        names = RatingEntry.model_fields
        entries = [RatingEntry(**dict(zip(names, row[:-1], strict=True))) for row in rows]
        return RatingBoardPage(
            variant=variant,
            page=page,
            page_size=page_size,
            total=total,
            min_played=min_played,
            entries=entries,
        )

    @wraps_storage_errors
    async def rating(self, *, guild_id: int, user_id: int, variant: Variant) -> Rating | None:
        """Return a member's rating (None: no rated match in this server and variant)."""
        async with self._db.reading() as conn:
            row = await conn.fetchone(
                "SELECT mu, sigma, matches FROM ratings"
                " WHERE guild_id = ? AND variant = ? AND user_id = ?",
                (guild_id, variant, user_id),
            )
        if row is None:
            return None
        mu, sigma, matches = row
        return Rating(user_id=user_id, variant=variant, mu=mu, sigma=sigma, matches=matches)

    @wraps_storage_errors
    async def history(
        self, *, guild_id: int, user_id: int, variant: Variant, limit: int = 20
    ) -> list[RatingChange]:
        """Return a member's last `limit` rating changes, oldest first (ready to chart)."""
        if limit < 1:
            raise ValueError("limit starts at 1")
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                "SELECT c.match_id, m.ended_at, c.mu_before, c.sigma_before, c.mu_after,"
                " c.sigma_after FROM rating_changes AS c JOIN matches AS m USING (match_id)"
                " WHERE c.user_id = ? AND c.guild_id = ? AND c.variant = ?"
                " ORDER BY c.change_id DESC LIMIT ?",
                (user_id, guild_id, variant, limit),
            )
        return [
            RatingChange(
                match_id=mid,
                ended_at=from_ms(ended),
                mu_before=mu0,
                sigma_before=s0,
                mu_after=mu1,
                sigma_after=s1,
            )
            for mid, ended, mu0, s0, mu1, s1 in reversed(list(rows))
        ]
