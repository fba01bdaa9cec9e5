"""Match lifecycle, the crash-safe action log and engine snapshots."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import JsonValue

from db.endings import READ, Running, finish, insert_round, read_running, running_from
from db.errors import (
    ActionRejected,
    InconsistentData,
    MatchNotRunning,
    UnknownMatch,
    is_busy,
    is_integrity_error,
    wraps_storage_errors,
)
from db.models import (
    JsonInput,
    LoggedAction,
    MatchRow,
    PlayerResult,
    RoundResult,
    RunningTable,
    Seat,
    StateInput,
    Variant,
    from_ms,
    json_text,
    now_ms,
    to_ms,
)
from db.shards import owned
from db.tx import Tx
from db.writer import GroupCommitter

if TYPE_CHECKING:
    from db.access import Access

_SEATS = {"duo": (2, 2), "pizza": (2, 5), "classic": (2, 10)}
_INT64 = (-(2**63), 2**63 - 1)

_UPSERT_SNAPSHOT = (
    "INSERT INTO snapshots (match_id, seq, state, created_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (match_id) DO UPDATE SET "
    "seq = excluded.seq, state = excluded.state, created_at = excluded.created_at"
)
_UPSERT_KEEPER = (
    "INSERT INTO draft_keepers (match_id, user_id, round_no) VALUES (?, ?, ?) "
    "ON CONFLICT (match_id, user_id) DO UPDATE SET round_no = excluded.round_no"
)
_SET_DEADLINE = "UPDATE matches SET turn_deadline = ? WHERE match_id = ?"
# One statement logs a whole batch (see migration 0003): rows come from a JSON array.
_INTAKE_BATCH = (
    "INSERT INTO action_intake (match_id, seq, player_id, action, created_at, deadline, state)"
    " SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),"
    " json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]'),"
    " json_extract(value, '$[5]'), json_extract(value, '$[6]')"
    " FROM json_each(?) ORDER BY key"
)
# PostgreSQL has no intake view: one statement logs the batch from arrays (unnest), in
# one round trip; each step of a statement waits for the event loop to hand it on.
# The order trigger sees the rows inserted before its own in the same statement.
_INTAKE_CTES = """
WITH intake AS (
    SELECT * FROM unnest($1::bigint[], $2::int[], $3::bigint[], $4::text[], $5::bigint[],
                         $6::bigint[], $7::text[]) WITH ORDINALITY
        AS r(match_id, seq, player_id, action, created_at, deadline, state, n)
), logged AS (
    INSERT INTO actions (match_id, seq, player_id, action, created_at)
    SELECT match_id, seq, player_id, action, created_at FROM intake ORDER BY n
), snapped AS (
    INSERT INTO snapshots (match_id, seq, state, created_at)
    SELECT match_id, seq, state, created_at FROM intake WHERE state IS NOT NULL
    ON CONFLICT (match_id) DO UPDATE
    SET seq = excluded.seq, state = excluded.state, created_at = excluded.created_at
)"""
_DEADLINES_PG = (
    "UPDATE matches AS m SET turn_deadline = intake.deadline"
    " FROM intake WHERE m.match_id = intake.match_id"
)
_INTAKE_PG = f"{_INTAKE_CTES}\n{_DEADLINES_PG}"
# An action that ends a round or the match, logged, and its match read as the end needs
# it, in one statement: the read sees the match as it was before the statement, which
# logging an action does not change (only its deadline, not read).
_INTAKE_AND_READ_PG = f"{_INTAKE_CTES}, deadlines AS ({_DEADLINES_PG})\n" + READ.replace(
    "?", "$8::bigint"
)


@dataclass(frozen=True, slots=True)
class _ActionJob:
    match_id: int
    seq: int
    player_id: int | None
    action: str
    created_at: int
    snapshot: str | None
    deadline: int | None
    round_result: RoundResult | None
    results: tuple[PlayerResult, ...] | None
    keeper_round: int | None  # a "Keep the rest" press in this round's draft
    asked: float  # time.monotonic() of record_action: the lock wait counts from here


class TableRepo:
    """Matches from start to end, and what a restart needs to bring tables back.

    Snapshot policy: a snapshot (the engine state after an action, as JSON text)
    is stored with the match start, at every action whose seq is a multiple of
    `snapshot_every`, and at every action that starts a round; only the latest
    is kept. A restart therefore replays at most `snapshot_every - 1` actions.
    """

    def __init__(self, db: Access, *, snapshot_every: int) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self._db = db
        self.snapshot_every = snapshot_every
        # A locked file fails a whole batch at once: retried one by one, each action
        # would wait for the lock again, stalling every click queued behind them.
        self._writer = GroupCommitter[_ActionJob](write=self._write_batch, whole_batch=is_busy)

    def start(self) -> None:
        """Start the group-commit writer (Database.open does it)."""
        self._writer.start()

    async def stop(self) -> None:
        """Commit queued actions and stop the writer (Database.close does it)."""
        await self._writer.stop()

    @property
    def group_commits(self) -> tuple[int, int]:
        """Return (actions committed, commits used) since open: their ratio is the batching."""
        return self._writer.items, self._writer.commits

    # -- lifecycle ---------------------------------------------------------------

    @wraps_storage_errors
    async def start_match(
        self,
        *,
        guild_id: int,
        channel_id: int,
        variant: Variant,
        options: Mapping[str, JsonValue],
        seed: int,
        players: Sequence[Seat],
        state: JsonInput,
        message_id: int | None = None,
        deadline: datetime | None = None,
        started_at: datetime | None = None,
        practice: bool = False,
    ) -> int:
        """Record a table that started, with its initial state (seq 0); return its match_id.

        `players` are in seat order. `seed` must fit in int64 (use getrandbits(63)).
        A `practice` match (against the computer) is recorded like any other, but
        counts in no leaderboard, member stats or rating.
        """
        low, high = _SEATS[variant]
        if not low <= len(players) <= high:
            raise ValueError(f"{variant} needs {low}-{high} players, got {len(players)}")
        if len({seat.user_id for seat in players}) != len(players):
            raise ValueError("a player cannot take two seats")
        if not _INT64[0] <= seed <= _INT64[1]:
            raise ValueError("seed must fit in a signed 64-bit integer")
        started = to_ms(started_at) if started_at else now_ms()
        state_json = json_text(state)
        json.loads(state_json)  # a ValueError here, not a database error later
        match = (
            guild_id,
            channel_id,
            variant,
            json_text(dict(options)),
            seed,
            started,
            message_id,
            to_ms(deadline) if deadline else None,
            int(practice),
        )
        seated = [(s.user_id, s.display_name) for s in players]
        return await self._db.run_in_transaction(
            partial(_start, match, seated, (state_json, started))
        )

    @wraps_storage_errors
    async def record_action(
        self,
        match_id: int,
        *,
        seq: int,
        player_id: int | None,
        action: JsonInput,
        state: StateInput,
        deadline: datetime | None,
        round_start: bool = False,
        round_result: RoundResult | None = None,
        results: Sequence[PlayerResult] | None = None,
        keeper_round: int | None = None,
    ) -> None:
        """Log an accepted action; return only once it is committed to disk.

        `seq` is the action's number in the match: 1 for the first, then each
        previous + 1 (else ActionRejected). `state` is the engine state after the
        action, JSON text or value, or a callable returning it, only called when a
        snapshot is due. `deadline` is the new turn deadline (None: no timer).
        Pass `round_result` if the action ended a round and `results` if it ended
        the match: they are stored in the same transaction as the action, and so is
        the note that the match's end is still to be shown (`owed_endings`).
        `keeper_round`: the action is a "Keep the rest" press in that round's Duo
        draft; who keeps the rest is stored with it (`RunningTable.keepers`).
        """
        snapshot_due = results is None and (round_start or seq % self.snapshot_every == 0)
        snapshot = None
        if snapshot_due:
            value = state() if callable(state) else state
            snapshot = json_text(value)
        job = _ActionJob(
            match_id=match_id,
            seq=seq,
            player_id=player_id,
            action=json_text(action),
            created_at=now_ms(),
            snapshot=snapshot,
            deadline=to_ms(deadline) if deadline else None,
            round_result=round_result,
            results=tuple(results) if results is not None else None,
            keeper_round=keeper_round,
            asked=time.monotonic(),
        )
        try:
            if round_result is None and results is None and keeper_round is None:
                await self._writer.submit(job)
            else:
                # Rare (a round or the match ended): its own transaction, queued on
                # SQLite's thread at once, behind at most the batches in flight. In
                # the group committer it waited for a free slot, and its batch (every
                # action waiting with it) was written statement by statement: the
                # result's p99 was several times a plain action's at 200 tables.
                # The table's previous action was confirmed before this one was
                # asked, so it cannot overtake it (and the log's trigger would refuse
                # an action after its match's end). A "Keep the rest" press is rare too.
                await self._db.run_in_transaction(partial(_write_ending, job), asked=job.asked)
        except Exception as exc:
            if not is_integrity_error(exc):
                raise
            raise ActionRejected(f"match {match_id} action {seq}: {exc}") from exc

    async def _write_batch(self, jobs: list[_ActionJob]) -> None:
        # The oldest action's player has waited longest: a locked file fails the batch
        # once that action has waited its LOCK_WAIT_MS, however late the batch started.
        asked = min(job.asked for job in jobs)
        if self._db.dialect == "sqlite":  # one statement: no transaction to open
            await self._db.execute_atomic(_INTAKE_BATCH, (_intake_rows(jobs),), asked=asked)
        else:
            await self._db.run_in_transaction(partial(_intake, jobs), asked=asked)

    @wraps_storage_errors
    async def record_round(
        self, match_id: int, result: RoundResult, *, ended_at: datetime | None = None
    ) -> None:
        """Record a finished round outside an action (prefer record_action's round_result)."""
        ended = to_ms(ended_at) if ended_at else now_ms()
        await self._db.run_in_transaction(partial(_record_round, match_id, result, ended))

    @wraps_storage_errors
    async def finish_match(
        self,
        match_id: int,
        results: Sequence[PlayerResult],
        *,
        ended_at: datetime | None = None,
    ) -> None:
        """End a match with each seated player's result (one winner, at place 1).

        Each score must equal the player's round points recorded for the match.
        The snapshot is dropped: seed and action log still replay the match (X4).
        """
        ended = to_ms(ended_at) if ended_at else now_ms()
        await self._db.run_in_transaction(partial(_finish_match, match_id, tuple(results), ended))

    @wraps_storage_errors
    async def abandon_match(self, match_id: int, *, ended_at: datetime | None = None) -> None:
        """Close a running match without results (it counts in no scoreboard)."""
        ended = to_ms(ended_at) if ended_at else now_ms()
        await self._db.run_in_transaction(partial(_abandon, match_id, ended))

    @wraps_storage_errors
    async def set_table_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the table message (after it is re-posted) so a restart finds it.

        Allowed after the match ended too: a last re-post may race the finish.
        """
        await self._db.run_in_transaction(partial(_set_table_message, match_id, message_id))

    @wraps_storage_errors
    async def set_deadline(self, match_id: int, deadline: datetime | None) -> None:
        """Change the turn deadline without an action."""
        await self._db.run_in_transaction(
            partial(_set_deadline, match_id, to_ms(deadline) if deadline else None)
        )

    @wraps_storage_errors
    async def owed_endings(self) -> list[int]:
        """Matches played to their end whose end was not shown yet (a restart shows it);
        opened for some shards, only their servers'."""
        mine, params = owned(self._db.shards, "m.guild_id")
        async with self._db.reading() as conn:
            rows = await conn.fetchall(
                "SELECT o.match_id FROM endings_owed AS o JOIN matches AS m USING (match_id)"
                f" WHERE {mine} ORDER BY o.match_id",
                params,
            )
        return [int(row[0]) for row in rows]

    @wraps_storage_errors
    async def ending_shown(self, match_id: int) -> None:
        """The match's end was shown in its channel (or never can be): no longer owed."""
        await self._db.execute_atomic("DELETE FROM endings_owed WHERE match_id = ?", (match_id,))

    # -- reads -------------------------------------------------------------------

    @wraps_storage_errors
    async def get_match(self, match_id: int) -> MatchRow:
        """Return one match with its seats."""
        async with self._db.reading() as conn:
            matches = await _load_matches(conn, "m.match_id = ?", (match_id,))
        if not matches:
            raise UnknownMatch(f"no match {match_id}")
        return matches[0]

    @wraps_storage_errors
    async def actions(self, match_id: int, *, after: int = 0) -> list[LoggedAction]:
        """Return a match's logged actions with seq > `after`, in order (for replays)."""
        async with self._db.reading() as conn:
            return await _load_actions(conn, match_id, after)

    @wraps_storage_errors
    async def running_tables(self) -> list[RunningTable]:
        """Return every running table: its match, latest snapshot and the actions after it.

        Opened for some shards (`Database.open(shards=)`): only their servers' tables.
        """
        mine, params = owned(self._db.shards, "m.guild_id")
        async with self._db.reading() as conn:
            matches = await _load_matches(conn, f"m.status = 'running' AND {mine}", params)
            return [await _running_table(conn, match) for match in matches]

    @wraps_storage_errors
    async def running_table(self, match_id: int) -> RunningTable | None:
        """Return one running table as `running_tables()` does; None if it is not running.

        What a table reloads from after a failed write: reading every table there took
        ~0.1 s with 200 of them, and each click failing on a locked file paid it.
        """
        async with self._db.reading() as conn:
            matches = await _load_matches(
                conn, "m.match_id = ? AND m.status = 'running'", (match_id,)
            )
            return await _running_table(conn, matches[0]) if matches else None


async def _running_table(conn: Tx, match: MatchRow) -> RunningTable:
    row = await conn.fetchone(
        "SELECT seq, state FROM snapshots WHERE match_id = ?", (match.match_id,)
    )
    if row is None:  # start_match always writes one: edited by hand?
        raise InconsistentData(
            f"running match {match.match_id} has no snapshot to restore it from"
            " (start_match writes one and only the match's end deletes it);"
            " abandon the match or restore a backup"
        )
    seq, state = int(row[0]), str(row[1])
    actions = await _load_actions(conn, match.match_id, seq)
    rows = await conn.fetchall(
        "SELECT user_id, round_no FROM draft_keepers WHERE match_id = ?", (match.match_id,)
    )
    keepers = {int(user): int(round_no) for user, round_no in rows}
    return RunningTable(
        match=match, snapshot_seq=seq, snapshot_json=state, actions=actions, keepers=keepers
    )


# What follows runs inside Database.run_in_transaction (on SQLite, on its thread).


async def _start(
    match: tuple[Any, ...],
    seated: Sequence[tuple[int, str]],
    snapshot: tuple[str, int],
    conn: Tx,
) -> int:
    row = await conn.fetchone(
        "INSERT INTO matches (guild_id, channel_id, variant, options, seed, started_at,"
        " message_id, turn_deadline, practice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " RETURNING match_id",
        match,
    )
    assert row is not None
    match_id = int(row[0])
    await conn.run_many(
        "INSERT INTO match_players (match_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
        [(match_id, seat, user_id, name) for seat, (user_id, name) in enumerate(seated)],
    )
    await conn.run(_UPSERT_SNAPSHOT, (match_id, 0, *snapshot))
    return match_id


def _intake_rows(jobs: Sequence[_ActionJob]) -> str:
    """_INTAKE_BATCH's parameter: the jobs' rows as one JSON array, in order (orjson:
    a row with a snapshot carries the whole engine state as a string to escape)."""
    return orjson.dumps(
        [
            (j.match_id, j.seq, j.player_id, j.action, j.created_at, j.deadline, j.snapshot)
            for j in jobs
        ]
    ).decode()


async def _intake(jobs: Sequence[_ActionJob], conn: Tx) -> None:
    """Log actions with their snapshots and deadlines: one statement on SQLite (its
    intake view, migration 0003), one over arrays on PostgreSQL."""
    if conn.dialect == "sqlite":
        await conn.run(_INTAKE_BATCH, (_intake_rows(jobs),))
        return
    await conn.run(_INTAKE_PG, _intake_columns(jobs))


def _intake_columns(jobs: Sequence[_ActionJob]) -> list[list[Any]]:
    """_INTAKE_PG's parameters: one array per column."""
    rows = [
        (j.match_id, j.seq, j.player_id, j.action, j.created_at, j.deadline, j.snapshot)
        for j in jobs
    ]
    return [list(column) for column in zip(*rows, strict=True)]


async def _logged_and_read(job: _ActionJob, conn: Tx) -> Running:
    """Log an action that ends a round or the match, then read its match for the end:
    two statements on SQLite, one on PostgreSQL."""
    if conn.dialect == "sqlite":
        await _intake([job], conn)
        return await read_running(conn, job.match_id)
    rows = await conn.fetchall(_INTAKE_AND_READ_PG, [*_intake_columns([job]), job.match_id])
    return running_from(job.match_id, rows)


async def _write_ending(job: _ActionJob, conn: Tx) -> None:
    """An action that ended a round or the match (or a "Keep the rest" press): the action
    (as any other, through the intake: one statement for its row, snapshot and deadline),
    then the keeper, the round, the results and the end still to show. Each statement is
    a trip out of Python and back (the GIL is released and taken again, which a busy
    event loop can delay; on PostgreSQL a round trip too), so they are kept few."""
    if job.round_result is None and job.results is None:
        await _intake([job], conn)
    else:
        running = await _logged_and_read(job, conn)
        if job.results is not None:
            await finish(
                running, job.results, job.created_at, conn, owed=True, last_round=job.round_result
            )
        elif job.round_result:
            await insert_round(running, job.round_result, job.created_at, conn)
    if job.keeper_round is not None:
        await conn.run(_UPSERT_KEEPER, (job.match_id, job.player_id, job.keeper_round))


async def _record_round(match_id: int, result: RoundResult, ended_at: int, conn: Tx) -> None:
    await insert_round(await read_running(conn, match_id), result, ended_at, conn)


async def _finish_match(
    match_id: int, results: Sequence[PlayerResult], ended_at: int, conn: Tx
) -> None:
    await finish(await read_running(conn, match_id), results, ended_at, conn)


async def _require_running(conn: Tx, match_id: int) -> list[int]:
    """Return the seated user ids of a running match, or raise."""
    rows = await conn.fetchall(
        "SELECT m.status, p.user_id FROM matches AS m"
        " LEFT JOIN match_players AS p ON p.match_id = m.match_id"
        " WHERE m.match_id = ? ORDER BY p.seat",
        (match_id,),
    )
    if not rows:
        raise UnknownMatch(f"no match {match_id}")
    if rows[0][0] != "running":
        raise MatchNotRunning(f"match {match_id} is {rows[0][0]}, not running")
    return [int(row[1]) for row in rows if row[1] is not None]


async def _set_deadline(match_id: int, deadline: int | None, conn: Tx) -> None:
    await _require_running(conn, match_id)
    await conn.run(_SET_DEADLINE, (deadline, match_id))


async def _set_table_message(match_id: int, message_id: int | None, conn: Tx) -> None:
    changed = await conn.run(
        "UPDATE matches SET message_id = ? WHERE match_id = ?", (message_id, match_id)
    )
    if changed == 0:
        raise UnknownMatch(f"no match {match_id}")


async def _abandon(match_id: int, ended_at: int, conn: Tx) -> None:
    await _require_running(conn, match_id)
    await conn.run(
        "UPDATE matches SET status = 'abandoned', ended_at = ?, turn_deadline = NULL"
        " WHERE match_id = ?",
        (ended_at, match_id),
    )
    await conn.run("DELETE FROM snapshots WHERE match_id = ?", (match_id,))


async def _load_matches(conn: Tx, where: str, params: tuple[Any, ...]) -> list[MatchRow]:
    # One row per seat, grouped here: the same SQL on both engines.
    rows = await conn.fetchall(
        "SELECT m.match_id, m.guild_id, m.channel_id, m.variant, m.options, m.seed, m.status,"
        " m.started_at, m.ended_at, m.message_id, m.turn_deadline, m.practice,"
        " p.seat, p.user_id, p.display_name"
        " FROM matches AS m JOIN match_players AS p ON p.match_id = m.match_id"
        f" WHERE {where} ORDER BY m.match_id, p.seat",
        params,
    )
    return [
        _match_from_row(list(group)) for _, group in itertools.groupby(rows, key=lambda r: r[0])
    ]


def _match_from_row(seat_rows: list[Any]) -> MatchRow:
    row = seat_rows[0]
    mid, guild, channel, variant, options, seed, status, started, ended, msg, deadline = row[:11]
    practice = row[11]
    return MatchRow(
        match_id=mid,
        guild_id=guild,
        channel_id=channel,
        variant=variant,
        options=json.loads(options),
        seed=seed,
        players=[Seat(user_id=r[13], display_name=r[14]) for r in seat_rows],
        status=status,
        started_at=from_ms(started),
        ended_at=from_ms(ended) if ended is not None else None,
        message_id=msg,
        turn_deadline=from_ms(deadline) if deadline is not None else None,
        practice=bool(practice),
    )


async def _load_actions(conn: Tx, match_id: int, after: int) -> list[LoggedAction]:
    rows = await conn.fetchall(
        "SELECT seq, player_id, action, created_at FROM actions"
        " WHERE match_id = ? AND seq > ? ORDER BY seq",
        (match_id, after),
    )
    return [
        LoggedAction(seq=seq, player_id=pid, action_json=action, created_at=from_ms(created))
        for seq, pid, action, created in rows
    ]
