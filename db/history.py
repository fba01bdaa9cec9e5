"""Finished matches for `/uno history` and replays; how long their logs are kept.

A replay needs nothing stored but the match's seed and its action log (X4),
which the tables repository already wrote while it was played; this reads
them back, pages a member's finished matches, and drops the logs of matches
older than the retention setting. Plain SQL only (no JSON functions), so the
same statements serve any database the repositories run on.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from db.errors import UnknownMatch, wraps_storage_errors
from db.history_models import Finisher, HistoryPage, PastMatch, StoredMatch
from db.models import LoggedAction, Variant, from_ms, to_ms
from db.shards import owned
from db.tx import Tx

if TYPE_CHECKING:
    from db.access import Access
    from db.tables import TableRepo

_SCOPE = (
    " FROM match_players AS me JOIN matches AS m ON m.match_id = me.match_id"
    " WHERE me.user_id = :user AND m.guild_id = :guild AND m.status = 'finished'"
)
_SEATS = (
    "SELECT p.match_id, p.seat, p.user_id, p.display_name, r.place, r.score, r.outcome"
    " FROM match_players AS p JOIN results AS r"
    " ON r.match_id = p.match_id AND r.user_id = p.user_id"
)
_ROUNDS = "SELECT match_id, COUNT(*) FROM rounds WHERE match_id IN ({ids}) GROUP BY match_id"


class HistoryRepo:
    """Finished matches by member, one match's replay data, and the logs' retention."""

    def __init__(self, db: Access, tables: TableRepo) -> None:
        self._db = db
        self._tables = tables

    @wraps_storage_errors
    async def member_matches(
        self,
        *,
        guild_id: int,
        user_id: int,
        variant: Variant | None = None,
        page: int = 1,
        page_size: int = 10,
    ) -> HistoryPage:
        """A member's finished matches in a server, newest first (a page past the end:
        the last page)."""
        params: dict[str, Any] = {"user": user_id, "guild": guild_id, "variant": variant}
        which = _SCOPE + ("" if variant is None else " AND m.variant = :variant")
        async with self._db.reading() as conn:
            row = await conn.fetchone("SELECT COUNT(*)" + which, params)
            total = int(row[0]) if row else 0
            pages = max(1, -(-total // page_size))
            page = min(max(1, page), pages)
            rows = await conn.fetchall(
                "SELECT m.match_id, m.variant, m.ended_at, m.practice"
                + which
                + " ORDER BY m.ended_at DESC, m.match_id DESC LIMIT :limit OFFSET :offset",
                {**params, "limit": page_size, "offset": (page - 1) * page_size},
            )
            ids = [int(r[0]) for r in rows]
            seats = await _finishers(conn, ids)
            counted = await conn.fetchall(_ROUNDS.format(ids=_marks(ids))) if ids else []
        rounds = {int(mid): int(n) for mid, n in counted}
        entries = [
            PastMatch(
                match_id=mid,
                variant=variant_,
                ended_at=from_ms(ended),
                practice=bool(practice),
                rounds=int(rounds.get(mid, 0)),
                players=seats.get(mid, []),
            )
            for mid, variant_, ended, practice in rows
        ]
        return HistoryPage(entries=entries, page=page, pages=pages, total=total)

    @wraps_storage_errors
    async def stored_match(self, match_id: int) -> StoredMatch:
        """A finished match with its results and whole action log; UnknownMatch if there
        is no finished match of that id. An empty log: its retention ran out."""
        async with self._db.reading() as conn:
            found = await conn.fetchone(
                "SELECT match_id FROM matches WHERE match_id = :id AND status = 'finished'",
                {"id": match_id},
            )
            if not found:
                raise UnknownMatch(f"no finished match {match_id}")
            results = (await _finishers(conn, [match_id])).get(match_id, [])
            rows = await conn.fetchall(
                "SELECT seq, player_id, action, created_at FROM actions"
                " WHERE match_id = :id ORDER BY seq",
                {"id": match_id},
            )
        match = await self._tables.get_match(match_id)
        actions = [
            LoggedAction(seq=seq, player_id=pid, action_json=action, created_at=from_ms(created))
            for seq, pid, action, created in rows
        ]
        return StoredMatch(match=match, results=results, actions=actions)

    @wraps_storage_errors
    async def drop_logs(self, *, ended_before: datetime) -> int:
        """Delete the action logs of matches that ended before `ended_before`; their
        rows, rounds and results stay (boards and history are unchanged). Opened for
        some shards: their servers' matches only (each process drops its own)."""
        before = to_ms(ended_before)
        mine, params = owned(self._db.shards, "guild_id")

        async def drop(tx: Tx) -> int:
            return await tx.run(
                "DELETE FROM actions WHERE match_id IN (SELECT match_id FROM matches"
                f" WHERE status <> 'running' AND ended_at < ? AND {mine})",
                (before, *params),
            )

        return await self._db.run_in_transaction(drop)


async def forget_in_logs(conn: Tx, scope: str, params: dict[str, Any]) -> None:
    """Name a forgotten member in the logs as match_players will: -(seat + 1).

    The foreign keys carry the new id into each action's player; an action that
    names a player in its own data (H2's swap target) is rewritten here, so the
    match still replays once the member is forgotten. `scope` filters `matches AS m`
    with the caller's `params` (`:user` among them).
    """
    rows = await conn.fetchall(
        "SELECT a.action_id, a.action, p.seat FROM actions AS a"
        " JOIN match_players AS p ON p.match_id = a.match_id"
        " JOIN matches AS m ON m.match_id = a.match_id"
        f" WHERE p.user_id = :user AND {scope} AND a.action LIKE '%target%'",
        params,
    )
    for action_id, text, seat in rows:
        data = json.loads(text)
        if data.get("target") == str(params["user"]):
            data["target"] = str(-(seat + 1))
            await conn.run(
                "UPDATE actions SET action = :action WHERE action_id = :id",
                {"action": json.dumps(data, separators=(",", ":")), "id": action_id},
            )


def _marks(ids: list[int]) -> str:
    """The ids inline: they are ints read from the database, never user text."""
    return ", ".join(str(int(i)) for i in ids)


async def _finishers(conn: Tx, ids: list[int]) -> dict[int, list[Finisher]]:
    """Each match's seats with their results, in finishing order."""
    if not ids:
        return {}
    rows = await conn.fetchall(_SEATS + f" WHERE p.match_id IN ({_marks(ids)})")
    seats: dict[int, list[Finisher]] = {}
    for mid, seat, uid, name, place, score, outcome in rows:
        seats.setdefault(mid, []).append(
            Finisher(
                seat=seat, user_id=uid, display_name=name, place=place, score=score, outcome=outcome
            )
        )
    for players in seats.values():
        players.sort(key=lambda f: (f.place, f.seat))
    return seats
