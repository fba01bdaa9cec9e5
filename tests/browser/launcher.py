"""`python -m playground.launch` as `make run` starts it without a token, in a subprocess."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"open (http://127\.0\.0\.1:\d+/)")


class Launcher:
    """The playground launcher in an empty folder (no developer `.env` is read there)."""

    def __init__(self, folder: Path, *, table_seed: int = 7, **env: str) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.env = {
            k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))
        }
        self.env.update(
            PYTHONPATH=str(ROOT),
            PLAYGROUND_PORT="0",
            TABLE_SEED=str(table_seed),
            PYTHONUNBUFFERED="1",
        )
        self.env.update(env)
        self.lines: list[str] = []
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self._url_or_end = threading.Event()

    def start(self, *, timeout: float = 120.0) -> str:
        """Start it and return the page's URL, read from the one line it prints."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "playground.launch", "--no-browser", "--data", str(self.data)],
            cwd=self.folder,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            # A group of its own, as a terminal gives `make run`: Ctrl-C reaches it whole.
            start_new_session=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        # Set by the reader at the line with the URL, or when the launcher's output ends.
        if self._url_or_end.wait(timeout) and self.url:
            return self.url
        raise AssertionError(f"no URL within {timeout} s: {self.output()}")

    def _read(self) -> None:
        assert self.process is not None
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if not self.url and (found := URL.search(line)):
                self.url = found.group(1)
                self._url_or_end.set()
        self._url_or_end.set()

    def output(self) -> str:
        return "".join(self.lines)

    def bot_log(self) -> str:
        log = self.data / "bot.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def interrupt(self) -> int:
        """Ctrl-C, as a person stops `make run`; return the exit status."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            # Its bot is a process of its own: killed with it, not left running past the test.
            for pid in self.bot_processes():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            raise

    def ctrl_c(self, *, timeout: float = 30.0) -> tuple[int, float]:
        """Ctrl-C as a terminal sends it, to the launcher and its bot alike; return the
        exit status and the seconds until every process of the group had ended."""
        assert self.process is not None
        started = time.monotonic()
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            raise
        return code, time.monotonic() - started

    def bot_processes(self) -> list[int]:
        """Processes still running with this playground's database (the bot's environment)."""
        marker = f"DATABASE_PATH={self.data}".encode()
        found = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                if marker in (proc / "environ").read_bytes():
                    found.append(int(proc.name))
            except OSError:
                continue
        return found
