"""Computer seats: who they are, and the loop that plays them at a running table.

A computer seat's player id is a small integer, 1 to 9 (`COMPUTER_IDS`). Discord
ids are snowflakes of 17 digits or more, so these can never be a real member;
a table seats at most nine computers (classic's ten seats, at least one human).
Its strength is kept in the match's options (`"computers": {"1": "hard"}`), so a
restart brings it back, and any match with one is practice (no board, no rating).

A computer decides from its seat's two views only (`engine.players`), off the
event loop, after a short, slightly random delay, and its decision goes through
`TableService.act` like a click: lock, version, check, apply, record. A stale
decision (the table moved meanwhile) is computed again.
"""

from __future__ import annotations

import asyncio
import logging
import random

from cogs.uno.table.computer_ids import table_strengths
from cogs.uno.table.options import TableOptions
from cogs.uno.table.outcome import Refused, Stale
from cogs.uno.table.running import LiveTable
from cogs.uno.table.service import TableService
from engine.actions import Action
from engine.players import Computer, new_computer

log = logging.getLogger(__name__)

# The hard player's safety cap on one search; on a quiet machine it needs well under it.
HARD_BUDGET_MS = 250.0


class ComputerSeats:
    """Plays the computer seats of every running table; one task per table at a time."""

    def __init__(self, tables: TableService, *, delay: float, seed: int | None = None) -> None:
        self.tables = tables
        self.delay = delay
        self._players: dict[int, dict[str, Computer]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        # X4: with the bot's TABLE_SEED the computers' choices repeat too, as the deals do.
        self._seeds = random.Random(seed)
        self._pace = random.Random()

    def wake(self, table: LiveTable) -> None:
        """The table changed (or was restored): let its computers look at it."""
        if table.closed:
            self._players.pop(table.match_id, None)
            return
        if not table_strengths(table.options):
            return
        task = self._tasks.get(table.match_id)
        if task is not None and not task.done():
            self._again.add(table.match_id)
            return
        self._tasks[table.match_id] = asyncio.create_task(
            self._run(table), name=f"uno-computers-{table.match_id}"
        )

    def shutdown(self) -> None:
        for task in self._tasks.values():
            task.cancel()

    async def _run(self, table: LiveTable) -> None:
        try:
            while not (table.closed or self.tables.closing):
                self._again.discard(table.match_id)
                await asyncio.sleep(self.delay * self._pace.uniform(0.6, 1.4))
                moved = await self._one_move(table)
                if not moved and table.match_id not in self._again:
                    break
        except Exception:
            log.exception("A computer seat failed at table %s", table.match_id)
        finally:
            if table.closed:
                self._players.pop(table.match_id, None)
            self._tasks.pop(table.match_id, None)

    async def _one_move(self, table: LiveTable) -> bool:
        """Ask each seated computer once; apply the first decision. True if one moved."""
        for _ in range(3):  # a stale decision is computed again for the new state
            version = table.match.version
            move = await self._decide(table)
            if move is None or table.closed:
                return False
            player, action = move
            # Shielded: a shutdown cancels the seat's task, never a move half saved.
            outcome = await asyncio.shield(
                self.tables.act(table, player, action, version, wait=30.0)
            )
            if isinstance(outcome, Refused):
                # Never expected (it chose from its legal moves); asking again would
                # only repeat it: the seat waits for the next change or its timer.
                log.warning("Table %s refused computer %s: %s", table.match_id, player, outcome)
                return False
            if not isinstance(outcome, Stale):
                return True
        return False

    async def _decide(self, table: LiveTable) -> tuple[str, Action] | None:
        """Out-of-turn calls first, then the seat the match waits for (engine's order)."""
        if table.match.is_over:
            return None
        seats = self._seats(table)
        public = table.public()
        waiting = table.match.waiting_for()
        for seat in sorted(public.seats, key=lambda s: s.player in waiting):
            computer = seats.get(seat.player)
            if computer is None or not seat.seated:
                continue
            me = table.match.private_view(seat.player)
            action = await asyncio.to_thread(computer.act, me, public)
            if action is not None:
                return seat.player, action
        return None

    def _seats(self, table: LiveTable) -> dict[str, Computer]:
        seats = self._players.get(table.match_id)
        if seats is None:
            target = table.options.get("target")
            # The table's own options, house rules included (H1–H4), for the hard player's worlds.
            options = (
                TableOptions.from_data(table.options, turn_seconds=0).engine(table.variant)
                if isinstance(target, int)
                else None
            )
            seats = {
                player: new_computer(
                    strength,
                    player,
                    seed=self._seeds.getrandbits(63),
                    budget_ms=HARD_BUDGET_MS,
                    options=options,
                )
                for player, strength in table_strengths(table.options).items()
            }
            self._players[table.match_id] = seats
        return seats
