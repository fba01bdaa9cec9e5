"""A round's or a match's end, written inside the transaction that records it.

Runs on SQLite's thread (see Database.run_in_transaction) while a player waits
and every other write queues behind it. Each statement is a trip out of Python
and back: sqlite3 releases the GIL for it and must take it again, which a busy
event loop delays (up to the interpreter's 5 ms switch interval). So a match's
end reads everything it checks in one statement (the seats, the last round, the
point totals, the players' ratings) and writes each table's rows with one
statement (from json_each), rather than a statement per check and a step per
row: 8 statements for a finishing action with its round and rating update,
where there were 13 (and a step per player for each of rounds and results).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from db.errors import InvalidResults, MatchNotRunning, UnknownMatch
from db.models import PlayerResult, RoundResult
from db.skill import rate_players

_READ = (
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
_ROUND_SCORES = (
    "INSERT INTO round_scores (match_id, round_no, user_id, points)"
    " SELECT ?, ?, json_extract(value, '$[0]'), json_extract(value, '$[1]')"
    " FROM json_each(?) ORDER BY key"
)
_RESULTS = (
    "INSERT INTO results (match_id, user_id, score, place, outcome)"
    " SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'),"
    " json_extract(value, '$[2]'), json_extract(value, '$[3]')"
    " FROM json_each(?) ORDER BY key"
)


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


def read_running(conn: sqlite3.Connection, match_id: int) -> Running:
    """Read a running match's seats, rounds, points and ratings, or raise why not."""
    rows = conn.execute(_READ, (match_id,)).fetchall()
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


def insert_round(
    running: Running, result: RoundResult, ended_at: int, conn: sqlite3.Connection
) -> None:
    """Check and store a finished round; add its points to `running`'s totals."""
    match_id = running.match_id
    unknown = ({result.winner_id} | set(result.points)) - set(running.seated)
    if unknown:
        raise InvalidResults(f"round of match {match_id} names non-players {sorted(unknown)}")
    if any(points < 0 for points in result.points.values()):
        raise InvalidResults("round points cannot be negative")
    expected = running.last_round + 1
    if result.round_no != expected:
        raise InvalidResults(f"match {match_id}: round {result.round_no} recorded, {expected} due")
    conn.execute(
        "INSERT INTO rounds (match_id, round_no, winner_id, ended_at) VALUES (?, ?, ?, ?)",
        (match_id, result.round_no, result.winner_id, ended_at),
    )
    points = [(uid, result.points.get(uid, 0)) for uid in running.seated]
    conn.execute(_ROUND_SCORES, (match_id, result.round_no, json.dumps(points)))
    running.last_round = result.round_no
    for uid, scored in points:
        running.totals[uid] += scored


def finish(
    running: Running, results: Sequence[PlayerResult], ended_at: int, conn: sqlite3.Connection
) -> None:
    """Check and store a match's results, end it, and update its players' ratings."""
    _check_results(running, results)
    match_id = running.match_id
    conn.execute(
        _RESULTS,
        (match_id, json.dumps([(r.user_id, r.score, r.place, r.outcome) for r in results])),
    )
    conn.execute(
        "UPDATE matches SET status = 'finished', ended_at = ?, turn_deadline = NULL"
        " WHERE match_id = ?",
        (ended_at, match_id),
    )
    # Snapshots are only a restart cache; seed + action log keep the replay (X4).
    conn.execute("DELETE FROM snapshots WHERE match_id = ?", (match_id,))
    if running.practice:
        return
    # In the same transaction: a result is never stored without its rating change.
    rate_players(
        conn,
        match_id,
        (running.guild_id, running.variant, ended_at),
        [(r.user_id, r.place, r.outcome, running.ratings.get(r.user_id)) for r in results],
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
