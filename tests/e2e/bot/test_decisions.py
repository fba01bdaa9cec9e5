"""Every kind of decision the engine creates has its control, and works, end to end
(classic's house-rule decisions too, at a table with every house rule on).

Each decision is reached in the engine (tests/e2e/crafted.py) and written into the bot's
database as a running table in a server of its own; one bot process then restores them
all, and each test presses Hand, finds the control for its decision on the hand panel
and clicks it: the action log must gain exactly that action.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from cogs.uno.ids import ORDER_RESTART
from db.database import Database
from engine.actions import Dump
from engine.match import Match, Variant
from playground import Channel, Driver, Emulator, Log, Message, User
from tests.e2e.botproc import BotProcess
from tests.e2e.crafted import Reached, Wanted, reach, write_running_table
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import Choice, ScriptedTable, action_choices

DUO_DECISIONS = {
    "keep_card", "reject_card", "play", "draw", "keep_drawn", "choose_colour",
    "take_volley", "challenge", "accept", "dump", "no_dump",
}  # fmt: skip
PIZZA_DECISIONS = {"play", "draw", "keep_drawn", "choose_colour", "give", "accept", "challenge"}
# The decisions classic's house rules add (H1 stacking's volley, H2 Seven-O's swap,
# H3 jump-in), at a table with every house rule on (H4 draw-to-match included).
HOUSE_DECISIONS = {"take_volley", "swap_hands", "jump_in"}
HOUSE_RULES = ("stacking", "seven_o", "jump_in", "draw_to_match")
UNO = "play+uno"  # a play that calls UNO with the second-to-last card
DECISIONS: list[tuple[Variant, str]] = (
    [("duo", d) for d in sorted(DUO_DECISIONS | {UNO})]
    + [("pizza", d) for d in sorted(PIZZA_DECISIONS | {UNO})]
    + [("classic", d) for d in sorted(HOUSE_DECISIONS | {"draw"})]
)
TARGET = {"duo": 200, "pizza": 250, "classic": 500}  # the commands' defaults
# A Duo table where a dump may be laid card by card, with three kinds of card in the
# colour: the panel asks for the order one card at a time, twice at least.
ORDERED_DUMP = ("duo", "dump card by card")

# The hand panel's action codes (cogs/uno/ids.py) and the logged action each stands for.
CODE_TYPES = {
    "p": "play", "pu": "play", "d": "draw", "kd": "keep_drawn", "c": "choose_colour",
    "tv": "take_volley", "ch": "challenge", "ac": "accept", "du": "dump", "duu": "dump",
    "nd": "no_dump", "kc": "keep_card", "rc": "reject_card", "g": "give",
    "sw": "swap_hands", "j": "jump_in", "ju": "jump_in",
}  # fmt: skip


def kind(action: dict[str, Any]) -> str:
    return str(action["type"]) + ("+uno" if action.get("uno") else "")


def kind_is(decision: str) -> Wanted:
    return lambda action: kind(action) == decision


def choice_code(choice: Choice) -> str:
    """A control's code: a select option's value, or the end of a button's custom_id."""
    custom_id, value = choice
    return value if value is not None else custom_id.rsplit(":", 1)[-1]


def control_kind(choice: Choice) -> str:
    code = choice_code(choice).partition(".")[0]
    return CODE_TYPES.get(code, code) + ("+uno" if code in ("pu", "duu") else "")


@dataclass
class Prepared:
    reached: Reached
    table_id: int
    channel: Channel
    users: dict[str, User]  # engine player id -> the member


@dataclass
class Stage:
    bot: BotProcess
    database: Path
    tables: dict[tuple[str, str], Prepared]


@pytest_asyncio.fixture(scope="module", loop_scope="package")
async def stage(emu: Emulator, shared_database: Path) -> AsyncIterator[Stage]:
    """Every decision's table, written before the bot starts; one bot restores them all."""
    tables: dict[tuple[str, str], Prepared] = {}
    async with Database.open(shared_database) as db:
        for variant, decision in DECISIONS:
            guild = emu.add_guild(f"{variant} {decision}")
            channel = emu.add_text_channel(guild, "uno")
            names = ["alice", "bob", "carol"][: 2 if variant == "duo" else 3]
            members = [emu.add_user(name, guild=guild) for name in names]
            reached = reach(
                variant,
                [str(u.id) for u in members],
                kind_is(decision),
                target=TARGET[variant],
                house=HOUSE_RULES if variant == "classic" else (),
            )
            table_id = await write_running_table(
                db, reached, guild_id=guild.id, channel_id=channel.id, names=names
            )
            users = {str(u.id): u for u in members}
            tables[variant, decision] = Prepared(reached, table_id, channel, users)
        tables[ORDERED_DUMP] = await _prepare_ordered_dump(emu, db)
    bot = BotProcess(emu, database=shared_database, guild_id=None)
    await bot.start()
    yield Stage(bot, shared_database, tables)
    code = await bot.stop()
    output = bot.output()
    assert "Traceback" not in output, output[-4000:]
    assert code == 0, output[-4000:]


