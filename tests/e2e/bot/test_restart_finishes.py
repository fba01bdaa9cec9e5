"""A kill -9 at the worst moment: the restarted bot finishes what an answered click started.

"Keep the rest" still keeps the draft's later picks; a table posted anew after the
restart keeps its buttons however soon it is clicked; a match whose last move was
saved just before the kill gets its summaries, final table and Rematch offer. And a
missed draft deadline, beside a player who keeps the rest, is one default decision.

Each test starts bots of its own (kills and restarts), so none uses the shared bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from aiohttp import web

from db.database import Database
from engine.views import Phase
from playground import Driver, Emulator, Message, RefusedByClient, User
from playground.rest import Answer
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.crafted import late_round, reach, write_running_table
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import (
    Choice,
    ScriptedTable,
    action_choices,
    is_table_message,
    load_truth,
    play_out,
)

POST_MESSAGE = "POST /channels/{channel_id}/messages"


def code(choice: Choice) -> str:
    return choice[0].rsplit(":", 1)[-1]


def draft_choice(table: ScriptedTable, user: User, wanted: str) -> Choice | None:
    """`user`'s panel control with code `wanted` (`kr` Keep the rest, `kc` keep), if shown."""
    panel = table.panel(user)
    choices = action_choices(panel) if panel is not None else []
    return next((c for c in choices if code(c) == wanted), None)


def hand_button(message: Message) -> dict[str, Any] | None:
    return next((c for c in message.iter_components() if c["custom_id"].endswith(":hand")), None)


def rematch_ids(message: Message) -> list[str]:
    return [c for c in message.custom_ids() if c.startswith("uno:rematch.")]


async def ending_noted(database: Path, *, within: float) -> bool:
    """Whether the bot notes, within `within` seconds, that no match's end is still owed.

    The note has no message of its own to wait on, so the file is read again until then.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while True:
        async with Database.open(database) as db:
            if await db.tables.owed_endings() == []:
                return True
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)


async def logged(database: Path, match_id: int) -> list[tuple[int, dict[str, Any], float]]:
    """The match's action log: (player, action, when in seconds)."""
    async with Database.open(database) as db:
        actions = await db.tables.actions(match_id)
    return [
        (a.player_id or 0, json.loads(a.action_json), a.created_at.timestamp()) for a in actions
    ]


@contextlib.asynccontextmanager
async def route_hook(emu: Emulator, route: str, hook: Any) -> AsyncIterator[None]:
    emu.rest.route_hooks[route] = hook
    try:
        yield
    finally:
        emu.rest.route_hooks.pop(route, None)


async def draft_to_keep_the_rest(table: ScriptedTable, alice: User, bob: User) -> None:
    """Bob keeps while it is his pick; alice presses Keep the rest at her first pick."""
    for _ in range(4):
        await table.driver.wait_for(
            lambda: draft_choice(table, alice, "kr") or draft_choice(table, bob, "kc"),
            timeout=PATIENCE,
        )
        if (rest := draft_choice(table, alice, "kr")) is not None:
            answered = await table.choose(alice, rest)
            assert not answered.failed
            return
        keep = draft_choice(table, bob, "kc")
        assert keep is not None
        await table.choose(bob, keep)
    raise AssertionError("alice was never offered Keep the rest")


async def test_keep_the_rest_outlives_a_kill_9(
    driver: Driver, scene: Scene, database: Path, bots: BotFactory
) -> None:
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=1)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    await draft_to_keep_the_rest(table, scene.alice, scene.bob)
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.match.public_view().phase is Phase.DRAFT
    await bot.kill()

    again = bots()
    await again.start()
    await table.press(scene.bob, "hand")
    # bob drafts on alone: each of his keeps is answered with his next pick, alice's
    # picks in between being kept for her at once, as she asked before the kill.
    picks = 0
    while (keep := draft_choice(table, scene.bob, "kc")) is not None and picks < 14:
        answered = await table.choose(scene.bob, keep)
        assert not answered.failed
        picks += 1
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.match.public_view().phase is Phase.PLAY, f"the draft stopped after {picks}"
    assert picks >= 2
    alice = scene.alice.id
    kept_for_her = [a for p, a, _ in await logged(database, truth.table_id) if p == alice]
    assert all(a["type"] == "keep_card" and not a.get("timeout") for a in kept_for_her)
    assert table.failures() == []
    assert await again.stop() == 0


