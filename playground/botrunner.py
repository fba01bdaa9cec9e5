"""Run the real bot (`python bot.py`) as a subprocess pointed at the emulator."""

# ruff: noqa: ASYNC109  (timeout= is this API's deadline for waiting on the bot)

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from .server import Emulator

ROOT = Path(__file__).resolve().parents[1]


class BotRunner:
    """`python bot.py` exactly as an admin starts it, told where Discord is by settings.

    Only the Discord settings and the database path are set here: the others (turn time,
    log level, table seed) come from the environment or the `.env` of the folder it runs in.
    """

    def __init__(self, emulator: Emulator, *, database: Path, guild_id: int, log: Path) -> None:
        self.emulator = emulator
        self.database = database
        self.guild_id = guild_id
        self.log_path = log
        self.process: asyncio.subprocess.Process | None = None

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
        env.update(
            DISCORD_TOKEN=self.emulator.token,
            DISCORD_API_BASE=self.emulator.api_base,
            DATABASE_PATH=str(self.database),
            DEV_GUILD_ID=str(self.guild_id),
            PYTHONUNBUFFERED="1",
        )
        return env

    async def start(self, *, timeout: float = 60.0) -> None:
        """Start the bot; return once it has synced its commands and is connected.

        discord.py syncs the commands in `setup_hook`, before it opens the gateway: both
        are waited for, or a command typed at once would find no bot to deliver it to.
        """
        # The log of this start only, as the playground's database is new at each start.
        with self.log_path.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                str(ROOT / "bot.py"),
                env=self.env(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        world = self.emulator.world
        ready = asyncio.ensure_future(world.wait_for(self._ready, timeout=timeout))
        exited = asyncio.ensure_future(self.process.wait())
        await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        exited.cancel()
        if not ready.done():
            ready.cancel()
            raise RuntimeError(f"the bot stopped while starting (exit {self.process.returncode})")
        ready.result()

    def _ready(self) -> bool:
        gateway = self.emulator.gateway
        synced = bool(self.emulator.world.commands.get(self.guild_id))
        return synced and gateway.connected and gateway.pending == 0

    async def wait(self) -> int:
        assert self.process is not None
        return await self.process.wait()

    async def stop(self) -> int | None:
        """Interrupt the bot as Ctrl-C does, then kill it if it has not stopped in 10 s."""
        process = self.process
        if process is None:
            return None
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(process.wait(), timeout=10)
            except TimeoutError:
                process.kill()
        return await process.wait()

    def tail(self, lines: int = 20) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
