"""Finished matches read back and replayed through the engine, a few kept in memory.

Nothing but the seed and the action log is read (X4): every step is the engine's
own state again. A log the engine no longer accepts, or one that ends elsewhere
than the stored results, is refused (`NoReplay("unreplayable")`) rather than
shown wrong.
"""

from __future__ import annotations

import json
from collections import OrderedDict

from cogs.uno.history.loaded import Loaded
from cogs.uno.history.no_replay import NoReplay
from cogs.uno.table.options import TableOptions
from db.database import Database
from db.errors import UnknownMatch
from db.history_models import StoredMatch
from engine import actions as engine_actions
from engine.replay import LogEntry, Replay
from engine.unreplayable import Unreplayable

KEPT = 16  # replays in memory: a panel's clicks come one after the other


class ReplayLibrary:
    """Loads, checks and caches replays of finished matches."""

    def __init__(self, db: Database, *, turn_seconds: int) -> None:
        self.db = db
        self.turn_seconds = turn_seconds
        self._kept: OrderedDict[int, Loaded] = OrderedDict()

    async def load(self, match_id: int, *, guild_id: int) -> Loaded:
        """The match's replay; NoReplay if it is not this server's finished match or
        cannot be replayed."""
        loaded = self._kept.get(match_id)
        if loaded is None:
            try:
                stored = await self.db.history.stored_match(match_id)
            except UnknownMatch:
                raise NoReplay("unknown") from None
            loaded = self._build(stored)
            self._kept[match_id] = loaded
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(match_id)
        if loaded.guild_id != guild_id:
            raise NoReplay("elsewhere")
        return loaded

    def forget(self) -> None:
        """Drop every kept replay (a member was forgotten: names and seats changed)."""
        self._kept.clear()

    def _build(self, stored: StoredMatch) -> Loaded:
        row = stored.match
        if not stored.actions:
            raise NoReplay("dropped")
        options = TableOptions.from_data(row.options, turn_seconds=self.turn_seconds)
        players = tuple(str(seat.user_id) for seat in row.players)
        log: list[LogEntry] = []
        acted: list[tuple[str, bool]] = []
        try:
            for logged in stored.actions:
                data = json.loads(logged.action_json)
                player = str(logged.player_id)
                removal = data.get("type") == "remove"
                log.append((player, None if removal else engine_actions.from_json(data)))
                acted.append((player, bool(data.get("timeout"))))
            replay = Replay(
                row.variant,
                players=players,
                seed=row.seed,
                options=options.engine(row.variant),
                log=log,
            )
        except (Unreplayable, ValueError, TypeError) as error:
            raise NoReplay("unreplayable") from error
        finish = sorted((int(p.player), p.score, p.place, p.outcome) for p in replay.placings())
        stored_finish = sorted((r.user_id, r.score, r.place, r.outcome) for r in stored.results)
        if finish != stored_finish:
            raise NoReplay("unreplayable")
        return Loaded(
            match_id=row.match_id,
            guild_id=row.guild_id,
            variant=row.variant,
            replay=replay,
            names={str(s.user_id): s.display_name for s in row.players},
            options=options,
            acted=tuple(acted),
            players=players,
        )
