"""Every kind of decision the engine creates has its control, and works, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from db.database import Database
from playground import Driver, Emulator
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.conftest import Scene
from tests.e2e.uno_table import ScriptedTable, load_truth

DUO_DECISIONS = {
    "keep_card", "reject_card", "play", "draw", "keep_drawn", "choose_colour",
    "take_volley", "challenge", "accept", "dump", "no_dump",
}  # fmt: skip
PIZZA_DECISIONS = {"play", "draw", "keep_drawn", "choose_colour", "give", "accept", "challenge"}


async def play_out(table: ScriptedTable, database: Path) -> list[dict[str, object]]:
    while table.actions < 3000:
        if await load_truth(database, table.channel.id) is None:
            break
        if not await table.step():
            break
    assert await load_truth(database, table.channel.id) is None, "the match did not finish"
    async with Database.open(database) as db:
        return [json.loads(a.action_json) for a in await db.tables.actions(1)]


# TABLE_SEED fixes the deals, and the scripted players wait for the bot after
# every click, so each run replays the same game. The seeds were chosen so the
# games reach every decision; if an engine change reshuffles them, choose again.
@pytest.mark.parametrize(
    ("variant", "table_seed", "target"), [("duo", 2026, 100), ("pizza", 2, 150)]
)
async def test_every_decision_is_offered_and_accepted(
    emu: Emulator,
    driver: Driver,
    scene: Scene,
    database: Path,
    bots: BotFactory,
    variant: str,
    table_seed: int,
    target: int,
) -> None:
    bot = bots(table_seed=table_seed)
    await bot.start()
    users = [scene.alice, scene.bob]
    if variant == "pizza":
        users.append(emu.add_user("carol", guild=scene.guild))
    table = ScriptedTable(driver, scene.channel, users, seed=5, curious=True)
    options: dict[str, object] = {"target": target}
    if variant == "duo":
        options["opponent"] = scene.bob
    await table.open(variant, **options)
    await table.open_hands()
    log = await play_out(table, database)
    kinds = {str(entry["type"]) for entry in log}
    wanted = DUO_DECISIONS if variant == "duo" else PIZZA_DECISIONS
    assert wanted <= kinds, sorted(wanted - kinds)
    assert {"call_uno", "catch_uno"} & kinds or any(entry.get("uno") for entry in log)
    assert table.failures() == []
    assert emu.log.failed == []
    assert await bot.stop() == 0
