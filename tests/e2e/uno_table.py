"""Scripted players for the end-to-end tests: they click only what the bot shows them.

The truth they check against is the database the bot wrote: the running
table's snapshot and action log, replayed by the real engine, rendered by the
real renderer, must be what the table message shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self, TypeVar

from cogs.uno import render
from cogs.uno.table.options import TableOptions
from db.database import Database
from engine import actions as engine_actions
from engine.match import Match, from_snapshot
from playground import Channel, Driver, Message, Outcome, User, World
from tests.e2e.patience import PATIENCE

TURN_SECONDS = 90  # the bot's default in these tests (BotProcess)

Choice = tuple[str, str | None]  # (custom_id, select value or None for a button)


def is_table_message(message: Message) -> bool:
    return not message.ephemeral and any(
        c.get("custom_id", "").endswith(":hand") for c in message.iter_components()
    )


def lobby_id(lobby: Message, code: str) -> str:
    """The custom_id of a lobby button as drawn now (it names the lobby and its version)."""
    return next(c for c in lobby.custom_ids() if c.endswith(f":{code}"))


def action_choices(panel: Message) -> list[Choice]:
    """Every enabled game control of a hand panel (not Hand, UNO! or paging)."""
    found: list[Choice] = []
    for component in panel.iter_components():
        custom_id = component.get("custom_id", "")
        if component.get("disabled") or not custom_id.startswith("uno:"):
            continue
        code = custom_id.rsplit(":", 1)[-1]
        if code in ("hand", "uno") or code.startswith("pg."):
            continue
        if component["type"] == 2:
            found.append((custom_id, None))
        elif component["type"] == 3:
            found.extend((custom_id, option["value"]) for option in component["options"])
    return found


def choice_kind(choice: Choice) -> str:
    """The kind of decision: `p` (play), `d` (draw), `c` (colour), `du` (dump)..."""
    custom_id, value = choice
    code = value if value is not None else custom_id.rsplit(":", 1)[-1]
    kind, _, card = code.partition(".")
    if kind in ("p", "pu") and card.startswith("W"):
        return f"p.{card}"  # each wild is a decision of its own (colour, challenge, dip)
    return kind


@dataclass
class Truth:
    """The game as the database has it, rebuilt by the engine."""

    match: Match
    names: dict[str, str]
    table_id: int
    deadline: Any
    options: str  # the table's options in play, as the table message shows them


T = TypeVar("T")

# A re-check at least this often, for what the bot keeps to itself (its database) until
# it tells the emulator: not a wait for time, only a floor under the event-driven one.
RECHECK = 1.0


async def until(
    driver: Driver, check: Callable[[], Awaitable[T | None]], *, within: float = PATIENCE
) -> T:
    """`check()`'s first truthy answer, asked again on every change the emulator sees
    (the bot's clicks answered, messages edited); TimeoutError after `within` seconds."""
    world = driver.world
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        seen = world.version
        found = await check()
        if found:
            return found
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise TimeoutError(f"not so within {within} s")
        with contextlib.suppress(TimeoutError):
            await world.wait_for(changed_since(world, seen), timeout=min(RECHECK, remaining))


def changed_since(world: World, version: int) -> Callable[[], bool]:
    return lambda: world.version != version


async def load_truth(
    database: Path | str, channel_id: int, *, db: Database | None = None
) -> Truth | None:
    """The running table of a channel, or None once it has finished (`db`: already open;
    `database`: a SQLite file or a postgresql:// URL)."""
    if db is None:
        async with Database.open(database) as opened:
            return await _truth(opened, channel_id)
    return await _truth(db, channel_id)


RUNNING_IN = "SELECT match_id FROM matches WHERE status = 'running' AND channel_id = ?"


async def _truth(db: Database, channel_id: int) -> Truth | None:
    # Only this channel's table is read: a shared bot's file holds other tests' tables too.
    async with db.reading() as conn:
        row = await conn.fetchone(RUNNING_IN, (channel_id,))
    running = None if row is None else await db.tables.running_table(row[0])
    if running is None:  # none, or it finished in between
        return None
    match = from_snapshot(json.loads(running.snapshot_json))
    for logged in running.actions:
        data = json.loads(logged.action_json)
        player = str(logged.player_id)
        if data.get("type") == "remove":
            match.remove_player(player)
        else:
            match.apply(player, engine_actions.from_json(data))
    names = {str(s.user_id): s.display_name for s in running.match.players}
    options = TableOptions.from_data(running.match.options, turn_seconds=TURN_SECONDS)
    return Truth(match, names, running.match.match_id, running.match.turn_deadline, options.words())


# A card shows as its emoji once the bot's emojis are synced, as a colour square before:
# the same state either way (the test renders without emojis).
CARD_MARK = re.compile(r"<:uno_[a-z0-9_]+:\d+>|[\U0001f7e5\U0001f7e8\U0001f7e9\U0001f7e6\u2b1b]")


def comparable(embed: Mapping[str, Any]) -> dict[str, Any]:
    keep = ("title", "description", "fields", "footer", "color")
    text = json.dumps({key: embed.get(key) for key in keep}, ensure_ascii=False)
    marked: dict[str, Any] = json.loads(CARD_MARK.sub("▣", text))
    return marked


class ScriptedTable:
    """A channel, its players, and what they do."""

    def __init__(
        self,
        driver: Driver,
        channel: Channel,
        users: list[User],
        *,
        seed: int = 0,
        curious: bool = False,
    ) -> None:
        self.driver = driver
        self.channel = channel
        self.users = users
        self.rng = random.Random(seed)
        self.curious = curious  # prefer kinds of decision not taken yet
        self.used: set[str] = set()
        self.actions = 0
        self.outcomes: list[Outcome] = []

    # -- what people see -------------------------------------------------------------

    def table_message(self) -> Message | None:
        tables = [
            m for m in self.driver.visible(self.users[0], self.channel) if is_table_message(m)
        ]
        return tables[-1] if tables else None

    def panel(self, user: User) -> Message | None:
        mine = [
            m
            for m in self.driver.visible(user, self.channel)
            if m.ephemeral_to is user and any(True for _ in m.iter_components())
        ]
        return mine[-1] if mine else None

    def public_text(self) -> str:
        """Everything posted publicly in the channel, as text."""
        return "\n".join(
            m.text() for m in self.driver.visible(self.users[0], self.channel) if not m.ephemeral
        )

    # -- doing -------------------------------------------------------------------------

    async def open(self, variant: str, **options: Any) -> Message:
        host, *others = self.users
        outcome = await self.driver.slash(host, self.channel, f"uno {variant}", **options)
        self.outcomes.append(outcome)
        lobby = outcome.message
        assert lobby is not None
        for user in others:
            code = "accept" if variant == "duo" and "opponent" in options else "join"
            self.outcomes.append(await self.driver.click(user, lobby, lobby_id(lobby, code)))
        if variant != "duo":  # a Pizza or classic lobby waits for its host to start
            self.outcomes.append(await self.driver.click(host, lobby, lobby_id(lobby, "start")))
        try:
            await self.driver.wait_for(self.table_message, timeout=PATIENCE)
        except TimeoutError:
            answers = [(o, o.message.text() if o.message else None) for o in self.outcomes]
            raise AssertionError(f"no table message; the lobby's clicks: {answers}") from None
        return lobby

    async def open_hands(self) -> None:
        for user in self.users:
            await self.press(user, "hand")

    async def press(self, user: User, code: str) -> Outcome:
        """Press the table message's Hand or UNO! button, once it can be pressed (a table
        posted anew has its buttons enabled once the bot has recorded the message)."""

        def pressable() -> tuple[Message, str] | None:
            table = self.table_message()
            if table is None:
                return None
            button = next(
                (c for c in table.iter_components() if c["custom_id"].endswith(f":{code}")), None
            )
            if button is None or button.get("disabled"):
                return None
            return table, button["custom_id"]

        table, custom_id = await self.driver.wait_for(pressable, timeout=PATIENCE)
        outcome = await self.driver.click(user, table, custom_id)
        self.outcomes.append(outcome)
        return outcome

    async def choose(self, user: User, choice: Choice) -> Outcome:
        panel = self.panel(user)
        assert panel is not None
        custom_id, value = choice
        if value is None:
            outcome = await self.driver.click(user, panel, custom_id)
        else:
            outcome = await self.driver.select(user, panel, custom_id, [value])
        self.outcomes.append(outcome)
        self.actions += 1
        return outcome

    def who_can_act(self) -> list[tuple[User, list[Choice]]]:
        ready = []
        for user in self.users:
            panel = self.panel(user)
            if panel is not None and (choices := action_choices(panel)):
                ready.append((user, choices))
        return ready

    async def step(self) -> bool:
        """One action by someone whose panel offers one; False when nobody can act."""
        ready = self.who_can_act()
        if not ready:
            await self.open_hands()  # panels may be missing or old: reopen them
            ready = self.who_can_act()
            if not ready:
                return False
        user, choices = self.rng.choice(ready)
        # Mostly shed cards, as people do, so that matches end in a few hundred clicks.
        plays = [c for c in choices if choice_kind(c) in ("p", "pu")]
        pool = plays if plays and self.rng.random() < 0.8 else choices
        if self.curious:
            new = [c for c in choices if choice_kind(c) not in self.used]
            pool = new or pool
        choice = self.rng.choice(pool)
        self.used.add(choice_kind(choice))
        await self.choose(user, choice)
        if self.curious:
            await self.driver.wait_idle(quiet=0.1)  # same order of events on every run
        return True

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.failed]


