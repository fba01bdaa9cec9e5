"""Running tables: one lock each, the engine, the database and Discord in step.

Every accepted action is applied under the table's lock, written to SQLite,
and only then confirmed to the player. Table message edits are coalesced;
turn timers live here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters

from cogs.uno import render
from cogs.uno.views import build_view
from db.database import Database
from db.models import Outcome, PlayerResult, RoundResult, RunningTable, Seat
from engine import actions as engine_actions
from engine.actions import Action
from engine.events import Event, MatchEnded, RoundEnded, RoundStarted
from engine.match import DuoOptions, Match, PizzaOptions, Variant, from_snapshot, new_match

log = logging.getLogger(__name__)

PANEL_TOKEN_LIFE = 14 * 60  # Discord tokens die at 15 minutes; keep a safety margin
TABLE_EDIT_INTERVAL = 1.2  # about 5 edits per 5 s per channel are allowed
TABLE_REPOST_AGE = 50 * 60  # messages older than an hour allow only a few edits
TABLE_BURIED_AFTER = 12  # channel messages posted below the table before it moves down
MAX_TIMEOUTS = 3  # DESIGN.md: removed after 3 timeouts in a row
RESTART_GRACE = 20  # seconds to decide after a restart, if the deadline passed meanwhile


@dataclass(slots=True)
class Panel:
    """A player's latest hand panel, editable through its interaction token while alive.

    Only the token's webhook is kept, not the Interaction with its whole message.
    """

    webhook: discord.Webhook
    opened: float  # time.monotonic() of the interaction
    signature: tuple[Any, ...] = ()

    @property
    def alive(self) -> bool:
        return time.monotonic() - self.opened < PANEL_TOKEN_LIFE


@dataclass(slots=True)
class Table:
    """One running match in one channel."""

    match_id: int
    guild_id: int
    channel_id: int
    host_id: int
    match: Match
    names: dict[str, str]
    options: dict[str, Any]
    message_id: int | None = None
    message_posted: float = field(default_factory=time.monotonic)
    messages_below: int = 0  # others' messages since the table was posted
    deadline: datetime | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timeouts: dict[str, int] = field(default_factory=dict)
    panels: dict[str, Panel] = field(default_factory=dict)
    timer: asyncio.Task[None] | None = None
    flusher: asyncio.Task[None] | None = None
    dirty: bool = False
    notifier: asyncio.Task[None] | None = None
    notify_pending: bool = False
    last_to_act: str | None = None
    ping_message_id: int | None = None
    closed: bool = False

    @property
    def variant(self) -> Variant:
        return self.match.variant

    def seated(self, user_id: int) -> bool:
        """Whether the member still plays here; one who left or was removed (X3) does not."""
        player = str(user_id)
        return any(seat.player == player and seat.seated for seat in self.match.public_view().seats)


class TableManager:
    """All tables of this bot process, by match id and by channel."""

    def __init__(
        self,
        client: discord.Client,
        db: Database,
        *,
        turn_seconds: int,
        table_seed: int | None = None,
    ) -> None:
        self.client = client
        self.db = db
        self.turn_seconds = turn_seconds
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.by_player: dict[int, int] = {}  # user id -> match id, while seated
        # X4: each table has its own seeded generator; a fixed TABLE_SEED makes
        # the seeds themselves repeatable, to replay a reported game.
        self._seeds = random.SystemRandom() if table_seed is None else random.Random(table_seed)
        self.closing = False  # the bot is shutting down: refuse new actions

    # -- lookup ------------------------------------------------------------------

    def in_channel(self, channel_id: int) -> Table | None:
        match_id = self.by_channel.get(channel_id)
        return None if match_id is None else self.tables.get(match_id)

    def of_player(self, user_id: int) -> Table | None:
        match_id = self.by_player.get(user_id)
        return None if match_id is None else self.tables.get(match_id)

    def _seat_all(self, table: Table) -> None:
        self.tables[table.match_id] = table
        self.by_channel[table.channel_id] = table.match_id
        for seat in table.match.public_view().seats:
            if seat.seated:
                self.by_player[int(seat.player)] = table.match_id

    def _unseat(self, table: Table, player: str) -> None:
        if self.by_player.get(int(player)) == table.match_id:
            del self.by_player[int(player)]

    # -- start and restore ---------------------------------------------------------

    async def start(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: Variant,
        seats: Sequence[tuple[int, str]],
        target: int,
        message: discord.Message | None,
    ) -> Table:
        """Create the match, record it, and show the table (in `message` if given)."""
        seed = self._seeds.getrandbits(63)
        options: DuoOptions | PizzaOptions = (
            DuoOptions(target=target) if variant == "duo" else PizzaOptions(target=target)
        )
        players = [str(user_id) for user_id, _ in seats]
        match = new_match(variant, players=players, seed=seed, options=options)
        option_data = {"target": target, "host_id": host_id}
        match_id = await self.db.tables.start_match(
            guild_id=guild_id,
            channel_id=channel_id,
            variant=variant,
            options=option_data,
            seed=seed,
            players=[Seat(user_id=uid, display_name=name[:100]) for uid, name in seats],
            state=match.to_snapshot(),
            message_id=message.id if message else None,
        )
        table = Table(
            match_id=match_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            match=match,
            names={str(uid): name for uid, name in seats},
            options=option_data,
            message_id=message.id if message else None,
        )
        self._seat_all(table)
        async with table.lock:
            table.deadline = self._next_deadline(table)
            await self.db.tables.set_deadline(match_id, table.deadline)
            await self._after_change(table, events=[])
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
            self._seat_all(table)
            self._arm_timer(table)
            self.request_render(table)
            restored += 1
        return restored

    def _rebuild(self, running: RunningTable) -> Table:
        match = from_snapshot(json.loads(running.snapshot_json))
        for logged in running.actions:
            data = json.loads(logged.action_json)
            player = str(logged.player_id)
            if data.get("type") == "remove":
                match.remove_player(player)
            else:
                match.apply(player, engine_actions.from_json(data))
        row = running.match
        options = dict(row.options)
        return Table(
            match_id=row.match_id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=int(options.get("host_id", row.players[0].user_id)),  # type: ignore[arg-type]
            match=match,
            names={str(seat.user_id): seat.display_name for seat in row.players},
            options=options,
            message_id=row.message_id,
            message_posted=time.monotonic() - TABLE_REPOST_AGE,  # age unknown: re-post
            deadline=self._resumed(row.turn_deadline),
            last_to_act=_first(match.waiting_for()),
        )

    # -- actions -----------------------------------------------------------------

    async def apply(
        self,
        table: Table,
        player: str,
        action: Action | None,
        *,
        timed_out: bool = False,
        respond: Callable[[], Any] | None = None,
    ) -> list[Event]:
        """Apply an action (None: remove the player, X3) under the caller's lock.

        The action is checked by the engine (raises IllegalAction, nothing
        changes), written to the database, then `respond` runs, then Discord
        catches up.
        """
        assert table.lock.locked()
        if action is None:
            events = table.match.remove_player(player)
            data: dict[str, Any] = {"type": "remove"}
            self._unseat(table, player)
        else:
            events = table.match.apply(player, action)
            data = engine_actions.to_json(action)
        if timed_out:
            data["timeout"] = True
            table.timeouts[player] = table.timeouts.get(player, 0) + 1
        elif action is not None:
            table.timeouts[player] = 0
        table.deadline = self._next_deadline(table)
        try:
            await self._record(table, player, data, events)
        except Exception:
            # Not saved means not accepted: put the table back as the database has it.
            await self._reload(table)
            raise
        try:
            if respond is not None:
                await respond()
        finally:
            # Saved means accepted: the table moves on even if the answer was lost.
            await self._after_change(table, events=events)
        return events

    def _resumed(self, deadline: datetime | None) -> datetime | None:
        """A stored deadline, but never one that passed while the bot was away: nobody
        could click then, so the player gets a short grace instead of a timeout."""
        if deadline is None:
            return None
        grace = min(RESTART_GRACE, self.turn_seconds / 2)
        return max(deadline, _whole_second(datetime.now(UTC) + timedelta(seconds=grace)))

    async def _reload(self, table: Table) -> None:
        """Rebuild the table's match from its last saved action (after a failed write)."""
        running = await self.db.tables.running_table(table.match_id)
        if running is None:
            raise RuntimeError(f"table {table.match_id} is no longer running in the database")
        table.match = self._rebuild(running).match

    async def _record(
        self, table: Table, player: str, data: dict[str, Any], events: list[Event]
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
                results = match_results(table.variant, event)
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
        )

    def _next_deadline(self, table: Table) -> datetime | None:
        if table.match.is_over:
            return None
        return _whole_second(datetime.now(UTC) + timedelta(seconds=self.turn_seconds))

    async def _after_change(self, table: Table, *, events: list[Event]) -> None:
        """Summaries, timers, the table message, other panels and the turn ping."""
        for event in events:
            if isinstance(event, RoundEnded):
                await self._post(
                    table, embed=render.round_summary(event, table.names, table.variant)
                )
            elif isinstance(event, MatchEnded):
                await self._post(
                    table, embed=render.match_summary(event, table.names, table.variant)
                )
        if table.match.is_over:
            await self.close(table, reason=None)
            return
        self._arm_timer(table)
        self.request_render(table)
        self.request_notify(table)

    # -- closing -----------------------------------------------------------------

    async def close(self, table: Table, *, reason: str | None, announce: bool = True) -> None:
        """Stop the table; `reason` set means it was ended early (not scored).

        `announce=False`: the channel is gone, so there is no table message to update.
        """
        if table.closed:
            return
        table.closed = True
        if reason is not None:
            await self.db.tables.abandon_match(table.match_id)
        if table.timer is not None:
            table.timer.cancel()
        self.tables.pop(table.match_id, None)
        if self.by_channel.get(table.channel_id) == table.match_id:
            del self.by_channel[table.channel_id]
        for player in table.match.players:
            self._unseat(table, player)
        if not announce:
            return
        try:
            await self._render_now(table, ended=reason)
            await self._delete_ping(table)
        except (discord.HTTPException, aiohttp.ClientError):
            log.warning("Could not show that table %s closed", table.match_id, exc_info=True)

    async def close_where_gone(self, *, channel_id: int = 0, guild_id: int = 0) -> int:
        """Close the tables of a deleted channel or thread, or of a server the bot left.

        Nothing is scored. Players whose panel is still open read why there; the
        others find out when they next press something (the table is gone).
        """
        gone = [
            table
            for table in list(self.tables.values())
            if table.channel_id == channel_id or table.guild_id == guild_id
        ]
        for table in gone:
            async with table.lock:
                if table.closed:
                    continue
                await self.close(table, reason="Its channel is gone; not scored.", announce=False)
                log.info("Closed table %s: its channel or server is gone", table.match_id)
                await self._tell_panels(
                    table,
                    f"🛑 The game in <#{table.channel_id}> was closed because its channel "
                    "was deleted or I left the server. Nothing was scored.",
                )
        return len(gone)

    async def _tell_panels(self, table: Table, text: str) -> None:
        """Replace every open hand panel of the table with a notice."""
        for panel in table.panels.values():
            if not panel.alive:
                continue
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError):
                # "@original": the interaction's own response (discord.py types only ids).
                await panel.webhook.edit_message(  # type: ignore[call-overload]
                    "@original",
                    content=text,
                    embed=None,
                    view=None,
                )
        table.panels.clear()

    # -- timers ------------------------------------------------------------------

    def _arm_timer(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.deadline is None or table.match.is_over:
            return
        table.timer = asyncio.create_task(
            self._expire(table, table.match.version, table.deadline),
            name=f"uno-timer-{table.match_id}",
        )

    async def _expire(self, table: Table, version: int, deadline: datetime) -> None:
        delay = (deadline - datetime.now(UTC)).total_seconds()
        await asyncio.sleep(max(0.0, delay))
        async with table.lock:
            if table.closed or table.match.version != version:
                return
            table.timer = None  # this task is finishing; apply() re-arms a fresh one
            waiting = table.match.waiting_for()
            if not waiting:
                return
            player = waiting[0]
            try:
                if table.timeouts.get(player, 0) + 1 >= MAX_TIMEOUTS:
                    table.timeouts[player] = 0
                    await self._post(
                        table,
                        content=f"⏱️ <@{player}> missed {render.plural(MAX_TIMEOUTS, 'turn')} "
                        "in a row and is removed from the table (a forfeit, X3).",
                        mention=player,
                    )
                    await self.apply(table, player, None)
                else:
                    action = table.match.timeout_action(player)
                    await self.apply(table, player, action, timed_out=True)
                    # A default can leave the same player a follow-up (a drawn card to
                    # play or keep): settle it now, as part of the same missed deadline.
                    for _ in range(3):
                        if table.closed or _first(table.match.waiting_for()) != player:
                            break
                        follow_up = table.match.timeout_action(player)
                        await self.apply(table, player, follow_up, timed_out=True)
                        table.timeouts[player] -= 1
            except Exception:
                log.exception("Timeout handling failed at table %s", table.match_id)

    # -- Discord side ------------------------------------------------------------

    def channel(self, table: Table) -> discord.abc.Messageable:
        channel = self.client.get_channel(table.channel_id)
        if channel is None:
            return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _post(
        self,
        table: Table,
        *,
        content: str | None = None,
        embed: discord.Embed | None = None,
        mention: str | None = None,
    ) -> discord.Message | None:
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(int(mention))] if mention else False
        )
        try:
            return await self.channel(table).send(
                content=content,
                embed=discord.utils.MISSING if embed is None else embed,
                allowed_mentions=mentions,
            )
        except discord.HTTPException:
            log.exception(
                "Could not post to channel %s (table %s)", table.channel_id, table.match_id
            )
            return None

    def request_render(self, table: Table) -> None:
        """Ask for a table message edit; bursts collapse into one edit per interval."""
        table.dirty = True
        if table.flusher is None or table.flusher.done():
            table.flusher = asyncio.create_task(
                self._flush(table), name=f"uno-table-{table.match_id}"
            )

    async def _flush(self, table: Table) -> None:
        while table.dirty and not table.closed:
            table.dirty = False
            try:
                await self._render_now(table, ended=None)
            except Exception:
                log.exception("Table message update failed for table %s", table.match_id)
            await asyncio.sleep(TABLE_EDIT_INTERVAL)

    async def _render_now(self, table: Table, *, ended: str | None) -> None:
        view = table.match.public_view()
        embed = render.table_embed(
            view, names=table.names, table_id=table.match_id, deadline=table.deadline
        )
        if ended:
            embed.add_field(name="Table closed", value=ended[:1024], inline=False)
        specs = [] if table.closed else render.table_components(view, table_id=table.match_id)
        ui = build_view(specs)
        old = table.message_id is not None and (
            time.monotonic() - table.message_posted > TABLE_REPOST_AGE
            or table.messages_below >= TABLE_BURIED_AFTER
        )
        if table.message_id is not None and not old:
            # The raw edit: the bot never reads the edited message back, and building a
            # Message from Discord's answer was a fifth of the bot's CPU under load.
            params = handle_message_parameters(content=None, embed=embed, view=ui)
            try:
                with params:
                    await self.client.http.edit_message(
                        table.channel_id, table.message_id, params=params
                    )
                return
            except discord.NotFound:
                pass  # deleted: post a new one below
        await self._repost(table, embed=embed, view=ui)

    async def _repost(
        self, table: Table, *, embed: discord.Embed, view: discord.ui.View
    ) -> discord.Message | None:
        old_id = table.message_id
        try:
            message = await self.channel(table).send(embed=embed, view=view)
        except discord.HTTPException:
            log.exception("Could not post the table message of table %s", table.match_id)
            return None
        table.message_id = message.id
        table.message_posted = time.monotonic()
        table.messages_below = 0
        if not table.closed:
            await self.db.tables.set_table_message(table.match_id, message.id)
        if old_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(table).get_partial_message(old_id).delete()  # type: ignore[attr-defined]
        return message

    def note_channel_message(self, channel_id: int, author_id: int) -> None:
        """Count messages that push the table up; the next update re-posts it at the bottom."""
        table = self.in_channel(channel_id)
        if table is None or author_id == getattr(self.client.user, "id", None):
            return
        table.messages_below += 1
        if table.messages_below == TABLE_BURIED_AFTER:
            self.request_render(table)

    async def _ping_turn(self, table: Table) -> None:
        """Mention the player whose turn starts, once per turn and only them."""
        to_act = _first(table.match.waiting_for())
        if to_act is None or to_act == table.last_to_act:
            return
        table.last_to_act = to_act
        panel = table.panels.get(to_act)
        if panel is not None and panel.alive:
            return  # their open panel was just refreshed: no need to ping
        await self._delete_ping(table)
        message = await self._post(
            table,
            content=f"🔔 <@{to_act}>, it's your turn — press **Hand** to see your cards.",
            mention=to_act,
        )
        table.ping_message_id = message.id if message else None

    async def _delete_ping(self, table: Table) -> None:
        if table.ping_message_id is None:
            return
        ping_id, table.ping_message_id = table.ping_message_id, None
        with contextlib.suppress(discord.HTTPException):
            await self.channel(table).get_partial_message(ping_id).delete()  # type: ignore[attr-defined]

    def panel_for(self, table: Table, player: str, *, page: int = 0) -> render.HandPanel:
        return render.hand_panel(
            table.match.private_view(player),
            table.match.public_view(),
            names=table.names,
            table_id=table.match_id,
            version=table.match.version,
            page=page,
        )

    def panel_signature(self, table: Table, player: str) -> tuple[Any, ...]:
        private = table.match.private_view(player)
        return (private.hand, private.legal, private.drawn, private.looking_at, private.received)

    def request_notify(self, table: Table) -> None:
        """Refresh other players' panels and ping the next player, outside the lock.

        One worker per table does it in order, always from the latest state, so a
        slow edit never holds up the next click and never shows an older state.
        """
        table.notify_pending = True
        if table.notifier is None or table.notifier.done():
            table.notifier = asyncio.create_task(
                self._notify(table), name=f"uno-notify-{table.match_id}"
            )

    async def _notify(self, table: Table) -> None:
        while table.notify_pending and not table.closed:
            table.notify_pending = False
            try:
                await self._refresh_panels(table)
                await self._ping_turn(table)
            except Exception:
                log.exception("Notifying the players of table %s failed", table.match_id)

    async def _refresh_panels(self, table: Table) -> None:
        """Edit the open panels of players whose options changed."""
        for player, panel in list(table.panels.items()):
            if not panel.alive:
                continue
            signature = self.panel_signature(table, player)
            if signature == panel.signature:
                continue
            panel.signature = signature
            hand = self.panel_for(table, player)
            try:
                # "@original": the interaction's own response (discord.py types only ids).
                await panel.webhook.edit_message(  # type: ignore[call-overload]
                    "@original",
                    content=hand.content,
                    embed=hand.embed,
                    view=build_view(hand.components),
                )
            except discord.HTTPException:
                table.panels.pop(player, None)  # token dead or message gone: ping instead

    def remember_panel(
        self, table: Table, player: str, interaction: discord.Interaction[Any]
    ) -> None:
        webhook = discord.Webhook.partial(
            interaction.application_id, interaction.token, client=self.client
        )
        table.panels[player] = Panel(
            webhook=webhook,
            opened=time.monotonic(),
            signature=self.panel_signature(table, player),
        )

    async def shutdown(self, *, grace: float = 5.0) -> None:
        """Stop timers and edits, and let actions in progress finish (bot closing)."""
        self.closing = True
        for table in list(self.tables.values()):
            for task in (table.timer, table.flusher, table.notifier):
                if task is not None:
                    task.cancel()

        async def settle(table: Table) -> None:
            async with table.lock:
                pass

        try:
            async with asyncio.timeout(grace):
                await asyncio.gather(*(settle(t) for t in list(self.tables.values())))
        except TimeoutError:
            log.warning("Some tables were still busy when the bot closed")


