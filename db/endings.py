"""A round's or a match's end, written inside the transaction that records it.

Runs on SQLite's thread (see Database.run_in_transaction) while a player waits and
every other write queues behind it, and each statement must take the GIL back from a
busy event loop. So a match's end reads everything it checks in one statement, and
writes a round with one statement and the match's end (results, status, snapshot,
ratings) with another, each an INSERT into a view whose trigger writes the tables from
json_each: 4 statements for a finishing action, its round and its rating update.

The views and their triggers are TEMP ones, made on the write connection when it
opens (`TEMP_SCHEMA`): they hold nothing, so they need no migration, and the file
stays as other versions of the bot know it. PostgreSQL writes the same rows with one
statement over arrays (`_ROUND_PG`; `_END_PG`, the last round included), and reads
the match in the statement that logs the action (db/tables.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from db.errors import InvalidResults, MatchNotRunning, UnknownMatch
from db.models import PlayerResult, RoundResult
from db.skill import changes_of as changes_of  # re-exported: bench/db.py times it here
from db.tx import Tx

READ = (
    "SELECT m.status, m.guild_id, m.variant, m.practice, p.user_id,"
    " (SELECT COALESCE(MAX(round_no), 0) FROM rounds WHERE match_id = m.match_id),"
    " (SELECT COALESCE(SUM(points), 0) FROM round_scores AS s"
    "  WHERE s.match_id = m.match_id AND s.user_id = p.user_id),"
    " g.mu, g.sigma, g.matches"
    " FROM matches AS m LEFT JOIN match_players AS p ON p.match_id = m.match_id"
    " LEFT JOIN ratings AS g"
    "  ON g.guild_id = m.guild_id AND g.variant = m.variant AND g.user_id = p.user_id"
    " WHERE m.match_id = ? ORDER BY p.seat"
)
# A round: one row per seat. The round's own row is written with the first.
# The match's end: one row per player, in the order rating changes are written
# (place, then user id); rating columns NULL for a practice match.
TEMP_SCHEMA = """
CREATE TEMP VIEW round_intake AS
SELECT match_id, round_no, winner_id, ended_at, 0 AS user_id, 0 AS points
FROM main.rounds WHERE 0;

CREATE TEMP TRIGGER round_intake_insert INSTEAD OF INSERT ON round_intake
BEGIN
    INSERT INTO rounds (match_id, round_no, winner_id, ended_at)
    SELECT NEW.match_id, NEW.round_no, NEW.winner_id, NEW.ended_at
    WHERE NOT EXISTS (SELECT 1 FROM main.rounds
                      WHERE match_id = NEW.match_id AND round_no = NEW.round_no);
    INSERT INTO round_scores (match_id, round_no, user_id, points)
    VALUES (NEW.match_id, NEW.round_no, NEW.user_id, NEW.points);
END;

CREATE TEMP VIEW end_intake AS
SELECT match_id, user_id, score, place, outcome, 0 AS ended_at, 0 AS guild_id,
       '' AS variant, 0.0 AS mu_before, 0.0 AS sigma_before, 0.0 AS mu_after,
       0.0 AS sigma_after, 0 AS matches
FROM main.results WHERE 0;

CREATE TEMP TRIGGER end_intake_insert INSTEAD OF INSERT ON end_intake
BEGIN
    INSERT INTO results (match_id, user_id, score, place, outcome)
    VALUES (NEW.match_id, NEW.user_id, NEW.score, NEW.place, NEW.outcome);
    UPDATE matches SET status = 'finished', ended_at = NEW.ended_at, turn_deadline = NULL
    WHERE match_id = NEW.match_id AND status = 'running';
    -- Snapshots are only a restart cache; seed + action log keep the replay (X4).
    DELETE FROM snapshots WHERE match_id = NEW.match_id;
    -- In the same statement: a result is never stored without its rating change.
    INSERT INTO rating_intake (match_id, user_id, guild_id, variant, mu_before,
                                    sigma_before, mu_after, sigma_after, matches, updated_at)
    SELECT NEW.match_id, NEW.user_id, NEW.guild_id, NEW.variant, NEW.mu_before,
           NEW.sigma_before, NEW.mu_after, NEW.sigma_after, NEW.matches, NEW.ended_at
    WHERE NEW.mu_after IS NOT NULL;
