"""Matches that ended just before the bot stopped: their end is shown after the restart.

The action that ends a match is stored with the note that its end is owed
(`TableRepo.owed_endings` in db/tables.py); what follows it in the channel (the round and match
summaries, the final table with its Rematch button, the offer behind that button) is
Discord's side, done after the commit. A kill in between left a finished match whose
table still showed the middle of a round: the next start replays the match from its
log and shows its end as the answered action would have.
"""

from __future__ import annotations

import json
import logging

from cogs.uno.table.message import TableMessage
from cogs.uno.table.options import TableOptions
from cogs.uno.table.service import TableService, replay_logged
from db.errors import DatabaseError
from db.models import RunningTable
from engine.events import Event
from engine.match import new_match

log = logging.getLogger(__name__)


class OwedEndings:
    """Shows, at start-up, the ends the last run committed but did not show."""

    def __init__(self, tables: TableService, message: TableMessage) -> None:
        self.tables = tables
        self.message = message
        self.db = tables.db

    async def show_all(self) -> int:
        """Show every owed end; return how many were shown."""
        shown = 0
        for match_id in await self.db.tables.owed_endings():
            if self.message.stopped:
                break  # the bot is closing: the next start shows the rest
            try:
                await self._show(match_id)
            except DatabaseError:
                log.exception("Could not read the end of table %s", match_id)
                continue
            except Exception:  # a log the engine cannot replay: never shown, never retried
                log.exception("Could not rebuild the end of table %s", match_id)
                await self.db.tables.ending_shown(match_id)
                continue
            shown += 1
        return shown

    async def _show(self, match_id: int) -> None:
        row = await self.db.tables.get_match(match_id)
        logged = await self.db.tables.actions(match_id)
        play = TableOptions.from_data(row.options, turn_seconds=self.tables.settings.turn_seconds)
        match = new_match(
            row.variant,
            players=[str(seat.user_id) for seat in row.players],
            seed=row.seed,
            options=play.engine(row.variant),
        )
        events: list[Event] = []
        for action in logged:
            events = replay_logged(match, action)
        if not match.is_over:
            raise ValueError(f"the log of table {match_id} does not end its match")
        start = RunningTable(match=row, snapshot_seq=0, snapshot_json=json.dumps({}), actions=[])
        table = self.tables.rebuilt(start, match, ended=True)
        self.message.shown_in_place(table)  # its last state goes where it was shown
        self.message.summaries(table, events)
        await self.message.finish_now(table)
        log.info("Showed the end of table %s, which ended before the restart", match_id)