class TableWatch:
    """Checks after every action that the table message shows a real state of the game.

    Edits are coalesced (Discord allows about one per second per channel), so
    between two edits the message may show an earlier state, never a wrong one;
    every few actions the test waits until it shows the latest state exactly.
    """

    def __init__(self, table: ScriptedTable, database: Path | str, driver: Driver) -> None:
        self.table = table
        self.database = database
        self.driver = driver
        self.history: list[dict[str, object]] = []
        self._db: Database | None = None

    async def __aenter__(self) -> Self:
        """Keep the database open between checks (else each check opens it anew)."""
        self._db = await Database.open(self.database)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def check(self, *, exact: bool, within: float = PATIENCE) -> bool:
        """`exact`: wait (up to `within` seconds) until the table shows the latest state."""
        found = await self._expected_embed()
        if found is None:
            return False
        _, expected = found
        if exact:
            await self.driver.wait_for(lambda: self._shown() == expected, timeout=within)
        else:
            assert self._shown() in self.history
        return True

    async def _expected_embed(self) -> tuple[Truth, dict[str, Any]] | None:
        """The stored state and the table embed it calls for (kept in `history`); None
        once the match no longer runs."""
        truth = await load_truth(self.database, self.table.channel.id, db=self._db)
        if truth is None:
            return None
        expected = comparable(
            render.table_embed(
                truth.match.public_view(),
                names=truth.names,
                table_id=truth.table_id,
                deadline=truth.deadline,
                options=truth.options,
            ).to_dict()
        )
        self.history.append(expected)
        return truth, expected

    def _shown(self) -> dict[str, Any] | None:
        message = self.table.table_message()
        return comparable(message.embeds[0]) if message and message.embeds else None

    async def play(self, *, max_actions: int) -> int:
        """Step the table until its match is over, checking the table message after every
        action (exactly every 15th); return the number of checks."""
        checked = 0
        while self.table.actions < max_actions:
            if not await self.check(exact=checked % 15 == 0):
                break  # the match is over: no running table left
            checked += 1
            if not await self.table.step():
                break
        return checked