async def test_a_keep_due_to_a_keeper_when_the_bot_stopped_is_made_at_the_restart(
    scene: Scene, database: Path, bots: BotFactory
) -> None:
    users = [scene.alice, scene.bob]
    # A Duo draft whose next pick is a player's who had pressed Keep the rest: the bot
    # stopped after the other's pick was saved, before the keep it meant for them.
    reached = reach(
        "duo", [str(u.id) for u in users], lambda a: a["type"] == "keep_card", target=200
    )
    async with Database.open(database) as db:
        match_id = await write_running_table(
            db, reached, guild_id=scene.guild.id, channel_id=scene.channel.id, names=["a", "b"]
        )
    keeper = int(reached.player)
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO draft_keepers VALUES (?, ?, 1)", (match_id, keeper))
    bot = bots()
    await bot.start()
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.match.version == len(reached.path) + 1
    [(player, action, _)] = (await logged(database, match_id))[len(reached.path) :]
    assert (player, action["type"], action.get("timeout")) == (keeper, "keep_card", None)
    assert await bot.stop() == 0


async def test_a_table_posted_anew_after_a_kill_keeps_its_buttons_when_clicked_at_once(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory
) -> None:
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=5)
    await table.open("duo", opponent=scene.bob)
    before = table.table_message()
    assert before is not None
    await bot.kill()

    # Discord is slow to answer the restarted bot's post of the table: the new message
    # is in the channel for everyone to click while the bot still waits for its id.
    posted, release = asyncio.Event(), asyncio.Event()

    async def slow_table_post(request: web.Request, answer: Answer) -> web.StreamResponse:
        response = await answer()
        body = response.body if isinstance(response, web.Response) else None
        rows = json.loads(body).get("components", []) if isinstance(body, bytes) else []
        if any(c["custom_id"].endswith(":hand") for row in rows for c in row["components"]):
            posted.set()
            await release.wait()
        return response

    early = None
    async with route_hook(emu, POST_MESSAGE, slow_table_post):
        again = bots()
        await again.start()
        await asyncio.wait_for(posted.wait(), timeout=PATIENCE)
        fresh = table.table_message()
        assert fresh is not None
        assert fresh is not before
        button = hand_button(fresh)
        assert button is not None
        # alice presses Hand on it at once, if her client lets her.
        with contextlib.suppress(RefusedByClient):
            early = await driver.click(scene.alice, fresh, button["custom_id"])
        release.set()

    await driver.wait_for(lambda: before.deleted, timeout=PATIENCE)
    await driver.wait_for(
        lambda: (b := hand_button(fresh)) is not None and not b.get("disabled"), timeout=PATIENCE
    )
    tables = [m for m in driver.visible(scene.alice, scene.channel) if is_table_message(m)]
    assert tables == [fresh]
    if early is not None and early.message is not None:
        assert "moved further down" not in early.message.text()
    await table.open_hands()
    assert table.who_can_act()
    assert emu.log.failed == []
    assert await again.stop() == 0


async def kill_before_its_end_is_shown(
    emu: Emulator, bot: BotProcess, database: Path, channel_id: int
) -> asyncio.Event:
    """Kill `bot` as it posts the first summary of a match already saved as ended."""
    killed = asyncio.Event()

    async def hook(request: web.Request, answer: Answer) -> web.StreamResponse:
        if not killed.is_set() and request.content_type == "application/json":
            body = await request.json()
            if body.get("embeds") and await load_truth(database, channel_id) is None:
                killed.set()
                await bot.kill()
                return web.json_response({"message": "gone", "code": 0}, status=503)
        return await answer()

    emu.rest.route_hooks[POST_MESSAGE] = hook
    return killed


