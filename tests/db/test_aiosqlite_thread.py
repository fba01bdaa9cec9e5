"""aiosqlite's private names, used in db/aiosqlite_thread.py only, pinned."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import aiosqlite
import pytest

from db.aiosqlite_thread import check_internals, on_thread


async def test_aiosqlite_still_has_the_private_names_the_whole_on_thread_path_uses(
    tmp_path: Path,
) -> None:
    """Fails with a message naming what changed when an aiosqlite upgrade moves them."""
    async with aiosqlite.connect(tmp_path / "pin.db") as conn:
        check_internals(conn)
        thread = await on_thread(conn, lambda raw: (raw, threading.get_ident()))
        assert isinstance(thread[0], sqlite3.Connection)
        assert thread[1] != threading.get_ident()


async def test_a_changed_aiosqlite_is_reported_clearly(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "pin.db") as conn:
        real = conn._execute
        conn._execute = None  # type: ignore[assignment]  # what a newer version might do
        try:
            with pytest.raises(RuntimeError, match=r"_execute.*DB_WHOLE_ON_THREAD=false"):
                check_internals(conn)
        finally:
            conn._execute = real  # type: ignore[method-assign]