def _whole_second(moment: datetime) -> datetime:
    """Deadlines are shown to the second (`<t:…:R>`); keeping them whole makes the one
    in memory and the one stored (milliseconds) render the same after a restart."""
    return moment.replace(microsecond=0)


def _first(players: tuple[str, ...]) -> str | None:
    return players[0] if players else None


def match_results(variant: Variant, event: MatchEnded) -> list[PlayerResult]:
    """Places and outcomes: Duo's winner has the lower total (D14); Pizza's reached
    the target first (P11); a forfeit is a loss for the leaver (X3)."""
    scores = dict(event.scores)
    others = [p for p in scores if p != event.winner]
    # Pizza: the rest ranked by points, high first; Duo: the other player is second.
    others.sort(key=lambda p: (p in event.forfeited, -scores[p] if variant == "pizza" else 0))
    results = [
        PlayerResult(user_id=int(event.winner), score=scores[event.winner], place=1, outcome="won")
    ]
    place = 2
    for index, player in enumerate(others):
        if index > 0:
            previous = others[index - 1]
            tied = (
                variant == "pizza"
                and scores[previous] == scores[player]
                and (previous in event.forfeited) == (player in event.forfeited)
            )
            if not tied:
                place = index + 2
        outcome: Outcome = "forfeit" if player in event.forfeited else "lost"
        results.append(
            PlayerResult(user_id=int(player), score=scores[player], place=place, outcome=outcome)
        )
    return results
