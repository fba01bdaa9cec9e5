"""A bot killed with SIGKILL mid-stream loses no action it reported as accepted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from db.database import Database

ROOT = Path(__file__).resolve().parents[2]

# The child plays 8 tables at once and prints "match seq" only after
# record_action returned, which is when the bot would tell the player.
CHILD = """
import asyncio, json, sys
from db.database import Database
from db.models import Seat

async def main(path):
    db = await Database.open(path, snapshot_every=7)
    mids = []
    for i in range(8):
        mids.append(await db.tables.start_match(
            guild_id=1, channel_id=2, variant="duo", options={}, seed=i,
            players=[Seat(user_id=2 * i + 1, display_name="a"),
                     Seat(user_id=2 * i + 2, display_name="b")],
            state=json.dumps({"seq": 0}),
        ))

    async def table(mid, player):
        seq = 0
        while True:
            seq += 1
            await db.tables.record_action(
                mid, seq=seq, player_id=player, action={"n": seq, "pad": "x" * 80},
                state=lambda: json.dumps({"seq": seq, "pad": "y" * 4000}),
                deadline=None, round_start=seq % 40 == 0,
            )
            sys.stdout.write(f"{mid} {seq}\\n")
            sys.stdout.flush()

    await asyncio.gather(*(table(mid, 2 * i + 1) for i, mid in enumerate(mids)))

asyncio.run(main(sys.argv[1]))
"""


def run_and_kill(path: Path, after_lines: int) -> dict[int, int]:
    """Run the child until it has confirmed `after_lines` actions, SIGKILL it, return them."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, env=env, cwd=ROOT
    )
    assert child.stdout is not None
    confirmed: dict[int, int] = {}
    lines = 0
    deadline = time.monotonic() + 60
    try:
        while lines < after_lines:
            line = child.stdout.readline()
            assert line, f"child ended early with {child.wait()}"
            mid, seq = map(int, line.split())
            confirmed[mid] = seq
            lines += 1
            assert time.monotonic() < deadline, "child too slow"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    # Lines already in the pipe were confirmed before the kill too.
    for rest in child.stdout.read().decode().splitlines():
        parts = rest.split()
        if len(parts) == 2:
            confirmed[int(parts[0])] = max(confirmed.get(int(parts[0]), 0), int(parts[1]))
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    return confirmed


@pytest.mark.parametrize("after_lines", [300, 1500, 4000])
async def test_sigkill_loses_no_confirmed_action(tmp_path: Path, after_lines: int) -> None:
    path = tmp_path / "crash.db"
    confirmed = run_and_kill(path, after_lines)
    assert len(confirmed) == 8

    async with Database.open(path, snapshot_every=7) as db:
        assert await db.pragma("integrity_check") == "ok"
        tables = {t.match.match_id: t for t in await db.tables.running_tables()}
        assert set(tables) == set(confirmed)
        for mid, last_confirmed in confirmed.items():
            logged = [a.seq for a in await db.tables.actions(mid)]
            # Everything confirmed is there; at most the unconfirmed tail beyond it.
            assert logged == list(range(1, len(logged) + 1))
            assert len(logged) >= last_confirmed
            table = tables[mid]
            assert table.last_seq == len(logged)
            assert table.snapshot_seq > len(logged) - 7
            assert json.loads(table.snapshot_json)["seq"] == table.snapshot_seq
        # The file is still writable where each table left off.
        mid = next(iter(confirmed))
        await db.tables.record_action(
            mid,
            seq=tables[mid].last_seq + 1,
            player_id=tables[mid].match.players[0].user_id,
            action={},
            state="{}",
            deadline=None,
        )
