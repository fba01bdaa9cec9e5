"""A crash in the middle of a game loses nothing; idle players time out.

Each test here starts its own bot (settings of its own, kills and restarts), so none
uses the module's shared `uno_bot`.
"""

from __future__ import annotations

import json
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from db.database import Database
from playground import Driver, Emulator
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.conftest import Scene
from tests.e2e.crafted import late_round, write_running_table
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, TableWatch, load_truth, until


async def test_kill_9_mid_game_then_restart_and_finish(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, bots: BotFactory
) -> None:
    carol = emu.add_user("carol", guild=scene.guild)
    users = [scene.alice, scene.bob, carol]
    # A match's last rounds, reached in the engine (someone starts this round within 30 of
    # the 150 target): finishing it after the restart takes a round or two, not a match.
    reached = late_round("pizza", [str(u.id) for u in users], target=150, near=30)
    async with Database.open(database) as db:
        await write_running_table(
            db,
            reached,
            guild_id=scene.guild.id,
            channel_id=scene.channel.id,
            names=[u.name for u in users],
        )
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, scene.channel, users, seed=11)
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    await table.open_hands()
    # Five actions into a round of five-card hands: nobody can have gone out yet.
    for _ in range(5):
        if not await table.step():
            break
    before = await load_truth(database, scene.channel.id)
    assert before is not None, "the match ended before the kill"
    await bot.kill()

    again = bots()
    await again.start()
    after = await load_truth(database, scene.channel.id)
    assert after is not None
    # Every action a player was told was accepted is there, and nothing else.
    assert after.match.version == before.match.version > 0
    assert json.dumps(after.match.to_snapshot()) == json.dumps(before.match.to_snapshot())

    async with TableWatch(table, database, driver) as watch:
        assert await watch.check(exact=True)  # the table message is back (re-posted)
        while table.actions < 1500:
            if not await watch.check(exact=False):
                break
            if not await table.step():
                break
    assert await load_truth(database, scene.channel.id) is None
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    assert table.failures() == []
    assert emu.log.failed == []
    assert await again.stop() == 0
    assert "Traceback" not in again.output()


async def test_idle_players_time_out_then_are_removed(
    driver: Driver, scene: Scene, database: Path, bots: BotFactory
) -> None:
    bot = bots(turn_seconds=1)  # TEST_TURN_SECONDS: five missed deadlines take seconds
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=3)
    await table.open("duo", opponent=scene.bob)
    # Nobody clicks: each draft pick times out (keep the card, the safe default);
    # Player 1's third missed deadline in a row removes them: a forfeit (X3).
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=40)
    text = table.public_text()
    assert "missed 3 turns in a row" in text
    async with Database.open(database) as db:
        actions = await db.tables.actions(1)
    kinds = [json.loads(a.action_json) for a in actions]
    assert [k["type"] for k in kinds] == ["keep_card"] * 4 + ["remove"]
    assert all(k.get("timeout") for k in kinds[:4])
    assert actions[0].player_id == actions[2].player_id == actions[4].player_id
    assert await bot.stop() == 0
    assert "Traceback" not in bot.output()


async def test_a_table_buried_by_chat_is_posted_again_below_it(
    driver: Driver, scene: Scene, bots: BotFactory
) -> None:
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=4)
    await table.open("duo", opponent=scene.bob)
    first = table.table_message()
    assert first is not None
    for i in range(12):
        driver.say(scene.mod, scene.channel, f"chatting {i}")
    moved = await driver.wait_for(
        lambda: (m := table.table_message()) is not None and m is not first and m, timeout=PATIENCE
    )
    await driver.wait_for(lambda: first.deleted, timeout=PATIENCE)  # the old one goes away
    public = [m for m in driver.visible(scene.alice, scene.channel) if not m.ephemeral]
    assert public[-1] is moved
    # The moved table works: a click on it opens a hand panel.
    await table.open_hands()
    assert table.who_can_act()
    assert await bot.stop() == 0
    assert "Traceback" not in bot.output()


TURN = 12  # seconds: a fresh turn after the restart would end well past the bound below
LATE = timedelta(seconds=6)


async def test_timers_resume_from_the_stored_deadline_after_a_crash(
    driver: Driver, scene: Scene, database: Path, bots: BotFactory
) -> None:
    bot = bots(turn_seconds=TURN)
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=9)
    await table.open("duo", opponent=scene.bob)
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.deadline is not None
    stored = truth.deadline
    await bot.kill()
    again = bots(turn_seconds=TURN)
    await again.start()
    # A busy machine may take longer to restart the bot than the turn has left: then the
    # stored deadline has passed by the time the table is restored, and the timer fires
    # at once. The restore happens before `start` returns.
    restarted = datetime.now(UTC)

    async def first_timeout() -> list[dict[str, object]]:
        async with Database.open(database) as db:
            return [json.loads(a.action_json) for a in await db.tables.actions(1)]

    # The restarted bot's timer fires: the draft pick is kept for them.
    logged = await until(driver, first_timeout)
    assert logged[0]["type"] == "keep_card"
    assert logged[0].get("timeout") is True
    async with Database.open(database) as db:
        (first,) = await db.tables.actions(1)
    assert first.created_at >= stored
    # Near the stored deadline (or the restart, if later), not a fresh turn counted from
    # the restart: LATE allows for a bot still busy starting up on a loaded machine.
    assert first.created_at <= max(stored, restarted) + LATE
    assert await again.stop() == 0


async def test_a_click_while_another_program_holds_the_database_is_refused_within_3_s(
    driver: Driver, scene: Scene, database: Path, bots: BotFactory
) -> None:
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=5)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    before = await load_truth(database, scene.channel.id)
    assert before is not None
    user, choices = table.who_can_act()[0]
    # An admin's sqlite3 shell in a write transaction: the bot cannot write meanwhile.
    admin = sqlite3.connect(database, isolation_level=None, timeout=0)
    try:
        admin.execute("BEGIN IMMEDIATE")
        clicked = time.monotonic()
        refused = await table.choose(user, choices[0])
        answered = time.monotonic() - clicked
        admin.execute("ROLLBACK")
    finally:
        admin.close()
    # Answered before Discord's 3 s ran out (the emulator fails the click otherwise),
    # privately, and the game did not move.
    assert not refused.failed, f"answered after {answered:.1f} s"
    assert refused.ephemeral
    assert refused.message is not None
    assert "nothing was changed" in refused.message.text()
    after = await load_truth(database, scene.channel.id)
    assert after is not None
    assert after.match.version == before.match.version

    # The lock is gone: the very same choice is accepted now.
    accepted = await table.choose(user, choices[0])
    assert not accepted.failed
    again = await load_truth(database, scene.channel.id)
    assert again is not None
    assert again.match.version == before.match.version + 1
    assert await bot.stop() == 0
    output = bot.output()
    assert "not saved" in output
    assert "database is locked" in output
    assert "Traceback" not in output  # an expected condition: one line says it all
