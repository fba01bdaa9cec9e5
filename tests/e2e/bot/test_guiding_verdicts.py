"""The table guides through its rare moments, end to end: a challenge's verdict says why
(to the challenger with the card, to the table without a hidden card) in every variant,
and the table's UNO button reads Catch while an opponent forgot to call, and catches.

Each moment is reached in the engine (tests/e2e/crafted.py) and written into the bot's
database as a running table of its own server; one bot restores them all.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from db.database import Database
from engine.actions import Challenge
from engine.events import ChallengeResolved
from engine.match import Variant, new_match
from playground import Channel, Driver, Emulator, Log, Message, User
from tests.e2e.botproc import BotProcess
from tests.e2e.crafted import Reached, options, reach, write_running_table
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, action_choices

TARGET = {"duo": 200, "pizza": 250, "classic": 500}
# One verdict of each kind over the three variants (a bluff and a fair play both shown).
CHALLENGES: list[tuple[Variant, bool]] = [("duo", False), ("pizza", True), ("classic", False)]
CARD = re.compile(r"<:uno_[a-z0-9_]+:\d+>|[\U0001f7e5\U0001f7e8\U0001f7e9\U0001f7e6\u2b1b]")


def verdict_of(reached: Reached) -> bool:
    """Whether challenging at `reached` finds the draw-wild legitimate."""
    match = new_match(
        reached.variant,
        players=reached.players,
        seed=reached.seed,
        options=options(reached.variant, reached.target),
    )
    for player, action in reached.path:
        match.apply(player, action)
    events = match.apply(reached.player, Challenge())
    return next(e.legitimate for e in events if isinstance(e, ChallengeResolved))


def challenge_ending(variant: Variant, players: list[str], legitimate: bool) -> Reached:
    """A match where `reached.player` may challenge, and the verdict is `legitimate`."""
    start = 0
    while True:
        reached = reach(
            variant,
            players,
            lambda action: action["type"] == "challenge",
            target=TARGET[variant],
            seeds=range(start, 2000),
        )
        if verdict_of(reached) == legitimate:
            return reached
        start = reached.seed + 1


@dataclass
class Prepared:
    reached: Reached
    table_id: int
    channel: Channel
    users: dict[str, User]  # engine player id -> the member

    def table(self, driver: Driver) -> ScriptedTable:
        return ScriptedTable(driver, self.channel, list(self.users.values()))


@dataclass
class Stage:
    bot: BotProcess
    database: Path
    tables: dict[str, Prepared]


async def _prepare(
    emu: Emulator, db: Database, key: str, variant: Variant, find: object
) -> Prepared:
    guild = emu.add_guild(key)
    channel = emu.add_text_channel(guild, "uno")
    names = ["alice", "bob", "carol", "dave"][: 2 if variant == "duo" else 3]
    members = [emu.add_user(name, guild=guild) for name in names]
    players = [str(u.id) for u in members]
    assert callable(find)
    reached: Reached = find(variant, players)
    table_id = await write_running_table(
        db, reached, guild_id=guild.id, channel_id=channel.id, names=names
    )
    return Prepared(reached, table_id, channel, {str(u.id): u for u in members})


@pytest_asyncio.fixture(scope="module", loop_scope="package")
async def stage(emu: Emulator, shared_database: Path) -> AsyncIterator[Stage]:
    tables: dict[str, Prepared] = {}
    async with Database.open(shared_database) as db:
        for variant, legitimate in CHALLENGES:
            tables[variant] = await _prepare(
                emu,
                db,
                variant,
                variant,
                lambda v, p, fair=legitimate: challenge_ending(v, p, fair),
            )
        tables["catch"] = await _prepare(
            emu,
            db,
            "catch",
            "duo",
            lambda v, p: reach(v, p, lambda a: a["type"] == "catch_uno", target=TARGET[v]),
        )
    bot = BotProcess(emu, database=shared_database, guild_id=None)
    await bot.start()
    yield Stage(bot, shared_database, tables)
    code = await bot.stop()
    output = bot.output()
    assert "Traceback" not in output, output[-4000:]
    assert code == 0, output[-4000:]


def reason_panel(driver: Driver, table: ScriptedTable, user: User) -> Message | None:
    """The user's latest private message, if it gives a challenge's reason (a panel with
    nothing left to press has no buttons, so `ScriptedTable.panel` would not find it)."""
    mine = [m for m in driver.visible(user, table.channel) if m.ephemeral_to is user]
    return mine[-1] if mine and "⚖️" in mine[-1].content else None


async def notice_cleared_at_next_decision(
    driver: Driver, table: ScriptedTable, user: User, shown: Message
) -> None:
    """The revealed hand and the reason stay until the user's next decision, then go."""
    assert any("only you see it" in f.get("name", "") for f in shown.embeds[0].get("fields", []))
    panel = table.panel(user)
    assert panel is not None
    choices = action_choices(panel)
    assert choices, "the challenger of a bluff plays next"
    draw = [c for c in choices if c[0].endswith(":d")]
    await table.choose(user, (draw or choices)[0])
    await driver.wait_idle(quiet=0.2)
    assert panel is shown  # the panel that told the verdict, edited by the click
    assert "⚖️" not in shown.content
    assert "only you see it" not in shown.text()


