"""A real PostgreSQL server for the tests: Debian's binaries, a temporary directory.

`make postgres` installs the package when missing (as `make browser` installs
Chromium). The server listens on a Unix socket in its directory only (no TCP
port), and runs as the `postgres` user when the tests run as root, since initdb
refuses root. Each test gets a fresh database of its own (`new_database`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg

PORT = 5432  # only names the socket file: the server opens no TCP port
USER = "uno"


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder, or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """initdb + pg_ctl start in a temporary directory; `stop()` removes it all."""

    def __init__(self) -> None:
        bindir = binaries()
        if bindir is None:
            raise RuntimeError(
                "the PostgreSQL tests need Debian's postgresql package: run `make postgres`"
                " (as root it installs it) or `sudo apt-get install postgresql`"
            )
        self._bin = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="uno-pg-"))
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: the package's own user runs it
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._names = itertools.count(1)

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@/postgres?host={self.dir}&port={PORT}"

    def url_of(self, database: str) -> str:
        return f"postgresql://{USER}@/{database}?host={self.dir}&port={PORT}"

    def start(self) -> None:
        data = self.dir / "data"
        self._run(
            "initdb", "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
            "--locale=C", "--no-instructions",
        )  # fmt: skip
        self.start_again()

    def start_again(self) -> None:
        """Start the server on its existing data (after `crash`: it recovers from its WAL)."""
        options = f"-k {self.dir} -p {PORT} -c listen_addresses='' -c max_connections=200"
        self._run(
            "pg_ctl", "-D", str(self.dir / "data"), "-l", str(self.dir / "log"), "-w",
            "-t", "60", "-o", options, "start",
        )  # fmt: skip

    def crash(self) -> None:
        """Stop the server as a crash would: every process quits at once, nothing is
        flushed, no checkpoint (pg_ctl's immediate mode); the data stays for `start_again`."""
        self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    async def new_database(self) -> str:
        """Create an empty database; return its URL."""
        name = f"t{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url_of(name)

    async def drop_database(self, url: str) -> None:
        name = url.split("/")[3].split("?")[0]
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self._as, str(self._bin / tool), *args],
            check=True,
            cwd=self.dir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
