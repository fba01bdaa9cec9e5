"""OpenSkill ratings (Plackett-Luce): a match's update, applied live and by the replay.

Both the live path (a match's results being recorded) and the migration that
replays older results call `rate_match` on the results rows as stored, so the two
give the same floats: ratings are a fold over finished matches in order.
"""

from __future__ import annotations

from collections.abc import Sequence

import aiosqlite
from openskill.models import PlackettLuce

# The package's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), pinned by
# the package version in requirements.txt: another version could move every
# rating, and the replay would no longer match what was stored live.
_MODEL = PlackettLuce()
DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma


def rate(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """Return each player's (mu, sigma) after a match; rank 1 is best, equal ranks tie."""
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def ranks_of(results: Sequence[tuple[int, str]]) -> list[int]:
    """Dense ranks from (place, outcome): a player who forfeited ranks below every
    player who did not (X3), whatever place they were given; equal places tie."""
    keys = [(outcome == "forfeit", place) for place, outcome in results]
    order = {key: rank for rank, key in enumerate(sorted(set(keys)), start=1)}
    return [order[key] for key in keys]


async def rate_match(conn: aiosqlite.Connection, match_id: int) -> None:
    """Update the ratings of a finished match's players from its stored results.

    Call inside the transaction that recorded the results. Practice matches move
    no rating. Forgotten members (negative placeholder ids, in the replay of old
    results) count as opponents at the default rating, but nothing of theirs is
    stored.
    """
    async with conn.execute(
        "SELECT guild_id, variant, practice, ended_at FROM matches WHERE match_id = ?",
        (match_id,),
    ) as cursor:
        match = await cursor.fetchone()
    if match is None or match[2]:
        return
    guild_id, variant, _, ended_at = match
    async with conn.execute(
        "SELECT user_id, place, outcome FROM results WHERE match_id = ? ORDER BY place, user_id",
        (match_id,),
    ) as cursor:
        results = [(int(u), int(p), str(o)) for u, p, o in await cursor.fetchall()]
    if len(results) < 2:
        return
    users = [user for user, _, _ in results]
    current = await _current(conn, guild_id, variant, users)
    before = [current.get(user, (DEFAULT_MU, DEFAULT_SIGMA, 0)) for user in users]
    after = rate([(mu, sigma) for mu, sigma, _ in before], ranks_of([r[1:] for r in results]))
    rows = [
        (user, old, new)
        for user, old, new in zip(users, before, after, strict=True)
        if user >= 0  # a forgotten member's placeholder
    ]
    await conn.executemany(
        "INSERT INTO ratings (guild_id, variant, user_id, mu, sigma, matches, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, variant, user_id) DO UPDATE"
        " SET mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches,"
        " updated_at = excluded.updated_at",
        [(guild_id, variant, u, new[0], new[1], old[2] + 1, ended_at) for u, old, new in rows],
    )
    await conn.executemany(
        "INSERT INTO rating_changes (match_id, user_id, guild_id, variant, mu_before,"
        " sigma_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(match_id, u, guild_id, variant, old[0], old[1], new[0], new[1]) for u, old, new in rows],
    )


async def _current(
    conn: aiosqlite.Connection, guild_id: int, variant: str, users: Sequence[int]
) -> dict[int, tuple[float, float, int]]:
    marks = ", ".join("?" * len(users))
    async with conn.execute(
        "SELECT user_id, mu, sigma, matches FROM ratings"
        f" WHERE guild_id = ? AND variant = ? AND user_id IN ({marks})",
        (guild_id, variant, *users),
    ) as cursor:
        rows = await cursor.fetchall()
    return {int(u): (float(mu), float(s), int(n)) for u, mu, s, n in rows}


async def replay_ratings(conn: aiosqlite.Connection) -> None:
    """Rate every finished match again, in match order (end time, then id), from scratch.

    The migration's Python step: the results recorded before ratings existed.
    """
    await conn.execute("DELETE FROM rating_changes")
    await conn.execute("DELETE FROM ratings")
    async with conn.execute(
        "SELECT match_id FROM matches WHERE status = 'finished' AND NOT practice"
        " ORDER BY ended_at, match_id"
    ) as cursor:
        match_ids = [int(row[0]) for row in await cursor.fetchall()]
    for match_id in match_ids:
        await rate_match(conn, match_id)
