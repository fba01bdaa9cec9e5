"""OpenSkill ratings (Plackett-Luce): a match's update, applied live and by the replay.

The live path (`changes_of`, as a match's results are recorded, from what the
match's end already read) and the migration that
replays older results (`replay_ratings`) compute the update with `_changes` from
rows of the same shape and order, so they give the same floats (tested):
ratings are a fold over finished matches in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

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


# Everything a match's update needs, in one trip to SQLite's thread: the match,
# its results, and each player's current rating in its guild and variant.
_READ = (
    "SELECT m.guild_id, m.variant, m.practice, m.ended_at, r.user_id, r.place, r.outcome,"
    " g.mu, g.sigma, g.matches"
    " FROM matches AS m JOIN results AS r ON r.match_id = m.match_id"
    " LEFT JOIN ratings AS g"
    "  ON g.guild_id = m.guild_id AND g.variant = m.variant AND g.user_id = r.user_id"
    " WHERE m.match_id = ? ORDER BY r.place, r.user_id"
)
# And one statement writes it (migration 0004's rating_intake view).
_WRITE = (
    "INSERT INTO rating_intake (match_id, user_id, guild_id, variant, mu_before, sigma_before,"
    " mu_after, sigma_after, matches, updated_at)"
    " SELECT ?, json_extract(value, '$[0]'), ?, ?, json_extract(value, '$[1]'),"
    " json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]'),"
    " json_extract(value, '$[5]'), ? FROM json_each(?) ORDER BY key"
)


# A player's rating change: (user_id, mu before, sigma before, mu after, sigma after,
# rated matches after).
Change = tuple[int, float, float, float, float, int]


def changes_of(
    players: Sequence[tuple[int, int, str, tuple[float, float, int] | None]],
) -> list[Change]:
    """A match's rating changes from what the caller read already (no statement).

    `players` are (user_id, place, outcome, (mu, sigma, matches) or None for no
    rating yet) of a finished match that is not a practice one. The rows are put in
    _READ's shape and order (place, then user id), so `_changes` gives the very
    floats the replay gives, in the order it writes them.
    """
    rows = sorted(
        (
            (0, "", 0, 0, uid, place, outcome, *(rating or (None,) * 3))
            for uid, place, outcome, rating in players
        ),
        key=lambda row: (row[5], row[4]),
    )
    return _changes(rows)


def _update(match_id: int, found: Iterable[Sequence[Any]]) -> tuple[Any, ...] | None:
    """_WRITE's parameters for a match's update, from its _READ rows; None: no update."""
    rows = list(found)
    if len(rows) < 2 or rows[0][2]:  # no results yet, or a practice match
        return None
    guild_id, variant, _, ended_at = rows[0][:4]
    # json.dumps writes each float's shortest repr, and json_extract on that text
    # reads back the same double (tested: the stored rating is rate()'s, to the bit).
    return (match_id, guild_id, variant, ended_at, json.dumps(_changes(rows)))


def _changes(rows: Sequence[Sequence[Any]]) -> list[Change]:
    """Each player's change, from _READ-shaped rows in _READ's order."""
    before = [
        (DEFAULT_MU, DEFAULT_SIGMA, 0) if mu is None else (float(mu), float(sigma), int(n))
        for *_, mu, sigma, n in rows
    ]
    after = rate([(mu, sigma) for mu, sigma, _ in before], ranks_of([(r[5], r[6]) for r in rows]))
    return [
        (int(row[4]), old[0], old[1], new[0], new[1], old[2] + 1)
        for row, old, new in zip(rows, before, after, strict=True)
        if row[4] >= 0  # a forgotten member's placeholder
    ]


async def replay_ratings(conn: aiosqlite.Connection) -> None:
    """Rate every finished match again, in match order (end time, then id), from scratch.

    The migration's Python step: the results recorded before ratings existed. The
    same `_changes` as the live path, through aiosqlite, as migrations run.
    """
    await conn.execute("DELETE FROM rating_changes")
    await conn.execute("DELETE FROM ratings")
    async with conn.execute(
        "SELECT match_id FROM matches WHERE status = 'finished' AND NOT practice"
        " ORDER BY ended_at, match_id"
    ) as cursor:
        match_ids = [int(row[0]) for row in await cursor.fetchall()]
    for match_id in match_ids:
        write = _update(match_id, await conn.execute_fetchall(_READ, (match_id,)))
        if write is not None:
            await conn.execute(_WRITE, write)
