"""Kill -9 the real bot again and again across live tables; count what a restart loses.

The real bot (`python bot.py`) against the playground's loopback Discord, with a few
tables in play at once (two Duo, a Pizza and a classic table, all to 1000 points so
that none ends during the soak). Each round, scripted players click what their
panels offer for a random while, the bot is killed with SIGKILL in the middle of it,
and started again. As soon as a restarted bot posts a table anew, a player presses
Hand on the new message, while Discord is slow to answer the bot's post of it (the
race of a click arriving before the bot has recorded the message). Then, once the bot is quiet:

- tables without buttons: running tables whose channel shows no table message with a
  working Hand button (must be 0); tables with two live messages are counted too;
- answered actions lost: clicks whose answer said they were taken, missing from the
  action log after the restart (must be 0);
- early clicks: Hand presses on a table posted anew, how many the client could not
  send yet (its buttons still disabled) and how many were told the table moved;
- restart: from starting the process to its gateway session, p50 and max.

Usage: .venv/bin/python bench/kill_soak.py [--kills 30] [--seed N] [--data DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from db.database import Database  # noqa: E402
from playground import Driver, Emulator, Message, Outcome, RefusedByClient, User  # noqa: E402
from playground.rest import Answer, RouteHook  # noqa: E402
from tests.e2e.botproc import BotProcess  # noqa: E402
from tests.e2e.uno_table import ScriptedTable, is_table_message, load_truth  # noqa: E402

TABLES = (("duo", 2), ("duo", 2), ("pizza", 3), ("classic", 3))
NAMES = ("alice", "bob", "carol")
TARGET = 1000  # no match ends during the soak: every kill lands on live tables
# What an answer says when the click changed nothing
# (cogs/uno/render/refusals.py, cogs/uno/table/clicks.py).
REFUSED = ("⌛", "⚠️", "nothing changed", "nothing happened", "try again", "restarting")


@dataclass
class Figures:
    kills: int = 0
    without_buttons: int = 0
    two_live: int = 0
    answered: list[tuple[int, int, int]] = field(default_factory=list)  # match, seq, user
    lost: int = 0
    early: int = 0
    early_disabled: int = 0
    early_moved: int = 0
    restarts: list[float] = field(default_factory=list)


def hand_button(message: Message) -> dict[str, object] | None:
    return next((c for c in message.iter_components() if c["custom_id"].endswith(":hand")), None)


def live(message: Message) -> bool:
    button = hand_button(message)
    return button is not None and not button.get("disabled") and not message.deleted


def accepted(outcome: Outcome) -> bool:
    if outcome.failed or outcome.message is None:
        return False
    text = outcome.message.text()
    return not any(mark in text for mark in REFUSED)


async def open_tables(emu: Emulator, rng: random.Random) -> list[ScriptedTable]:
    tables = []
    for n, (variant, players) in enumerate(TABLES):
        guild = emu.add_guild(f"soak {n}")
        channel = emu.add_text_channel(guild, "uno")
        users: list[User] = [emu.add_user(name, guild=guild) for name in NAMES[:players]]
        table = ScriptedTable(Driver(emu), channel, users, seed=rng.getrandbits(32))
        options: dict[str, object] = {"target": TARGET}
        if variant == "duo":
            options["opponent"] = users[1]
        await table.open(variant, **options)
        await table.open_hands()
        tables.append(table)
    return tables


async def play(
    table: ScriptedTable, rng: random.Random, figures: Figures, killed: asyncio.Event
) -> None:
    """Click what the panels offer until the bot is killed. (Python 3.11's wait_for can
    swallow a cancellation that meets its own timeout: the event ends the loop for sure.)"""
    while not killed.is_set():
        try:
            ready = table.who_can_act()
            if not ready:
                await table.open_hands()
                await table.driver.wait_idle(quiet=0.05)
                continue
            user, choices = rng.choice(ready)
            custom_id, value = rng.choice(choices)
            _, match_id, version, _ = custom_id.split(":", 3)
            outcome = await table.choose(user, (custom_id, value))
        except (TimeoutError, RuntimeError, AssertionError, RefusedByClient):
            await asyncio.sleep(0.05)  # the bot is being killed, or a panel is missing
            continue
        if accepted(outcome):
            figures.answered.append((int(match_id), int(version) + 1, user.id))


def slow_table_posts(listening: dict[str, asyncio.Event], rng: random.Random) -> RouteHook:
    """Discord answers a post of a table message only once the restarted bot listens, and
    a little later still: clicks on the new message can arrive before the bot knows it."""

    async def hook(request: web.Request, answer: Answer) -> web.StreamResponse:
        response = await answer()
        body = response.body if isinstance(response, web.Response) else None
        if isinstance(body, bytes) and b':hand"' in body:
            await asyncio.wait_for(listening["now"].wait(), timeout=30)
            await asyncio.sleep(rng.uniform(0.0, 0.3))
        return response

    return hook


async def press_at_once(
    table: ScriptedTable, old: Message | None, listening: asyncio.Event, figures: Figures
) -> None:
    """Press Hand on the table's new message the moment it shows and the bot listens."""
    driver = table.driver
    fresh: Message = await driver.wait_for(
        lambda: (m := table.table_message()) is not None and m is not old and m, timeout=30
    )
    await asyncio.wait_for(listening.wait(), timeout=30)
    button = hand_button(fresh)
    assert button is not None
    figures.early += 1
    try:
        outcome = await driver.click(table.users[0], fresh, str(button["custom_id"]))
    except RefusedByClient:
        figures.early_disabled += 1
        return
    if outcome.message is not None and "moved further down" in outcome.message.text():
        figures.early_moved += 1