END;
"""
_ROUND = (
    "INSERT INTO round_intake (match_id, round_no, winner_id, ended_at, user_id, points)"
    " SELECT ?, ?, ?, ?, json_extract(value, '$[0]'), json_extract(value, '$[1]')"
    " FROM json_each(?) ORDER BY key"
)
_END = (
    "INSERT INTO end_intake (match_id, user_id, score, place, outcome, ended_at, guild_id,"
    " variant, mu_before, sigma_before, mu_after, sigma_after, matches)"
    " SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'),"
    " json_extract(value, '$[2]'), json_extract(value, '$[3]'), ?, ?, ?,"
    " json_extract(value, '$[4]'), json_extract(value, '$[5]'), json_extract(value, '$[6]'),"
    " json_extract(value, '$[7]'), json_extract(value, '$[8]')"
    " FROM json_each(?) ORDER BY key"
)

# PostgreSQL: a round, and a match's end, each in one statement over arrays (unnest),
# so one round trip each: asyncpg sends statements one at a time, and under load each
# also waits for the event loop to hand it on (a rated result took 13 of them). The
# foreign keys are checked at the statement's end, when every part is written.
_ROUND_PG = """
WITH round AS (
    INSERT INTO rounds (match_id, round_no, winner_id, ended_at)
    VALUES ($1::bigint, $2::int, $3::bigint, $4::bigint)
)
INSERT INTO round_scores (match_id, round_no, user_id, points)
SELECT $1::bigint, $2::int, user_id, points
FROM unnest($5::bigint[], $6::int[]) WITH ORDINALITY AS s(user_id, points, n) ORDER BY n
"""
_END_PG = """
WITH ending AS (
    SELECT * FROM unnest($4::bigint[], $5::int[], $6::int[], $7::text[], $8::float8[],
                         $9::float8[], $10::float8[], $11::float8[], $12::int[])
        WITH ORDINALITY AS r(user_id, score, place, outcome, mu_before, sigma_before,
                             mu_after, sigma_after, played, n)
), scored AS (
    INSERT INTO results (match_id, user_id, score, place, outcome)
    SELECT $1::bigint, user_id, score, place, outcome FROM ending ORDER BY n
), ended AS (
    UPDATE matches SET status = 'finished', ended_at = $2::bigint, turn_deadline = NULL
    WHERE match_id = $1::bigint AND status = 'running'
), cleared AS (
    DELETE FROM snapshots WHERE match_id = $1::bigint
), rated AS (
    INSERT INTO ratings (guild_id, variant, user_id, mu, sigma, matches, updated_at)
    SELECT $13::bigint, $14::text, user_id, mu_after, sigma_after, played, $2::bigint
    FROM ending WHERE mu_after IS NOT NULL ORDER BY n
    ON CONFLICT (guild_id, variant, user_id) DO UPDATE
    SET mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches,
        updated_at = excluded.updated_at
), changed AS (
    INSERT INTO rating_changes (match_id, user_id, guild_id, variant, mu_before,
                                sigma_before, mu_after, sigma_after)
    SELECT $1::bigint, user_id, $13::bigint, $14::text, mu_before, sigma_before, mu_after,
           sigma_after
    FROM ending WHERE mu_after IS NOT NULL ORDER BY n
), last_round AS (  -- the round that ended with the match, if any ($15 NULL: none)
    INSERT INTO rounds (match_id, round_no, winner_id, ended_at)
    SELECT $1::bigint, $15::int, $16::bigint, $2::bigint WHERE $15::int IS NOT NULL
), last_scores AS (
    INSERT INTO round_scores (match_id, round_no, user_id, points)
    SELECT $1::bigint, $15::int, user_id, points
    FROM unnest($17::bigint[], $18::int[]) WITH ORDINALITY AS s(user_id, points, n) ORDER BY n
)
INSERT INTO endings_owed (match_id) SELECT $1::bigint WHERE $3::boolean
"""
_OWED = "INSERT INTO endings_owed (match_id) VALUES (?)"


@dataclass(slots=True)
class Running:
    """A running match as its end needs it, read in one statement."""

    match_id: int
    guild_id: int
    variant: str
    practice: bool
    seated: list[int]  # user ids in seat order
    last_round: int
    totals: dict[int, int]  # each seat's round points so far
    ratings: dict[int, tuple[float, float, int]]  # (mu, sigma, matches) of rated players


async def read_running(conn: Tx, match_id: int) -> Running:
    """Read a running match's seats, rounds, points and ratings, or raise why not."""
    return running_from(match_id, await conn.fetchall(READ, (match_id,)))