async def test_a_match_that_ended_just_before_a_kill_is_shown_after_the_restart(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, bots: BotFactory
) -> None:
    users = [scene.alice, scene.bob]
    # The last round of a Duo match to 50, reached in the engine: a short play to the end.
    reached = late_round("duo", [str(u.id) for u in users], target=50, near=15)
    async with Database.open(database) as db:
        match_id = await write_running_table(
            db, reached, guild_id=scene.guild.id, channel_id=scene.channel.id, names=["a", "b"]
        )
    bot = bots()
    await bot.start()
    table = ScriptedTable(driver, scene.channel, users, seed=3)
    shown = await driver.wait_for(table.table_message, timeout=PATIENCE)
    await table.open_hands()
    killed = await kill_before_its_end_is_shown(emu, bot, database, scene.channel.id)
    try:
        await play_out(table, driver, database)
        await driver.wait_for(killed.is_set, timeout=PATIENCE)
    finally:
        emu.rest.route_hooks.pop(POST_MESSAGE, None)
    assert "wins the match" not in table.public_text()  # the kill came first

    again = bots()
    await again.start()
    await driver.wait_for(lambda: rematch_ids(shown), timeout=PATIENCE)
    public = [m.text() for m in driver.visible(scene.alice, scene.channel) if not m.ephemeral]
    assert len([text for text in public if text.startswith("UNO Duo: ")]) == 1  # the summary
    rounds = [
        found[1] for text in public if (found := re.match(r"Round (\d+): \S+ went out", text))
    ]
    assert rounds
    assert len(rounds) == len(set(rounds))  # the last round's summary too, once
    assert table.table_message() is None  # no live table controls are left anywhere
    # The end is noted as shown just after the final table is drawn: wait for the note.
    assert await ending_noted(database, within=15.0)
    async with Database.open(database) as db:
        assert [o.table_id for o in await db.rematches.open_offers()] == [match_id]
    with sqlite3.connect(database) as conn:
        (results,) = conn.execute(
            "SELECT count(*) FROM results WHERE match_id = ?", (match_id,)
        ).fetchone()
    assert results == 2
    # The offer works: both players press Rematch and a new table opens below.
    for user in users:
        await driver.click(user, shown, rematch_ids(shown)[0])
    await driver.wait_for(table.table_message, timeout=PATIENCE)
    assert await again.stop() == 0
    assert "Traceback" not in again.output()


async def test_one_missed_draft_deadline_is_one_default_pick(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, bots: BotFactory
) -> None:
    panel_counts: list[int] = []

    def read(payload: dict[str, Any]) -> None:
        found = re.search(r"you missed (\d) of 3", payload.get("content") or "")
        if found:
            panel_counts.append(int(found[1]))

    emu.world.readers.append(read)
    bot = bots(turn_seconds=3)  # TEST_TURN_SECONDS: three missed deadlines take seconds
    await bot.start()
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=2)
    await table.open("duo", opponent=scene.bob)
    await table.open_hands()
    # alice keeps the rest at her first pick; bob never clicks.
    rest = await driver.wait_for(lambda: draft_choice(table, scene.alice, "kr"), timeout=PATIENCE)
    await table.choose(scene.alice, rest)
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=30)
    first_table = 1  # a database of its own
    bobs = [(a, when) for p, a, when in await logged(database, first_table) if p == scene.bob.id]
    kinds = [(a["type"], bool(a.get("timeout"))) for a, _ in bobs]
    assert kinds == [("keep_card", True), ("keep_card", True), ("remove", False)]
    gaps = [later - earlier for (_, earlier), (_, later) in itertools.pairwise(bobs)]
    assert min(gaps) >= 0.9, f"two defaults for one deadline: {gaps}"
    # His panel counted up, never down, and the channel warned him at his first miss.
    assert panel_counts
    assert panel_counts == sorted(panel_counts)
    assert max(panel_counts) <= 2
    warned = [m for m in emu.world.messages.values() if "your time ran out" in m.text()]
    assert any("missed 1 of 3" in m.text() for m in warned)
    emu.world.readers.remove(read)
    assert await bot.stop() == 0