async def audit(tables: list[ScriptedTable], database: Path, figures: Figures) -> None:
    for table in tables:
        if await load_truth(database, table.channel.id) is None:
            continue
        shown = [m for m in table.driver.visible(table.users[0], table.channel)]
        alive = [m for m in shown if is_table_message(m) and live(m)]
        figures.without_buttons += not alive
        figures.two_live += len(alive) > 1
    async with Database.open(database) as db:
        logs = {}
        for match_id in {m for m, _, _ in figures.answered}:
            logs[match_id] = {a.seq: a.player_id for a in await db.tables.actions(match_id)}
    figures.lost = sum(logs[m].get(seq) != user for m, seq, user in figures.answered)


async def soak(kills: int, seed: int, folder: Path) -> Figures:
    rng = random.Random(seed)
    figures = Figures()
    database = folder / "uno.db"
    async with Emulator() as emu:
        bot = BotProcess(emu, database=database, guild_id=None)
        await bot.start()
        tables = await open_tables(emu, rng)
        listening = {"now": asyncio.Event()}
        hook = slow_table_posts(listening, rng)
        emu.rest.route_hooks["POST /channels/{channel_id}/messages"] = hook
        driver = Driver(emu)
        for _ in range(kills):
            killed = asyncio.Event()
            players = [asyncio.create_task(play(t, rng, figures, killed)) for t in tables]
            await asyncio.sleep(rng.uniform(0.05, 2.0))  # a kill at a random moment of play
            await bot.kill()
            killed.set()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            figures.kills += 1
            olds = [t.table_message() for t in tables]
            listening["now"] = asyncio.Event()
            eager = [
                asyncio.create_task(press_at_once(t, old, listening["now"], figures))
                for t, old in zip(tables, olds, strict=True)
            ]
            bot = BotProcess(emu, database=database, guild_id=None)
            started = time.monotonic()
            await bot.start()
            figures.restarts.append(time.monotonic() - started)
            listening["now"].set()
            await asyncio.gather(*eager)
            await driver.wait_idle(quiet=0.5, timeout=30)
            await audit(tables, database, figures)
        code = await bot.stop()
        if code != 0 or "Traceback" in bot.output():
            print(bot.output()[-3000:])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--data", type=Path, help="keep the database and bot log here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.data or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        f = asyncio.run(soak(args.kills, args.seed, folder))
    print(f"kills                  {f.kills} across {len(TABLES)} live tables")
    print(f"tables without buttons {f.without_buttons} (after each restart, summed)")
    print(f"tables with two live   {f.two_live}")
    print(f"answered actions lost  {f.lost} of {len(f.answered)} checked")
    print(
        f"early Hand presses     {f.early}: {f.early_disabled} not sendable yet, "
        f"{f.early_moved} told the table moved"
    )
    print(
        f"restart                p50 {statistics.median(f.restarts):.2f} s, "
        f"max {max(f.restarts):.2f} s"
    )


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