def running_from(match_id: int, rows: Sequence[Sequence[Any]]) -> Running:
    """The match from READ's rows, or raise why it cannot end."""
    if not rows:
        raise UnknownMatch(f"no match {match_id}")
    if rows[0][0] != "running":
        raise MatchNotRunning(f"match {match_id} is {rows[0][0]}, not running")
    seats = [row for row in rows if row[4] is not None]
    return Running(
        match_id=match_id,
        guild_id=int(rows[0][1]),
        variant=str(rows[0][2]),
        practice=bool(rows[0][3]),
        seated=[int(row[4]) for row in seats],
        last_round=int(rows[0][5]),
        totals={int(row[4]): int(row[6]) for row in seats},
        ratings={
            int(row[4]): (float(row[7]), float(row[8]), int(row[9]))
            for row in seats
            if row[7] is not None
        },
    )


async def insert_round(running: Running, result: RoundResult, ended_at: int, conn: Tx) -> None:
    """Check and store a finished round; add its points to `running`'s totals."""
    points = _counted(running, result)
    if conn.dialect == "sqlite":
        await _write_round(running.match_id, result, points, ended_at, conn)
        return
    users, won = [uid for uid, _ in points], [n for _, n in points]
    await conn.run(
        _ROUND_PG, (running.match_id, result.round_no, result.winner_id, ended_at, users, won)
    )


def _counted(running: Running, result: RoundResult) -> list[tuple[int, int]]:
    """Check a finished round, add its points to `running`; return each seat's points."""
    match_id = running.match_id
    unknown = ({result.winner_id} | set(result.points)) - set(running.seated)
    if unknown:
        raise InvalidResults(f"round of match {match_id} names non-players {sorted(unknown)}")
    if any(points < 0 for points in result.points.values()):
        raise InvalidResults("round points cannot be negative")
    expected = running.last_round + 1
    if result.round_no != expected:
        raise InvalidResults(f"match {match_id}: round {result.round_no} recorded, {expected} due")
    points = [(uid, result.points.get(uid, 0)) for uid in running.seated]
    running.last_round = result.round_no
    for uid, scored in points:
        running.totals[uid] += scored
    return points


async def _write_round(
    match_id: int, result: RoundResult, points: list[tuple[int, int]], ended_at: int, conn: Tx
) -> None:
    await conn.run(
        _ROUND, (match_id, result.round_no, result.winner_id, ended_at, json.dumps(points))
    )


async def finish(
    running: Running,
    results: Sequence[PlayerResult],
    ended_at: int,
    conn: Tx,
    *,
    owed: bool = False,
    last_round: RoundResult | None = None,
) -> None:
    """Check and store a match's results, end it, and update its players' ratings.

    `owed`: note that its end is still to be shown (endings_owed). `last_round`: the
    round that ended with the match, checked and stored first (on PostgreSQL in the
    same statement).
    """
    points = _counted(running, last_round) if last_round else []
    _check_results(running, results)
    rated: dict[int, tuple[float, float, float, float, int]] = {}
    if not running.practice:
        players = [(r.user_id, r.place, r.outcome, running.ratings.get(r.user_id)) for r in results]
        rated = {change[0]: change[1:] for change in changes_of(players)}
    rows = [
        (r.user_id, r.score, r.place, r.outcome, *rated.get(r.user_id, (None,) * 5))
        for r in sorted(results, key=lambda r: (r.place, r.user_id))
    ]
    if conn.dialect == "sqlite":
        if last_round:
            await _write_round(running.match_id, last_round, points, ended_at, conn)
        await conn.run(
            _END, (running.match_id, ended_at, running.guild_id, running.variant, json.dumps(rows))
        )
        if owed:
            await conn.run(_OWED, (running.match_id,))
        return
    round_no, winner = (last_round.round_no, last_round.winner_id) if last_round else (None, None)
    await conn.run(  # $1 to $18 in order
        _END_PG,
        [
            running.match_id,
            ended_at,
            owed,
            *(list(column) for column in zip(*rows, strict=True)),
            running.guild_id,
            running.variant,
            round_no,
            winner,
            [uid for uid, _ in points],
            [n for _, n in points],
        ],
    )


def _check_results(running: Running, results: Sequence[PlayerResult]) -> None:
    match_id, seated = running.match_id, running.seated
    by_user = {r.user_id: r for r in results}
    if len(by_user) != len(results) or set(by_user) != set(seated):
        raise InvalidResults(f"match {match_id}: results must name each player once")
    winners = [r for r in results if r.outcome == "won"]
    if len(winners) != 1 or winners[0].place != 1:
        raise InvalidResults(f"match {match_id}: exactly one winner, at place 1")
    if any(r.place > len(seated) for r in results):
        raise InvalidResults(f"match {match_id}: a place is beyond the number of players")
    wrong = [r.user_id for r in results if r.score != running.totals.get(r.user_id, 0)]
    if wrong:
        raise InvalidResults(
            f"match {match_id}: scores of {wrong} differ from their recorded round points"
        )
