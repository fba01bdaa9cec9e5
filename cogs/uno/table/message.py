"""The table message: rendered, edited in coalesced bursts, re-posted when old or buried.

Also what else the channel sees of a table: round and match summaries, the turn
ping, and the other players' open panels kept fresh, all sent by one worker
per table, outside the table's lock and always from its latest state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import aiohttp
import discord

from cogs.uno import render
from cogs.uno.clock import call_at
from cogs.uno.i18n.l10n import N_, guild_language, speaking, t
from cogs.uno.table.computer_ids import is_computer
from cogs.uno.table.panels import HandPanels
from cogs.uno.table.running import LiveTable
from cogs.uno.transport import channel, payloads, raw_http
from cogs.uno.transport.budget import budget
from cogs.uno.transport.priority import Priority, priority
from db.database import Database
from db.errors import DatabaseError
from engine.events import Event, MatchEnded, RoundEnded

log = logging.getLogger(__name__)
TOO_MANY = 429

Pace = Literal["now", "prompt", "calm"]

# How the table message follows the game. Each edit takes its slot in the process's
# request budget before it is drawn, so it shows the newest state when it is sent: the
# moves made while it waited ride along (that is the coalescing, and it grows as the
# budget fills). While the budget is under half used, a change of turn is shown within
# TABLE_GATHER + TABLE_EDIT_INTERVAL of the move.
TABLE_GATHER = 0.25  # a move's burst (a play, its UNO call, the computer's answer) gathered
TABLE_EDIT_INTERVAL = 1.25  # never closer: a channel allows 5 edits per 5 s
# Above half the budget, ordinary moves wait longer between edits, up to this at a full
# budget; public moments keep TABLE_EDIT_INTERVAL and go ahead of them in the budget.
TABLE_EDIT_INTERVAL_FULL = 8.0
# An ordinary edit put off that way is looked at again this often: a burst that filled
# the budget (a restart, a first start's emoji uploads) delays it only while it lasts.
TABLE_RECHECK = 2.0
HALF = 0.5
TABLE_REPOST_AGE = 50 * 60  # messages older than an hour allow only a few edits
TABLE_BURIED_AFTER = 12  # channel messages posted below the table before it moves down
# What every open hand panel says once its table closed (marked for the catalogue).
MATCH_OVER = N_("🏁 The match is over: its summary and the scores are in <#{channel}>.")
TABLE_CLOSED = N_(
    "🛑 This table was closed before the match ended; nothing was scored. "
    "Start a new game with `/uno duo`, `/uno pizza` or `/uno classic`."
)


class TableMessage:
    """Everything a table shows in its channel."""

    def __init__(
        self,
        client: discord.Client,
        panels: HandPanels,
        db: Database,
    ) -> None:
        self.client = client
        self.panels = panels
        self.db = db
        self._tasks: set[asyncio.Task[None]] = set()
        self._outbox: dict[int, list[dict[str, Any]]] = {}
        # The bot is closing: an action or a start finishing now asks for no more edits,
        # which would meet the database closed after it.
        self.stopped = False
        # The buttons a match that ended by being played out keeps (Rematch), if any: the
        # offer behind them is stored before they are shown.
        self.final_buttons: Callable[[LiveTable], Awaitable[list[render.ButtonSpec]]] | None = None
        # The buttons under a match summary (the history's Replay), given a match id.
        self.summary_buttons: Callable[[int], list[render.ButtonSpec]] | None = None

    def language(self, table: LiveTable) -> str:
        """The language of everything the channel sees of `table`: the server's."""
        return guild_language(self.client.get_guild(table.guild_id))

    # -- the table message -----------------------------------------------------------

    def request(self, table: LiveTable, *, pace: Pace = "calm") -> None:
        """Ask for a table message edit; edits are coalesced (module constants).

        `pace`: "now" (a table just started or restored), "prompt" (a public moment:
        a round's start or end, an UNO exposed, called on its own or caught, a challenge's
        verdict, a player leaving, a missed turn, the message buried), "calm" (an
        ordinary move).
        """
        if self.stopped:
            return
        shown = table.shown
        loop = asyncio.get_running_loop()
        now = loop.time()
        if shown.behind_since is None:
            shown.behind_since = now
        shown.prompt_pending = shown.prompt_pending or pace != "calm"
        if shown.waiting is not None:
            # An edit waits for its slot and will draw the newest state: a moment hurries it.
            if pace != "calm":
                shown.waiting.raise_to(Priority.MOMENT)
            return
        due = _due(pace, now=now, last=shown.last_edit, load=budget().load())
        shown.edit_due = min(shown.edit_due, due)
        self._arm(table, loop)

    def _arm(self, table: LiveTable, loop: asyncio.AbstractEventLoop) -> None:
        if table.shown.flusher is not None:
            return  # armed again when the edit in flight is done
        timer = table.shown.edit_timer
        wake = min(table.shown.edit_due, loop.time() + TABLE_RECHECK)
        if timer is not None:
            if timer.when() <= wake:
                return  # it fires first and looks again (`_edit_due`)
            timer.cancel()
        table.shown.edit_timer = call_at(wake, self._edit_due, table)

    def _edit_due(self, table: LiveTable) -> None:
        shown = table.shown
        shown.edit_timer = None
        if shown.behind_since is None or table.closed or self.stopped:
            return
        now = asyncio.get_running_loop().time()
        if not shown.prompt_pending:  # an ordinary edit put off by a busy budget
            load = budget().load()  # may have eased since it was asked for
            again = _due("calm", now=shown.behind_since, last=shown.last_edit, load=load)
            shown.edit_due = min(shown.edit_due, again)
        if shown.edit_due > now:
            wake = min(shown.edit_due, now + TABLE_RECHECK)
            shown.edit_timer = call_at(wake, self._edit_due, table)
            return
        table.shown.flusher = asyncio.create_task(
            self._edit(table), name=f"uno-table-{table.match_id}"
        )

    async def _edit(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        shown = table.shown
        level = Priority.MOMENT if shown.prompt_pending else Priority.EDIT
        ticket = shown.waiting = budget().ticket(level)
        try:
            await ticket.wait()
        except asyncio.CancelledError:
            budget().forget(ticket)
            raise
        finally:
            shown.waiting = None
        # Drawn now, after the wait: everything asked for until here is in it.
        shown.behind_since, shown.prompt_pending = None, False
        shown.edit_due, shown.last_edit = math.inf, loop.time()
        if table.panels.behind:
            self.notify(table, catch_up=True)  # waiting players' panels follow the table
        try:
            with budget().spending(ticket), priority(ticket.priority):
                await self.render_now(table, ended=None)
        except (discord.RateLimited, discord.HTTPException) as error:
            if isinstance(error, discord.HTTPException) and error.status != TOO_MANY:
                log.exception("Table message update failed for table %s", table.match_id)
            else:  # still limited after discord.py's own tries (the fast paths off)
                log.warning("Table %s's message waits: %s", table.match_id, error)
                self._behind(table, loop)
        except Exception:
            log.exception("Table message update failed for table %s", table.match_id)
        finally:
            budget().settle(ticket)  # no edit left with it (none was due, or it failed)
            shown.flusher = None  # a finished task is kept by nothing but the table
        if shown.behind_since is not None and not table.closed and not self.stopped:
            self._arm(table, loop)

    @staticmethod
    def _behind(table: LiveTable, loop: asyncio.AbstractEventLoop) -> None:
        """The edit did not go: the table is behind again, shown at the next interval."""
        shown = table.shown
        shown.behind_since = shown.behind_since or loop.time()
        due = _due("calm", now=loop.time(), last=shown.last_edit, load=budget().load())
        shown.edit_due = min(shown.edit_due, due)

    def _payload(
        self, table: LiveTable, ended: str | None, final: Sequence[render.ButtonSpec]
    ) -> dict[str, Any]:
        with speaking(self.language(table)):
            return self._payload_words(table, ended, final)

    def _payload_words(
        self, table: LiveTable, ended: str | None, final: Sequence[render.ButtonSpec]
    ) -> dict[str, Any]:
        view = table.public()
        embed = render.table_embed(
            view,
            names=table.names,
            table_id=table.match_id,
            deadline=table.deadline,
            options="" if table.play is None else table.play.words(),
            missed=table.timeouts,
        )
        if ended:
            embed.add_field(name=t("Table closed"), value=ended[:1024], inline=False)
        specs = list(final)
        if not table.closed:
            specs = render.table_components(view, table_id=table.match_id)
        return {"content": None, "embeds": [embed.to_dict()], "components": payloads.rows(specs)}

    async def render_now(
        self, table: LiveTable, *, ended: str | None, final: Sequence[render.ButtonSpec] = ()
    ) -> None:
        """Show the table now; `final`: the buttons a closed table keeps (Rematch)."""
        payload = self._payload(table, ended, final)
        old = table.shown.message_id is not None and (
            time.monotonic() - table.shown.message_posted > TABLE_REPOST_AGE
            or table.shown.messages_below >= TABLE_BURIED_AFTER
        )
        if table.shown.message_id is not None and not old:
            try:
                # Straight, on a kept-alive connection: nothing parsed from the answer.
                await raw_http.edit_message(
                    self.client, table.channel_id, table.shown.message_id, payload
                )
                return
            except discord.NotFound:
                pass  # deleted: post a new one below
        await self._repost(table, payload)

    async def _repost(self, table: LiveTable, payload: dict[str, Any]) -> None:
        """Post the table anew below, then take the old message away.

        The new message's buttons come disabled and are enabled once its id is known
        and stored: a click on it before then would read as one on an old table message
        (which loses its buttons), and a restart in between would not know it.
        """
        old_id = table.shown.message_id
        components = payload["components"]
        posted = {**payload, "components": payloads.disabled(components)}
        try:
            sent = await channel.post(self.client, table.channel_id, posted)
        except discord.HTTPException:
            log.exception("Could not post the table message of table %s", table.match_id)
            return
        table.shown.message_id = int(sent["id"])
        table.shown.message_posted = time.monotonic()
        table.shown.messages_below = 0
        await self._posted(table, table.shown.message_id)
        if not table.closed:
            await self.db.tables.set_table_message(table.match_id, table.shown.message_id)
        if components:
            try:
                await raw_http.edit_message(
                    self.client,
                    table.channel_id,
                    table.shown.message_id,
                    {"components": components},
                )
            except discord.HTTPException as error:
                log.warning("Could not enable table %s's buttons: %s", table.match_id, error)
                self.request(table, pace="prompt")  # the next edit draws them again
        if old_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.delete(self.client, table.channel_id, old_id)
            await self._retired(old_id)

    async def _posted(self, table: LiveTable, message_id: int) -> None:
        """Remember a message with buttons, so a restart can retire it if the table died."""
        if table.closed:
            return
        try:
            await self.db.table_messages.posted(
                match_id=table.match_id, channel_id=table.channel_id, message_id=message_id
            )
        except DatabaseError as error:
            log.warning("Could not note the table message of table %s: %s", table.match_id, error)

    async def _retired(self, message_id: int) -> None:
        try:
            await self.db.table_messages.retired(message_id)
        except DatabaseError as error:
            log.warning("Could not note table message %s retired: %s", message_id, error)

    def played(self, table: LiveTable, player: str) -> None:
        """`player` acted in time: a missed turn may ping them again."""
        table.shown.warned.discard(player)

    def shown_in_place(self, table: LiveTable) -> None:
        """The message stays where it is: its next state is edited in, not re-posted."""
        table.shown.message_posted = time.monotonic()

    async def placed(self, table: LiveTable) -> None:
        """The table took over its lobby's message: note it as a message with buttons."""
        if table.shown.message_id is not None:
            await self._posted(table, table.shown.message_id)

    async def retire_ended(self) -> int:
        """At start-up: table messages whose match is over lose their buttons."""
        rows = await self.db.table_messages.of_ended_matches()
        for row in rows:
            with contextlib.suppress(discord.HTTPException), priority(Priority.EDIT):
                await channel.edit(self.client, row.channel_id, row.message_id, {"components": []})
            await self.db.table_messages.retired(row.message_id)
        return len(rows)

    async def retire_replaced(self) -> int:
        """At start-up: old messages of running tables, posted again below since, go."""
        rows = await self.db.table_messages.of_replaced()
        for row in rows:
            with contextlib.suppress(discord.HTTPException), priority(Priority.EDIT):
                await channel.delete(self.client, row.channel_id, row.message_id)
            await self.db.table_messages.retired(row.message_id)
        return len(rows)

    def note_channel_message(self, table: LiveTable | None, author_id: int) -> None:
        """Count messages that push the table up; the next update re-posts it at the bottom."""
        if table is None or author_id == getattr(self.client.user, "id", None):
            return
        table.shown.messages_below += 1
        if table.shown.messages_below == TABLE_BURIED_AFTER:
            self.request(table, pace="prompt")

    @staticmethod
    def stop_edits(table: LiveTable) -> None:
        """No more coalesced edits or refreshes for `table` (closed, or the bot stops)."""
        if table.shown.edit_timer is not None:
            table.shown.edit_timer.cancel()
            table.shown.edit_timer = None
        for task in (table.shown.flusher, table.shown.notifier):
            if task is not None:
                task.cancel()

    def finish(self, table: LiveTable, *, ended: str | None, announce: bool) -> None:
        """The table closed: its last state without buttons, and the ping goes."""
        self.stop_edits(table)
        if announce:
            self._spawn(self._finish(table, ended), f"uno-close-{table.match_id}")

    async def finish_now(self, table: LiveTable) -> None:
        """Show the end of a match played out (`finish`, awaited): after a restart."""
        await self._finish(table, None)

    async def _finish(self, table: LiveTable, ended: str | None) -> None:
        played_out = ended is None and table.match.is_over
        await self._send_outbox(table)
        try:
            final: list[render.ButtonSpec] = []
            if played_out and self.final_buttons is not None:
                with speaking(self.language(table)):  # the buttons' words: the channel's
                    final = await self.final_buttons(table)
            with priority(Priority.MOMENT):  # the table's last state: a public moment
                await self.render_now(table, ended=ended, final=final)
            await self._delete_ping(table)
        except discord.HTTPException as error:
            log.warning("Could not show that table %s closed: %s", table.match_id, error)
            if played_out:
                await self._shown(table)  # Discord refused: a restart would fare no better
        except (aiohttp.ClientError, RuntimeError) as error:
            # RuntimeError: the HTTP session closed under us while the bot shuts down. A
            # match played out is still owed its end: the next start shows it.
            log.warning("Could not show that table %s closed: %s", table.match_id, error)
        else:
            if table.shown.message_id is not None:
                await self._retired(table.shown.message_id)
            if played_out:
                await self._shown(table)
        # Open panels still show the last move's buttons: they say it is over instead.
        if ended is None:
            await self.panels.tell(table, MATCH_OVER, channel=table.channel_id)
        else:
            await self.panels.tell(table, TABLE_CLOSED)

    async def _shown(self, table: LiveTable) -> None:
        """The end of a match played out was shown: a restart need not show it again."""
        try:
            await self.db.tables.ending_shown(table.match_id)
        except DatabaseError as error:
            log.warning("Could not note the end of table %s shown: %s", table.match_id, error)

    def summaries(self, table: LiveTable, events: Sequence[Event]) -> None:
        """Queue the round and match summaries `events` call for, in the channel's language."""
        for event in events:
            replay = None
            with speaking(self.language(table)):
                if isinstance(event, RoundEnded):
                    summary = render.round_summary(event, table.names, table.variant)
                elif isinstance(event, MatchEnded):
                    summary = render.match_summary(
                        event, table.names, table.variant, match_id=table.match_id
                    )
                    if self.summary_buttons is not None:
                        replay = payloads.rows(self.summary_buttons(table.match_id))
                else:
                    continue
            self.post_later(table, summary, replay)

    # -- summaries, pings and the others' panels --------------------------------------

    def post_later(
        self, table: LiveTable, embed: discord.Embed, components: payloads.Rows | None = None
    ) -> None:
        """Queue a summary for the channel, sent in order by the table's worker."""
        payload: dict[str, Any] = {"embeds": [embed.to_dict()], "allowed_mentions": {"parse": []}}
        if components:
            payload["components"] = components
        self._outbox.setdefault(table.match_id, []).append(payload)
        self.notify(table)

    async def post(
        self, table: LiveTable, *, content: str, mention: str | None = None
    ) -> int | None:
        users = [mention] if mention else []
        payload = {"content": content, "allowed_mentions": {"parse": [], "users": users}}
        try:
            sent = await channel.post(self.client, table.channel_id, payload)
        except discord.HTTPException:
            log.exception(
                "Could not post to channel %s (table %s)", table.channel_id, table.match_id
            )
            return None
        return int(sent["id"])

    def notify(self, table: LiveTable, *, catch_up: bool = False) -> None:
        """Summaries, other players' panels and the turn ping, by one worker per table.

        `catch_up`: also the panels of waiting players whose hand changed (they were left
        for the table's pace: nothing for them to decide until their turn).
        """
        table.shown.notify_pending = True
        table.shown.catch_up = table.shown.catch_up or catch_up
        if table.shown.notifier is None or table.shown.notifier.done():
            table.shown.notifier = asyncio.create_task(
                self._notify(table), name=f"uno-notify-{table.match_id}"
            )

    async def _notify(self, table: LiveTable) -> None:
        # Started by an action whose click is still being answered: that answer, and those
        # of the other clicks saved in the same commit, go out first. The worker's panels
        # would otherwise be drawn and sent ahead of them.
        await asyncio.sleep(0)
        while table.shown.notify_pending and not table.closed:
            table.shown.notify_pending = False
            everyone, table.shown.catch_up = table.shown.catch_up, False
            try:
                await self._send_outbox(table)
                await self.panels.refresh_others(table, everyone=everyone)
                if table.panels.behind and table.shown.behind_since is None:
                    table.shown.catch_up = table.shown.notify_pending = (
                        True  # no table edit to wait for
                    )
                await self._ping_turn(table)
            except Exception:
                log.exception("Notifying the players of table %s failed", table.match_id)
        if table.shown.notifier is asyncio.current_task():
            table.shown.notifier = None
        # Every panel of this state is drawn: what was worked out for it (the public view,
        # the seats and last moves in words, the panel signatures) would only sit in
        # memory while the players think. A later click redraws what it needs.
        table.trim_cache()

    async def _send_outbox(self, table: LiveTable) -> None:
        for payload in self._outbox.pop(table.match_id, []):
            try:
                await channel.post(self.client, table.channel_id, payload)
            except discord.HTTPException:
                log.exception("Could not post a summary for table %s", table.match_id)

    async def _ping_turn(self, table: LiveTable) -> None:
        """Mention the player whose turn starts, once per turn and only them."""
        waiting = table.match.waiting_for()
        to_act = waiting[0] if waiting else None
        missed = table.timeouts.get(to_act, 0) if to_act is not None else 0
        # A missed deadline is news even when the same player is to act again (another's
        # "Keep the rest" keep came in between, unseen by this worker): it is warned of.
        if to_act is None or (to_act, missed) == (table.shown.last_to_act, table.shown.last_missed):
            return
        table.shown.last_to_act, table.shown.last_missed = to_act, missed
        if is_computer(to_act):
            return  # nobody to ping: the computer moves on its own (computers.py)
        if missed and to_act in table.shown.warned:
            return  # warned once already: no more pings until they play again
        panel = table.panels.by_player.get(to_act)
        if not missed and panel is not None and panel.alive:
            return  # their open panel was just refreshed: no need to ping
        await self._delete_ping(table)
        who, mention = self.addressed(table, to_act)
        with speaking(self.language(table)):
            if missed:
                table.shown.warned.add(to_act)
                content = "⏱️ " + t(
                    "{player}, your time ran out: missed {count} of {limit} turns in a row. "
                    "Press **Hand** to play; at {limit} you leave the match.",
                    player=who,
                    count=missed,
                    limit=render.MAX_MISSED,
                )
            else:
                content = "🔔 " + t(
                    "{player}, it's your turn — press **Hand** to see your cards.", player=who
                )
        table.shown.ping_message_id = await self.post(table, content=content, mention=mention)

    @staticmethod
    def addressed(table: LiveTable, player: str) -> tuple[str, str | None]:
        """How a ping names `player`, and whom it mentions: the server may ask for names
        only, and a member who turned pings off (`/uno pings off`) is never mentioned."""
        mentions = table.play is None or table.play.mentions
        if mentions and player not in table.quiet:
            return f"<@{player}>", player
        return f"**{render.escaped_name(table.names, player)}**", None

    async def _delete_ping(self, table: LiveTable) -> None:
        if table.shown.ping_message_id is None:
            return
        ping_id, table.shown.ping_message_id = table.shown.ping_message_id, None
        with contextlib.suppress(discord.HTTPException), priority(Priority.EDIT):
            await channel.delete(self.client, table.channel_id, ping_id)

    def _spawn(self, work: Any, name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Let closing edits finish (the bot is shutting down)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=3)


def _due(pace: Pace, *, now: float, last: float, load: float = 0.0) -> float:
    """When the edit asked for at `now` goes: the table was last edited at `last`, and
    the request budget is `load` used (1: full)."""
    if pace == "now":
        return now
    interval = TABLE_EDIT_INTERVAL if pace == "prompt" else edit_interval(load)
    return max(now + TABLE_GATHER, last + interval)


def edit_interval(load: float) -> float:
    """An ordinary edit's interval: TABLE_EDIT_INTERVAL under half the budget, growing
    to TABLE_EDIT_INTERVAL_FULL at a full one."""
    over = min(max(load - HALF, 0.0), HALF) / HALF
    return TABLE_EDIT_INTERVAL + over * (TABLE_EDIT_INTERVAL_FULL - TABLE_EDIT_INTERVAL)
