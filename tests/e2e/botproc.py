"""Run the real bot (`python bot.py`) as a subprocess against the emulator."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from playground import Emulator
from tests.e2e.patience import PATIENCE

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """`python bot.py` exactly as an admin starts it, pointed at the emulator by settings."""

    def __init__(
        self,
        emulator: Emulator,
        *,
        database: Path,
        guild_id: int | None,
        turn_seconds: int = 90,
        table_seed: int | None = None,
        log_path: Path | None = None,
        launcher: Sequence[str] = (),
        extra_env: Mapping[str, str] | None = None,
    ) -> None:
        """`launcher`: arguments put before bot.py (a script that runs it, e.g. a probe)."""
        self.emulator = emulator
        self.database = database
        self.guild_id = guild_id
        self.turn_seconds = turn_seconds
        self.table_seed = table_seed
        self.log_path = log_path or database.with_suffix(".log")
        self.launcher = tuple(launcher)
        self.extra_env = dict(extra_env or {})
        self.process: asyncio.subprocess.Process | None = None

    def env(self) -> dict[str, str]:
        own = ("DISCORD_", "DEV_GUILD", "TURN_SECONDS", "TEST_T", "TABLE_SEED")
        env = {k: v for k, v in os.environ.items() if not k.startswith(own)}
        env.update(
            DISCORD_TOKEN=self.emulator.token,
            DISCORD_API_BASE=self.emulator.api_base,
            DATABASE_PATH=str(self.database),
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
        )
        if self.guild_id is not None:  # else: global commands, for every guild
            env["DEV_GUILD_ID"] = str(self.guild_id)
        if self.turn_seconds < 5:  # below what an admin may set (config.py)
            env["TEST_TURN_SECONDS"] = str(self.turn_seconds)
        else:
            env["TURN_SECONDS"] = str(self.turn_seconds)
        if self.table_seed is not None:
            env["TABLE_SEED"] = str(self.table_seed)
        env.update(self.extra_env)
        return env

    async def start(self, *, timeout: float = PATIENCE) -> None:  # noqa: ASYNC109
        identified = self.emulator.gateway.identifies  # a restart must identify anew
        log = self.log_path.open("ab")
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            *self.launcher,
            str(ROOT / "bot.py"),
            cwd=self.database.parent,  # no developer .env is read from here
            env=self.env(),
            stdout=log,
            stderr=log,
        )
        log.close()
        await self.emulator.wait_connected(after=identified, timeout=timeout)
        await self.emulator.world.wait_for(
            lambda: self.emulator.world.commands.get(self.guild_id), timeout=timeout
        )

    async def kill(self) -> None:
        """SIGKILL: no clean-up at all, like a crash or a power cut."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self, how: signal.Signals = signal.SIGINT) -> int:
        """Ctrl-C (SIGINT) or a service manager's SIGTERM; a kill (its exit status then
        fails the caller's check) if it is still running after PATIENCE."""
        if self.process is None:
            return 0
        if self.process.returncode is not None:
            return self.process.returncode
        self.process.send_signal(how)
        try:
            return await asyncio.wait_for(self.process.wait(), timeout=PATIENCE)
        except TimeoutError:
            self.process.kill()
            return await self.process.wait()

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
