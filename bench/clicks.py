"""Clicks per turn and public posts per match, as hurried players see them.

The real bot (`python bot.py`) against the playground's loopback Discord. Scripted
players play one match of each kind to its end, clicking only what the bot shows
them and always taking the shortcut (Keep the rest, one Play · UNO! button, a play
before a draw); a player presses Hand only when no panel of theirs offers anything.

Figures, per match:
- clicks: every click or select (draft picks, plays, draws, colours, Hand presses);
- turns: the plays and draws in the action log (a turn ends with one of them);
- clicks per turn: the clicks outside the Duo draft over the turns;
- public posts: the bot's messages in the channel (lobby, table, summaries, pings),
  not counting edits or private panels.

Usage: .venv/bin/python bench/clicks.py [--seed N] [--target N (0: each game's default)]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from db.database import Database  # noqa: E402
from playground import Driver, Emulator, Message, User  # noqa: E402
from tests.e2e.botproc import BotProcess  # noqa: E402
from tests.e2e.uno_table import ScriptedTable, play_out  # noqa: E402

GAMES = (("duo", 2), ("pizza", 3), ("classic", 4))
NAMES = ("alice", "bob", "carol", "dave")


def kind_of(post: Message) -> str:
    """What a public post is: the lobby that became the table (or a re-posted table),
    a summary, a ping."""
    title = post.embeds[0].get("title", "") if post.embeds else ""
    if "wins the match" in title:
        return "match summary"
    if title.startswith("Round "):
        return "round summary"
    if "your turn" in post.content or "time ran out" in post.content:
        return "ping"
    return "table"


async def one_match(
    emu: Emulator,
    bot_db: Path,
    variant: str,
    players: int,
    *,
    match_id: int,
    seed: int,
    target: int,
) -> dict[str, object]:
    guild = emu.add_guild(f"{variant} {players}")
    channel = emu.add_text_channel(guild, "uno")
    users: list[User] = [emu.add_user(name, guild=guild) for name in NAMES[:players]]
    driver = Driver(emu)
    table = ScriptedTable(driver, channel, users, seed=seed)
    options: dict[str, object] = {"target": target} if target else {}
    if variant == "duo":
        options["opponent"] = users[1]
    await table.open(variant, **options)
    await table.open_hands()
    clicks = await play_out(table, driver, bot_db, max_clicks=20_000)
    await driver.wait_idle(quiet=1.0, timeout=15)
    async with Database.open(bot_db) as db:
        logged = [json.loads(a.action_json)["type"] for a in await db.tables.actions(match_id)]
    turns = sum(kind in ("play", "draw") for kind in logged)
    posts = [
        m
        for m in emu.world.messages.values()
        if m.channel is channel and m.author is emu.world.bot and not m.ephemeral
    ]
    kinds = Counter(kind_of(m) for m in posts)
    return {
        "game": f"{variant} {players}p to {target or 'the default target'}",
        "clicks": clicks["draft"] + clicks["play"] + len(users),  # + the first Hand each
        "draft_clicks": clicks["draft"],
        "turns": turns,
        "clicks_per_turn": round(clicks["play"] / max(turns, 1), 2),
        "public_posts": len(posts),
        "posts_by_kind": dict(sorted(kinds.items())),
        "failed": len(table.failures()),
    }


async def main(seed: int, target: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        bot_db = Path(scratch) / "uno.db"
        async with Emulator() as emu:
            bot = BotProcess(emu, database=bot_db, guild_id=None, table_seed=seed)
            await bot.start()
            try:
                for match_id, (variant, players) in enumerate(GAMES, start=1):
                    row = await one_match(
                        emu,
                        bot_db,
                        variant,
                        players,
                        match_id=match_id,  # one match per game, in order
                        seed=seed,
                        target=target,
                    )
                    print(json.dumps(row), flush=True)
            finally:
                await bot.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11, help="table and player seed")
    parser.add_argument(
        "--target", type=int, default=50, help="each match's target (0: each game's default)"
    )
    args = parser.parse_args()
    asyncio.run(main(args.seed, args.target))
