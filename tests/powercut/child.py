"""The process the durability tests cut off: 8 tables recording actions.

Run as `python -m tests.powercut.child TARGET SYNCHRONOUS` (a SQLite path or a
PostgreSQL URL; SYNCHRONOUS is SQLite's FULL or NORMAL). Each action goes through
`record_action`, the call the bot makes for a click (every 10th also ends a round,
through the path a round's end takes), and "ack MATCH SEQ" is printed only once it
returned: when the bot would answer the player.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

from db.database import Database
from db.models import RoundResult, Seat
from db.sqlite_store import Synchronous

TABLES = 8
ROUND_EVERY = 10


def note_ack(acked: dict[int, int], line: bytes) -> int:
    """Read one of the child's lines into `acked` (match -> last acknowledged seq);
    return 1 if it acknowledged an action."""
    parts = line.split()
    if len(parts) != 3 or parts[0] != b"ack":
        return 0
    mid, seq = int(parts[1]), int(parts[2])
    acked[mid] = max(acked.get(mid, 0), seq)
    return 1


def read_acks(child: subprocess.Popen[bytes], acked: dict[int, int], count: int) -> None:
    """Read the child's lines into `acked` until it has acknowledged `count` actions (two
    minutes at most: a slow machine, not a stuck child)."""
    assert child.stdout is not None
    seen = 0
    deadline = time.monotonic() + 120
    while seen < count:
        line = child.stdout.readline()
        assert line, f"the child ended early with {child.wait()}"
        seen += note_ack(acked, line)
        assert time.monotonic() < deadline, "the child is too slow"


async def table(db: Database, mid: int, players: tuple[int, int]) -> None:
    seq = 0
    while True:
        seq += 1
        ends_round = seq % ROUND_EVERY == 0
        await db.tables.record_action(
            mid,
            seq=seq,
            player_id=players[seq % 2],
            action={"n": seq, "pad": "x" * 80},
            state=json.dumps({"seq": seq, "pad": "y" * 4000}),
            deadline=None,
            round_start=seq % ROUND_EVERY == 1,
            round_result=RoundResult(
                round_no=seq // ROUND_EVERY, winner_id=players[0], points={players[1]: 5}
            )
            if ends_round
            else None,
        )
        sys.stdout.write(f"ack {mid} {seq}\n")
        sys.stdout.flush()


async def main(path: str, synchronous: Synchronous) -> None:
    db = await Database.open(path, snapshot_every=7, synchronous=synchronous)
    tables = []
    for i in range(TABLES):
        players = (2 * i + 1, 2 * i + 2)
        mid = await db.tables.start_match(
            guild_id=1,
            channel_id=2,
            variant="duo",
            options={},
            seed=i,
            players=[Seat(user_id=uid, display_name="p") for uid in players],
            state=json.dumps({"seq": 0}),
        )
        tables.append(table(db, mid, players))
    await asyncio.gather(*tables)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], "NORMAL" if sys.argv[2] == "NORMAL" else "FULL"))