def _dump_of_two_kinds_or_more(match: Match, player: str) -> bool:
    colours = {a.last.colour for a in match.legal_actions(player) if isinstance(a, Dump)}
    hand = match.private_view(player).hand
    laid = [card for card in hand if card.colour in colours]
    return len(set(laid)) >= 3  # three kinds: two cards are chosen one at a time


async def _prepare_ordered_dump(emu: Emulator, db: Database) -> Prepared:
    guild = emu.add_guild("duo dump order")
    channel = emu.add_text_channel(guild, "uno")
    members = [emu.add_user(name, guild=guild) for name in ("alice", "bob")]
    reached = reach(
        "duo",
        [str(u.id) for u in members],
        kind_is("dump"),
        target=TARGET["duo"],
        holding=_dump_of_two_kinds_or_more,
    )
    table_id = await write_running_table(
        db, reached, guild_id=guild.id, channel_id=channel.id, names=["alice", "bob"]
    )
    return Prepared(reached, table_id, channel, {str(u.id): u for u in members})


async def logged(database: Path, table_id: int) -> list[dict[str, Any]]:
    async with Database.open(database) as db:
        return [json.loads(a.action_json) for a in await db.tables.actions(table_id)]


@pytest.mark.parametrize(("variant", "decision"), DECISIONS)
async def test_every_decision_is_offered_and_accepted(
    emu: Emulator, driver: Driver, stage: Stage, variant: str, decision: str
) -> None:
    emu.world.log = Log()  # this test's clicks only
    prepared = stage.tables[variant, decision]
    player = prepared.users[prepared.reached.player]
    table = ScriptedTable(driver, prepared.channel, list(prepared.users.values()))
    await driver.wait_for(table.table_message, timeout=PATIENCE)  # restored and shown again
    await table.press(player, "hand")
    panel = table.panel(player)
    assert panel is not None
    offered = [c for c in action_choices(panel) if control_kind(c) == decision]
    assert offered, (decision, sorted({control_kind(c) for c in action_choices(panel)}))

    outcome = await table.choose(player, offered[0])
    assert not outcome.failed
    log = await logged(stage.database, prepared.table_id)
    assert len(log) == len(prepared.reached.path) + 1  # exactly this one action was added
    assert kind(log[-1]) == decision
    assert table.failures() == []
    assert emu.log.failed == []


def order_choices(panel: Message | None) -> list[Choice]:
    """The panel's "First …" / "Then …" controls, left to right (not "start again")."""
    if panel is None:
        return []
    return [
        choice
        for choice in action_choices(panel)
        if choice_code(choice).startswith("o.") and choice_code(choice) != ORDER_RESTART
    ]


def panel_answered(table: ScriptedTable, user: User, before: Message) -> Callable[[], bool]:
    """The user's panel was edited or replaced since `before` was read."""
    edits = before.edits
    return lambda: table.panel(user) is not before or before.edits != edits


async def test_d9_a_dump_laid_card_by_card_is_recorded_in_that_order(
    emu: Emulator, driver: Driver, stage: Stage
) -> None:
    emu.world.log = Log()
    prepared = stage.tables[ORDERED_DUMP]
    player = prepared.users[prepared.reached.player]
    table = ScriptedTable(driver, prepared.channel, list(prepared.users.values()))
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    await table.press(player, "hand")
    panel = table.panel(player)
    chosen: list[str] = []
    while (firsts := order_choices(panel)) and panel is not None:
        choice = firsts[-1]  # the rightmost card each time: not the hand's own order
        chosen.append(choice_code(choice)[2:])
        answered = panel_answered(table, player, panel)
        outcome = await table.choose(player, choice)
        assert not outcome.failed
        # The bot may acknowledge first and edit the panel a moment later.
        await driver.wait_for(answered, timeout=PATIENCE)
        panel = table.panel(player)
    assert len(chosen) >= 2, chosen  # at least two cards were chosen one at a time
    log = await logged(stage.database, prepared.table_id)
    assert len(log) == len(prepared.reached.path) + 1
    assert log[-1]["type"] == "dump"
    assert log[-1]["order"][: len(chosen)] == chosen
    assert table.failures() == []
    assert emu.log.failed == []
