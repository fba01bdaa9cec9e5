"""A power cut, simulated for real: what SQLite had not fsynced when the power went is gone.

A kill -9 alone proves little about power: the OS keeps the process's writes in its
page cache and writes them out later. Here the child runs with shim.c preloaded,
which logs, before each write to the database's files, the bytes it overwrites, and
forgets them once the file is fsynced. After the kill the parent replays those logs
backwards (the disk as it stood at the last fsync of each file), deletes the -shm
memory map (SQLite rebuilds it from the WAL), opens the file as the bot would and
looks for every action the child acknowledged. A file deleted (the rollback journal
SQLite uses while it creates the file) is taken as gone: only contents and sizes are
rolled back, not the directory.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from db.database import Database
from tests.powercut.child import note_ack, read_acks

ROOT = Path(__file__).resolve().parents[2]
SHIM = Path(__file__).with_name("shim.c")
HEADER = struct.Struct("=qqq")  # offset, bytes kept, file size before the write


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """shim.c compiled with the machine's C compiler (gcc is on every machine this runs on)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.fail("the power-cut test compiles tests/powercut/shim.c: install gcc")
    library = tmp_path_factory.mktemp("shim") / "powercut.so"
    built = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(SHIM), "-ldl", "-lpthread"],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, f"compiling {SHIM.name} failed:\n{built.stderr}"
    return library


def run_and_kill(shim: Path, path: Path, undo: Path, synchronous: str, acks: int) -> dict[int, int]:
    """Run the child until it acknowledged `acks` actions, kill -9 it; return each
    match's last acknowledged seq (lines already in the pipe included)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LD_PRELOAD": str(shim),
        "POWERCUT_PREFIX": str(path),
        "POWERCUT_UNDO": str(undo),
    }
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.powercut.child", str(path), synchronous],
        stdout=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    assert child.stdout is not None
    acked: dict[int, int] = {}
    try:
        read_acks(child, acked, acks)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    for line in child.stdout.read().splitlines():
        note_ack(acked, line)
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    return acked


def cut_power(path: Path, undo: Path) -> int:
    """Undo every write not yet fsynced, newest first; return how many were undone."""
    undone = 0
    for log in undo.glob("*.undo"):
        target = path.parent / log.name.removesuffix(".undo")
        if not target.exists():  # the rollback journal of the file's creation, deleted
            continue
        records = []
        data = log.read_bytes()
        at = 0
        while at < len(data):
            offset, kept, size = HEADER.unpack_from(data, at)
            at += HEADER.size
            records.append((offset, data[at : at + kept], size))
            at += kept
        with open(target, "r+b") as file:
            for offset, old, size in reversed(records):
                file.seek(offset)
                file.write(old)
                file.truncate(size)
        undone += len(records)
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return undone


async def lost_after_cut(shim: Path, tmp_path: Path, synchronous: str, acks: int) -> int:
    """Acknowledged actions missing after a power cut at the `acks`-th acknowledgement."""
    path, undo = tmp_path / "uno.db", tmp_path / "undo"
    undo.mkdir()
    acked = run_and_kill(shim, path, undo, synchronous, acks)
    assert len(acked) == 8
    # Each file the shim watched has a log, emptied or not: it was loaded.
    assert (undo / "uno.db-wal.undo").exists(), "the shim did not see the WAL"
    cut_power(path, undo)
    async with Database.open(path, snapshot_every=7) as db:
        assert await db.pragma("integrity_check") == "ok"
        lost = 0
        for mid, last in acked.items():
            logged = [a.seq for a in await db.tables.actions(mid)]
            assert logged == list(range(1, len(logged) + 1))  # no gap, whatever was lost
            lost += max(0, last - len(logged))
        return lost


@pytest.mark.parametrize("seed", range(5))
async def test_power_cut_with_synchronous_full_loses_no_acknowledged_action(
    shim: Path, tmp_path: Path, seed: int
) -> None:
    acks = random.Random(seed).randint(20, 6000)
    assert await lost_after_cut(shim, tmp_path, "FULL", acks) == 0


async def test_power_cut_with_synchronous_normal_loses_acknowledged_actions(
    shim: Path, tmp_path: Path
) -> None:
    # NORMAL fsyncs the WAL only at checkpoints: what was acknowledged since is lost.
    # The test above could therefore fail.
    assert await lost_after_cut(shim, tmp_path, "NORMAL", 1500) > 0