def last_moves(message: Message | None) -> str:
    if message is None or not message.embeds:
        return ""
    fields = message.embeds[0].get("fields", [])
    return "\n".join(f.get("value", "") for f in fields if f.get("name") == "Last moves")


async def logged_types(database: Path, table_id: int) -> list[str]:
    async with Database.open(database) as db:
        return [json.loads(a.action_json)["type"] for a in await db.tables.actions(table_id)]


@pytest.mark.parametrize(("variant", "legitimate"), CHALLENGES)
async def test_d10_p7_c7_a_challenge_verdict_says_why_privately_and_publicly(
    emu: Emulator, driver: Driver, stage: Stage, variant: str, legitimate: bool
) -> None:
    emu.world.log = Log()
    prepared = stage.tables[variant]
    challenger = prepared.users[prepared.reached.player]
    table = prepared.table(driver)
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    await table.press(challenger, "hand")
    panel = table.panel(challenger)
    assert panel is not None
    (challenge,) = [c for c in action_choices(panel) if c[0].endswith(":ch")]
    assert not (await table.choose(challenger, challenge)).failed

    # The challenger, privately: the reason, naming the card held (or that none fitted).
    private = await driver.wait_for(
        lambda: reason_panel(driver, table, challenger), timeout=PATIENCE
    )
    reason = next(line for line in private.content.splitlines() if line.startswith("⚖️"))
    if legitimate:
        assert "the wild was fair" in reason, reason
    else:
        assert "which matched the" in reason, reason
        assert re.search(r" held \S+ \w+", reason), reason  # the card held, by name

    # The table: the verdict with a reason, who draws how many, and no hidden card.
    moves = await driver.wait_for(
        lambda: "challenged" in (text := last_moves(table.table_message())) and text,
        timeout=PATIENCE,
    )
    line = next(line for line in moves.splitlines() if "challenged" in line)
    kind = "was legal" if legitimate else "could have played another card, so the"
    assert kind in line, line
    assert re.search(r"draws \d+ cards$", line), line
    assert len(CARD.findall(line)) == 1, line  # the draw-wild itself, nothing from a hand
    assert "challenge" in await logged_types(stage.database, prepared.table_id)
    if not legitimate:  # a bluff: the challenger plays on, and the notice goes with it
        await notice_cleared_at_next_decision(driver, table, challenger, private)
    assert table.failures() == []
    assert emu.log.failed == []


async def test_the_uno_button_reads_catch_while_an_opponent_forgot_and_catches_them(
    emu: Emulator, driver: Driver, stage: Stage
) -> None:
    emu.world.log = Log()
    prepared = stage.tables["catch"]
    catcher = prepared.users[prepared.reached.player]
    table = prepared.table(driver)
    message = await driver.wait_for(table.table_message, timeout=PATIENCE)
    uno = next(b for b in message.buttons() if b["custom_id"].endswith(":uno"))
    assert uno["label"] == "Catch"
    assert "hasn't called UNO" in message.text()

    outcome = await table.press(catcher, "uno")
    assert outcome.message is not None
    assert "Caught!" in outcome.message.content
    assert (await logged_types(stage.database, prepared.table_id))[-1] == "catch_uno"
    # Nobody is left to catch: the button calls UNO again, and the table tells the catch.
    await driver.wait_for(
        lambda: (
            any(
                b["label"] == "Call UNO" and b["custom_id"].endswith(":uno")
                for b in (table.table_message() or message).buttons()
            )
            and "without calling UNO and draws 2" in last_moves(table.table_message())
        ),
        timeout=PATIENCE,
    )
    assert table.failures() == []
    assert emu.log.failed == []
