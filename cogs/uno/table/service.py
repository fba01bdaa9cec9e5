"""The table service: lock, check, apply, record, and an outcome for the cog to show.

`act` is the one way a player's decision reaches a match: it takes the table's
lock (waiting only as long as the click can still be answered), compares the
version the control was drawn for, lets the engine check the action, applies
it, writes it to SQLite, and releases the lock. Discord catches up afterwards
(the table message, summaries, the others' panels, the turn ping) through
`TableMessage`, never under the lock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from cogs.uno import render
from cogs.uno.config import UnoSettings
from cogs.uno.i18n.l10n import N_, speaking, t, tn
from cogs.uno.refusal import UserFacingError
from cogs.uno.render.refusals import refusal_words
from cogs.uno.table.computer_ids import is_computer
from cogs.uno.table.message import TABLE_REPOST_AGE, TableMessage
from cogs.uno.table.options import TableOptions
from cogs.uno.table.outcome import Accepted, Outcome, Refused, Stale
from cogs.uno.table.registry import TableRegistry
from cogs.uno.table.running import LiveTable
from cogs.uno.table.scoring import match_results
from cogs.uno.table.shown import ShownMessage
from cogs.uno.table.timers import TurnTimers
from db.database import Database
from db.models import LoggedAction, RoundResult, RunningTable, Seat
from engine import actions as engine_actions
from engine.actions import Action, CallUno, KeepCard
from engine.errors import IllegalAction
from engine.events import (
    ChallengeResolved,
    Event,
    MatchEnded,
    PlayerRemoved,
    RoundEnded,
    RoundStarted,
    UnoCaught,
    UnoExposed,
)
from engine.match import Match, Variant, from_snapshot, new_match

log = logging.getLogger(__name__)

MAX_TIMEOUTS = render.MAX_MISSED  # docs/rules.md, "Deadlines"
RESTART_GRACE = 20  # seconds to decide after a restart, if the deadline passed meanwhile
REMOVE = None  # the "action" of a player leaving or removed (X3)
# What the public table shows promptly; other moves it may show a few seconds late. An
# UNO called with the play that leaves one card is an ordinary move; one called on its
# own ends an exposure the table shows (with a Catch button): that is prompt too.
PUBLIC_MOMENTS = (RoundStarted, RoundEnded, UnoExposed, UnoCaught, ChallengeResolved, PlayerRemoved)


class TableService:
    """All running tables of this bot process and the one path that changes them."""

    def __init__(self, db: Database, settings: UnoSettings, message: TableMessage) -> None:
        self.db = db
        self.settings = settings
        self.message = message
        self.registry = TableRegistry()
        self.timers = TurnTimers(self._expired)
        # X4: each table has its own seeded generator; a fixed TABLE_SEED makes
        # the seeds themselves repeatable, to replay a reported game.
        seed = settings.table_seed
        self._seeds = random.SystemRandom() if seed is None else random.Random(seed)
        self.closing = False  # the bot is shutting down: refuse new actions
        # The table changed, started or was restored: its computer seats may act.
        self.on_moved: Callable[[LiveTable], None] = lambda table: None
        self._undrawn: list[LiveTable] = []  # restored, not yet shown anew (`draw_restored`)

    # -- start and restore ---------------------------------------------------------

    async def start(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: Variant,
        seats: Sequence[tuple[int, str]],
        play: TableOptions,
        message_id: int | None,
        computers: Mapping[int, str] | None = None,
    ) -> LiveTable:
        """Create the match, record it, and show the table (in `message_id` if given).

        `computers`: the computer seats among `seats` and their strengths; a match
        with one is practice (recorded, but on no board and no rating).
        """
        seed = self._seeds.getrandbits(63)
        match = new_match(
            variant, players=[str(u) for u, _ in seats], seed=seed, options=play.engine(variant)
        )
        option_data: dict[str, Any] = {**play.data(), "host_id": host_id}
        if computers:
            option_data["computers"] = {str(uid): strength for uid, strength in computers.items()}
        quiet = await self.db.prefs.without_pings(uid for uid, _ in seats)
        match_id = await self.db.tables.start_match(
            guild_id=guild_id,
            channel_id=channel_id,
            variant=variant,
            options=option_data,
            seed=seed,
            players=[Seat(user_id=uid, display_name=name[:100]) for uid, name in seats],
            state=match.to_snapshot(),
            message_id=message_id,
            practice=bool(computers),
        )
        table = LiveTable(
            match_id=match_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            match=match,
            names={str(uid): name for uid, name in seats},
            options=option_data,
            play=play,
            shown=ShownMessage(message_id=message_id),
            quiet={str(uid) for uid in quiet},
        )
        self.registry.add(table)
        await self.message.placed(table)
        async with table.lock:
            table.deadline = self._next_deadline(table)
            await self.db.tables.set_deadline(match_id, table.deadline)
            self.message.request(table, pace="now")  # the lobby becomes the table at once
            self._moved_on(table, events=[])
        return table

    async def restore_all(self) -> int:
        """Bring back every running table after a restart; return how many."""
        restored = 0
        for running in await self.db.tables.running_tables():
            try:
                table = self._rebuild(running)
            except Exception:
                log.exception("Could not rebuild table %s", running.match.match_id)
                continue
            quiet = await self.db.prefs.without_pings(s.user_id for s in running.match.players)
            table.quiet = {str(uid) for uid in quiet}
            self.registry.add(table)
            self.timers.arm(table)
            self._undrawn.append(table)  # drawn once its server's language is known
            self.on_moved(table)  # a computer resumes its seat
            await self._resume_keeping(table)
            restored += 1
        return restored

    def draw_restored(self) -> int:
        """Show the tables brought back by `restore_all` anew, now that the servers (and
        so the language each table speaks) are known; return how many."""
        undrawn, self._undrawn = self._undrawn, []
        drawn = [table for table in undrawn if not table.closed]
        for table in drawn:
            self.message.request(table, pace="now")
        return len(drawn)

    async def _resume_keeping(self, table: LiveTable) -> None:
        """A stop between a pick and the keep it meant for a "Keep the rest" player: the
        keep is made now, as it would have been then."""
        if not table.keeping:
            return
        try:
            async with table.lock:
                await self._keep_drafting(table)
        except Exception:
            log.exception("Could not resume the draft keeps of table %s", table.match_id)

    def _rebuild(self, running: RunningTable) -> LiveTable:
        match = from_snapshot(json.loads(running.snapshot_json))
        for logged in running.actions:
            replay_logged(match, logged)
        return self.rebuilt(running, match)

    def rebuilt(self, running: RunningTable, match: Match, *, ended: bool = False) -> LiveTable:
        """The table of a stored match whose state `match` was rebuilt (a restart);
        `ended`: a match over before the restart, closed and with no deadline."""
        row = running.match
        options = dict(row.options)
        host = options.get("host_id", row.players[0].user_id)
        waiting = match.waiting_for()
        draft = match.public_view().round
        table = LiveTable(
            match_id=row.match_id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=int(host) if isinstance(host, int | str) else row.players[0].user_id,
            match=match,
            names={str(seat.user_id): seat.display_name for seat in row.players},
            options=options,
            play=TableOptions.from_data(options, turn_seconds=self.settings.turn_seconds),
            shown=ShownMessage(
                message_id=row.message_id,
                message_posted=time.monotonic() - TABLE_REPOST_AGE,  # age unknown: re-post
                last_to_act=waiting[0] if waiting else None,
            ),
            deadline=self._resumed(row.turn_deadline, options),
            keeping={str(user) for user, round_no in running.keepers.items() if round_no == draft},
        )
        if ended:
            table.closed = True
            table.deadline = None
        return table

    # -- acting ------------------------------------------------------------------

    async def act(
        self,
        table: LiveTable,
        player: str,
        action: Action | None,
        version: int | None,
        *,
        wait: float = 2.0,
        rest: bool = False,
    ) -> Outcome:
        """Apply `action` (None: the player leaves, X3) if it is still what they saw.

        `version` None: the control never goes stale (UNO!, /uno leave). `wait`:
        how long the click may wait for the lock before it is refused as busy.
        `rest`: the draft keep is "Keep the rest": this draft's later picks are kept too.
        """
        try:
            async with asyncio.timeout(max(0.0, wait)):
                await table.lock.acquire()
        except TimeoutError:
            return Refused("busy")
        try:
            return await self._act_locked(table, player, action, version, rest=rest)
        finally:
            table.lock.release()

    async def _act_locked(
        self,
        table: LiveTable,
        player: str,
        action: Action | None,
        version: int | None,
        *,
        rest: bool = False,
    ) -> Outcome:
        if table.closed or self.closing or table.match.is_over:
            return Refused("closed")
        ticket = table.answer_order(player).ticket()
        if version is not None and version != table.match.version:
            return Stale(ticket)
        if action is not None:
            try:
                table.match.check(player, action)
            except IllegalAction as refusal:
                return Refused("illegal", refusal_words(refusal), ticket)
        events = await self._apply(table, player, action, timed_out=False, rest=rest)
        self.message.panels.answering(table, player)
        return Accepted(tuple(events), ticket)

    async def _apply(
        self,
        table: LiveTable,
        player: str,
        action: Action | None,
        *,
        timed_out: bool,
        rest: bool = False,
    ) -> list[Event]:
        """Apply and record under the lock; the table moves on once it is saved.

        `rest`: a "Keep the rest" press, stored with the keep (a restart keeps it).
        """
        if action is REMOVE:
            events = table.match.remove_player(player)
            data: dict[str, Any] = {"type": "remove"}
            self.registry.unseat(table, player)
        else:
            events = table.match.apply(player, action)
            data = engine_actions.to_json(action)
        if timed_out:
            data["timeout"] = True
            table.timeouts[player] = table.timeouts.get(player, 0) + 1
        elif action is not REMOVE:
            table.timeouts[player] = 0
            self.message.played(table, player)
        table.deadline = self._next_deadline(table)
        if rest:
            table.keeping.add(player)
        try:
            await self._record(table, player, data, events, rest=rest)
        except Exception:
            # Not saved means not accepted: put the table back as the database has it.
            await self._reload(table)
            raise
        self._moved_on(table, events=events, prompt=timed_out or isinstance(action, CallUno))
        if action is REMOVE and not is_computer(player):
            await self._forfeit_to_computers(table)
        if table.keeping:
            if any(isinstance(e, RoundStarted) for e in events):
                table.keeping.clear()  # a new draft: everyone chooses again
            events += await self._keep_drafting(table)
        return events

    async def _forfeit_to_computers(self, table: LiveTable) -> None:
        """The last human left: the computers don't play on alone, the match ends."""
        seated = [seat.player for seat in table.public().seats if seat.seated]
        if any(not is_computer(player) for player in seated):
            return
        for player in seated:
            if table.closed or table.match.is_over:
                return
            await self._apply(table, player, REMOVE, timed_out=False)

    async def _keep_drafting(self, table: LiveTable) -> list[Event]:
        """ "Keep the rest": the next draft keep of a player who chose it, recorded as its
        own action like a click (and so on, through `_apply`, while it is their pick)."""
        waiting = table.match.waiting_for()
        if not waiting or waiting[0] not in table.keeping or table.match.is_over:
            return []
        player = waiting[0]
        if KeepCard() not in table.match.legal_actions(player):
            return []
        return await self._apply(table, player, KeepCard(), timed_out=False)

    async def _record(
        self,
        table: LiveTable,
        player: str,
        data: dict[str, Any],
        events: list[Event],
        *,
        rest: bool = False,
    ) -> None:
        round_result = None
        results = None
        for event in events:
            if isinstance(event, RoundEnded):
                round_result = RoundResult(
                    round_no=event.round,
                    winner_id=int(event.winner),
                    points={int(p): pts for p, pts in event.points},
                )
            elif isinstance(event, MatchEnded):
                results = match_results(table.match)
        await self.db.tables.record_action(
            table.match_id,
            seq=table.match.version,
            player_id=int(player),
            action=data,
            state=table.match.to_snapshot,
            deadline=table.deadline,
            round_start=any(isinstance(e, RoundStarted) for e in events),
            round_result=round_result,
            results=results,
            keeper_round=table.public().round if rest else None,
        )

    async def _reload(self, table: LiveTable) -> None:
        """Rebuild the table's match from its last saved action (after a failed write)."""
        running = await self.db.tables.running_table(table.match_id)
        if running is None:
            raise RuntimeError(f"table {table.match_id} is no longer running in the database")
        rebuilt = self._rebuild(running)
        table.match, table.keeping = rebuilt.match, rebuilt.keeping
        table.forget_cache()
        self.registry.reseat(table)  # a removal that was not saved did not happen

    def _moved_on(self, table: LiveTable, *, events: Sequence[Event], prompt: bool = False) -> None:
        """Summaries, timers, the table message, other panels and the turn ping: queued.

        The table message shows a public moment (`prompt`: a missed turn, an UNO called
        on its own; PUBLIC_MOMENTS) promptly and ordinary moves at a calmer pace
        (message.py).
        """
        self.message.summaries(table, events)
        if table.match.is_over:
            self._close(table, reason=None, announce=True)
            return
        self.timers.arm(table)
        moment = prompt or any(isinstance(event, PUBLIC_MOMENTS) for event in events)
        self.message.request(table, pace="prompt" if moment else "calm")
        self.message.notify(table)
        self.on_moved(table)

    # -- timers --------------------------------------------------------------------

    def _next_deadline(self, table: LiveTable) -> datetime | None:
        if table.match.is_over:
            return None
        moment = datetime.now(UTC) + timedelta(seconds=self._turn_seconds(table))
        return _whole_second(moment)

    def _turn_seconds(self, table: LiveTable) -> int:
        """The table's own timer (its server's setting), else the bot's default."""
        return self.settings.turn_seconds if table.play is None else table.play.turn_seconds

    def _resumed(self, deadline: datetime | None, options: dict[str, Any]) -> datetime | None:
        """A stored deadline, but never one that passed while the bot was away: nobody
        could click then, so the player gets a short grace instead of a timeout."""
        if deadline is None:
            return None
        seconds = int(options.get("turn_seconds", self.settings.turn_seconds))
        grace = min(RESTART_GRACE, seconds / 2)
        return max(deadline, _whole_second(datetime.now(UTC) + timedelta(seconds=grace)))

    async def _expired(self, table: LiveTable, version: int) -> None:
        async with table.lock:
            if table.closed or self.closing or table.match.version != version:
                return  # closing: the deadline is stored and resumes after the restart
            waiting = table.match.waiting_for()
            if not waiting:
                return
            try:
                await self._time_out(table, waiting[0])
            except Exception:
                log.exception("Timeout handling failed at table %s", table.match_id)

    async def _time_out(self, table: LiveTable, player: str) -> None:
        if table.timeouts.get(player, 0) + 1 >= MAX_TIMEOUTS:
            table.timeouts[player] = 0
            who, mention = self.message.addressed(table, player)
            with speaking(self.message.language(table)):
                content = "⏱️ " + tn(
                    "{player} missed {count} turn in a row and is removed from the table; "
                    "that counts as a forfeit.",
                    "{player} missed {count} turns in a row and is removed from the table; "
                    "that counts as a forfeit.",
                    MAX_TIMEOUTS,
                    player=who,
                )
            await self.message.post(table, content=content, mention=mention)
            await self._apply(table, player, REMOVE, timed_out=False)
            return
        version = table.match.version
        await self._apply(table, player, table.match.timeout_action(player), timed_out=True)
        # A default can leave the same player a follow-up (a drawn card to play or
        # keep): settle it now, as part of the same missed deadline. Only if nobody
        # moved in between: after another's move (a "Keep the rest" keep, made inside
        # `_apply`) their next decision is a new turn, with a deadline of its own.
        for _ in range(3):
            waiting = table.match.waiting_for()
            moved_alone = table.match.version == version + 1
            if table.closed or not waiting or waiting[0] != player or not moved_alone:
                break
            version = table.match.version
            follow_up = table.match.timeout_action(player)
            await self._apply(table, player, follow_up, timed_out=True)
            table.timeouts[player] -= 1

    # -- closing -----------------------------------------------------------------

    def follow_pings(self, user_id: int, *, on: bool) -> None:
        """A table the member plays at follows their `/uno pings` at once."""
        table = self.registry.of_player(user_id)
        if table is None:
            return
        if on:
            table.quiet.discard(str(user_id))
        else:
            table.quiet.add(str(user_id))

    async def leave(self, table: LiveTable, player: str) -> None:
        """`/uno leave`: the player forfeits; a refusal says why not."""
        outcome = await self.act(table, player, REMOVE, None)
        if isinstance(outcome, Refused) and outcome.kind == "busy":
            raise UserFacingError(t("The table is busy with a move — try again in a moment."))
        if not isinstance(outcome, Accepted):
            raise UserFacingError(t("That game is already over."))

    async def end_by(self, table: LiveTable, *, ender: str, language: str) -> None:
        """`/uno end`: closed unscored, its message naming who ended it (in `language`)."""
        with speaking(language):
            reason = t("Ended by {player}; not scored.", player=ender)
        await self.end(table, reason=reason)

    async def end(self, table: LiveTable, *, reason: str) -> bool:
        """Close early, unscored (`/uno end`); False if it had already closed."""
        async with table.lock:
            if table.closed:
                return False
            await self.db.tables.abandon_match(table.match_id)
            self._close(table, reason=reason, announce=True)
            return True

    def _close(self, table: LiveTable, *, reason: str | None, announce: bool) -> None:
        table.closed = True
        self.timers.cancel(table)
        self.registry.remove(table)
        self.on_moved(table)  # its computer seats are let go
        self.message.finish(table, ended=reason, announce=announce)

    async def close_where_gone(self, *, channel_id: int = 0, guild_id: int = 0) -> int:
        """Close the tables of a deleted channel or thread, or of a server the bot left.

        Nothing is scored. Players whose panel is still open read why there; the
        others find out when they next press something (the table is gone).
        """
        gone = [
            table
            for table in self.registry.all()
            if table.channel_id == channel_id or table.guild_id == guild_id
        ]
        for table in gone:
            async with table.lock:
                if table.closed:
                    continue
                await self.db.tables.abandon_match(table.match_id)
                with speaking(self.message.language(table)):
                    reason = t("Its channel is gone; not scored.")
                self._close(table, reason=reason, announce=False)
                log.info("Closed table %s: its channel or server is gone", table.match_id)
            await self.message.panels.tell(
                table,
                N_(
                    "🛑 The game in <#{channel}> was closed because its channel "
                    "was deleted or I left the server. Nothing was scored."
                ),
                channel=table.channel_id,
            )
        return len(gone)

    async def shutdown(self, *, grace: float = 5.0) -> None:
        """Stop timers and edits, and let actions in progress finish (bot closing)."""
        self.closing = True
        self.message.stopped = True
        for table in self.registry.all():
            self.timers.cancel(table)
            self.message.stop_edits(table)

        async def settle(table: LiveTable) -> None:
            async with table.lock:
                pass

        try:
            async with asyncio.timeout(grace):
                await asyncio.gather(*(settle(t) for t in self.registry.all()))
        except TimeoutError:
            log.warning("Some tables were still busy when the bot closed")
        await self.message.settle()


def replay_logged(match: Match, logged: LoggedAction) -> list[Event]:
    """Apply one action read back from the log (a removal too); return its events."""
    data = json.loads(logged.action_json)
    player = str(logged.player_id)
    if data.get("type") == "remove":
        return match.remove_player(player)
    return match.apply_logged(player, engine_actions.from_json(data))


def _whole_second(moment: datetime) -> datetime:
    """Deadlines are shown to the second (`<t:…:R>`); keeping them whole makes the one
    in memory and the one stored (milliseconds) render the same after a restart."""
    return moment.replace(microsecond=0)
