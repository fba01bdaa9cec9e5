"""Python memory per idle table, the bot's own structures only (no Discord, no load).

Run: .venv/bin/python bench/table_memory.py [--tables 200] [--moves 12]

bench/bot_load.py's KiB per table is RSS under load: on a shared machine it also
holds the clicks in flight and the allocator's high-water mark, which move with the
machine's load. This one is steady: it starts `--tables` Duo tables through the real
TableService (a real SQLite file, a stand-in for Discord's HTTP that answers at once),
plays `--moves` random moves at each, each answered with the player's panel as a click
would be, lets the table edits and notifications settle, and reports what tracemalloc
still counts per live table: the match, the table, its caches, panels, timers, tasks;
and the tracked objects the moves left (frozen after the tables opened, as the bot's
collector freezes): what a full collection of the collector scans, per table.
Figures, not assertions; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogs.uno.config import UnoSettings  # noqa: E402
from cogs.uno.table.message import TableMessage  # noqa: E402
from cogs.uno.table.options import TableOptions  # noqa: E402
from cogs.uno.table.outcome import Accepted  # noqa: E402
from cogs.uno.table.panels import HandPanels  # noqa: E402
from cogs.uno.table.running import LiveTable  # noqa: E402
from cogs.uno.table.service import TableService  # noqa: E402
from cogs.uno.transport import answers  # noqa: E402
from db.database import Database  # noqa: E402

TOKEN = "t" * 200  # an interaction token is about this long


class _Http:
    """Discord's REST API answering at once: message ids for posts, nothing else."""

    token: str | None = None  # not logged in: table edits go through edit_message
    proxy: str | None = None

    def __init__(self) -> None:
        self.posted = 0

    async def edit_message(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return {}

    async def send_message(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        self.posted += 1
        return {"id": str(10**17 + self.posted)}

    async def delete_message(self, *args: Any, **kwargs: Any) -> None:
        return None


class _Client:
    def __init__(self) -> None:
        self.http = _Http()
        self.application_id = 1
        self.user = None

    def get_guild(self, guild_id: int) -> None:
        return None  # no server known: tables speak the default language


async def _edit_original(client: Any, token: str, data: dict[str, Any]) -> None:
    return None


async def _play(
    service: TableService, panels: HandPanels, table: LiveTable, rng: random.Random
) -> None:
    ready = [p for p in table.match.players if table.match.legal_actions(p)]
    if not ready or table.closed:
        return
    player = rng.choice(ready)
    action = rng.choice(table.match.legal_actions(player))
    outcome = await service.act(table, player, action, table.match.version)
    if isinstance(outcome, Accepted):
        async with table.answer_order(player).turn(outcome.ticket):
            panels.data(table, player)  # the click's answer
            panels.remember(table, player, TOKEN)


async def measure(tables: int, moves: int, seed: int) -> dict[str, Any]:
    vars(answers)["edit_original"] = _edit_original  # panels refresh through Discord: answered
    with tempfile.TemporaryDirectory(prefix="table_memory_") as tmp:
        db = await Database.open(Path(tmp) / "uno.db")
        client: Any = _Client()
        panels = HandPanels(client)
        service = TableService(db, UnoSettings(turn_seconds=90), TableMessage(client, panels, db))
        rng = random.Random(seed)
        gc.collect()
        tracemalloc.start(1)
        base = tracemalloc.get_traced_memory()[0]
        started = []
        for i in range(tables):
            seats = [(10**17 + 10 * i + j, f"Player {i}-{j}") for j in range(2)]
            table = await service.start(
                guild_id=1 + i // 8,
                channel_id=10**15 + i,
                host_id=seats[0][0],
                variant="duo",
                seats=seats,
                play=TableOptions(target=200, turn_seconds=90),
                message_id=10**16 + i,
            )
            for uid, _ in seats:  # both players press Hand
                panels.data(table, str(uid))
                panels.remember(table, str(uid), TOKEN)
            started.append(table)
        # What the moves leave for the collector: the tracked objects a full collection
        # scans once the tables as they opened are frozen (as the bot's collector does).
        gc.collect()
        gc.freeze()
        for _ in range(moves):
            for table in started:
                await _play(service, panels, table, rng)
        await asyncio.sleep(3.5)  # the coalesced edits and notifications settle
        gc.collect()
        left = len(gc.get_objects())
        gc.unfreeze()
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        live = sum(1 for t in started if not t.closed)
        await service.shutdown(grace=1)
        await db.close()
    return {
        "tables": tables,
        "live_tables": live,
        "moves_per_table": moves,
        "kib_per_table": round(used / 1024 / max(live, 1), 1),
        "tracked_objects_left_per_table": round(left / max(live, 1), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.tables, args.moves, args.seed))
    print(
        f"{figures['live_tables']} live Duo tables after {figures['moves_per_table']} moves "
        f"each: {figures['kib_per_table']} KiB of Python objects per table, "
        f"{figures['tracked_objects_left_per_table']} tracked objects per table left by the "
        "moves for a full collection to scan"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