# What a player in a hurry presses: the shortcut (Keep the rest, Play · UNO!), a play,
# a draw last.
HURRY = ("kr", "kc", "pu", "p", "duu", "du", "c", "g", "ac", "tv", "nd", "kd", "d")
DRAFT = ("kr", "kc", "rc")


def preferred(choices: list[Choice]) -> Choice:
    """The choice a player in a hurry makes."""

    def rank(choice: Choice) -> int:
        kind = choice_kind(choice).split(".")[0]
        return HURRY.index(kind) if kind in HURRY else len(HURRY)

    return min(choices, key=rank)


async def play_out(
    table: ScriptedTable, driver: Driver, database: Path, *, max_clicks: int = 1500
) -> dict[str, int]:
    """Play the channel's match to its end in a hurry; the clicks made, draft and play
    (pressing Hand to open a panel counts as a play click)."""
    clicks = {"draft": 0, "play": 0}
    for _ in range(max_clicks):
        if await load_truth(database, table.channel.id) is None:
            break
        ready = table.who_can_act()
        if not ready:
            await driver.wait_idle(quiet=0.1)
            ready = table.who_can_act()
            if not ready:
                await table.open_hands()
                clicks["play"] += len(table.users)
                continue
        user, choices = ready[0]
        choice = preferred(choices)
        clicks["draft" if choice_kind(choice).split(".")[0] in DRAFT else "play"] += 1
        await table.choose(user, choice)
        await driver.wait_idle(quiet=0.05)
    return clicks
