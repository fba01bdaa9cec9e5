"""Kept-alive HTTP/1.1 connections for the JSON of click answers and message edits.

A request here is its bytes written on an idle connection and the answer's status
line, headers and body read back (Content-Length or chunked): none of aiohttp's
request machinery, which was the largest share of the bot's CPU per click that was
ours to cut (docs/benchmarks.md). Each connection serves one request at a time; at
most `limit` are open. A request that finds its kept-alive connection closed before
any byte of an answer is sent once more on a new one (the server closed it while
idle, so it had not read the request). One sweeping timer closes the connections of
requests older than `timeout`.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import urlsplit

import aiohttp

MAX_IDLE = 30.0  # seconds a connection is kept unused (servers close idle ones later)
SWEEP_EVERY = 5.0


# The answer's headers an `Answer` keeps: Discord's rate-limit ones (lower-cased).
KEPT_HEADERS = ("retry-after", "via")
RATE_LIMIT_HEADERS = "x-ratelimit-"


@dataclass(frozen=True, slots=True)
class Answer:
    """The status, reason and body of an answer (its Content-Type, for errors), and its
    rate-limit headers, names lower-cased."""

    status: int
    reason: str
    content_type: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class _Conn:
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    used: float  # time.monotonic() it was last released, or its request started
    expired: bool = False  # its request outlived the timeout: closed by the sweeper


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a base URL's requests go."""

    tls: bool
    host: str
    port: int
    prefix: str  # the base's path, e.g. "/api/v10"
    host_header: str


@lru_cache(maxsize=8)
def origin(base: str) -> Origin:
    parts = urlsplit(base)
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    host = parts.hostname or ""
    default = port == (443 if tls else 80)
    named = f"[{host}]" if ":" in host else host  # an IPv6 address, as a URL writes it
    return Origin(tls, host, port, parts.path.rstrip("/"), named if default else f"{named}:{port}")


class HttpPool:
    """Idle connections per origin, and the one-request-at-a-time use of each."""

    def __init__(
        self, *, limit: int = 32, timeout: float = 60.0, tls: ssl.SSLContext | None = None
    ) -> None:
        """`tls`: how https origins are checked (default: the system's trusted roots)."""
        self._idle: dict[Origin, deque[_Conn]] = {}
        self._busy: set[_Conn] = set()
        self._slots = asyncio.Semaphore(limit)
        self._timeout = timeout
        self._sweeper: asyncio.TimerHandle | None = None
        self._tls = tls

    async def request(
        self,
        where: Origin,
        method: str,
        path: str,
        body: bytes,
        *,
        agent: str,
        auth: str | None = None,
        sending: Callable[[], None] | None = None,
    ) -> Answer:
        """`method` `path` with the JSON `body` (and `auth` as its Authorization); the
        answer, or aiohttp's ClientError. `sending` is told when a connection is free and
        the request goes (after any wait for one)."""
        authorization = "" if auth is None else f"Authorization: {auth}\r\n"
        head = (
            f"{method} {where.prefix}{path} HTTP/1.1\r\nHost: {where.host_header}\r\n"
            f"User-Agent: {agent}\r\n{authorization}Content-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        data = head.encode() + body
        async with self._slots:
            if sending is not None:
                sending()
            conn = self._take(where)
            if conn is not None:
                answer = await self._exchange(where, conn, data, reused=True)
                if answer is not None:
                    return answer
            conn = await self._open(where)
            answer = await self._exchange(where, conn, data, reused=False)
            assert answer is not None
            return answer

    def _take(self, where: Origin) -> _Conn | None:
        idle = self._idle.get(where)
        now = time.monotonic()
        while idle:
            conn = idle.pop()
            if now - conn.used < MAX_IDLE and not _gone(conn):
                return conn
            conn.writer.close()
        return None

    async def _open(self, where: Origin) -> _Conn:
        tls = None
        if where.tls:
            tls = self._tls = self._tls or ssl.create_default_context()
        try:
            async with asyncio.timeout(self._timeout):
                reader, writer = await asyncio.open_connection(where.host, where.port, ssl=tls)
        except (OSError, TimeoutError) as error:
            raise aiohttp.ClientConnectionError(
                f"cannot reach {where.host_header}: {error}"
            ) from error
        return _Conn(reader, writer, time.monotonic())

    async def _exchange(
        self, where: Origin, conn: _Conn, data: bytes, *, reused: bool
    ) -> Answer | None:
        """Send and read one answer; None if a reused connection was found closed first."""
        conn.used = time.monotonic()
        self._busy.add(conn)
        self._arm_sweeper()
        keep = False
        try:
            conn.writer.write(data)
            answer, keep = await _read_answer(conn.reader)
            return answer
        except asyncio.IncompleteReadError as error:
            if conn.expired:
                raise aiohttp.ServerTimeoutError(f"{where.host_header}: no answer") from error
            if reused and not error.partial:
                return None
            raise aiohttp.ServerDisconnectedError() from error
        except (OSError, asyncio.LimitOverrunError, ValueError) as error:
            if reused and isinstance(error, ConnectionError):
                return None
            raise aiohttp.ClientConnectionError(f"{where.host_header}: {error!r}") from error
        finally:
            self._busy.discard(conn)
            if keep:
                conn.used = time.monotonic()
                self._idle.setdefault(where, deque()).append(conn)
            else:
                conn.writer.close()

    def _arm_sweeper(self) -> None:
        if self._sweeper is None:
            loop = asyncio.get_running_loop()
            self._sweeper = loop.call_later(SWEEP_EVERY, self._sweep)

    def _sweep(self) -> None:
        """Close the connections of requests past the timeout: their reads end at once."""
        self._sweeper = None
        too_old = time.monotonic() - self._timeout
        for conn in [c for c in self._busy if c.used < too_old]:
            conn.expired = True
            conn.writer.transport.abort()
        if self._busy:
            self._arm_sweeper()

    def close(self) -> None:
        """Close every idle connection (the client is closing)."""
        for idle in self._idle.values():
            while idle:
                idle.pop().writer.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None


def _gone(conn: _Conn) -> bool:
    return conn.reader.at_eof() or conn.writer.transport.is_closing()


async def _read_answer(reader: asyncio.StreamReader) -> tuple[Answer, bool]:
    """The answer's head and body; whether the connection may serve another request."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    version, status_text, *reason = lines[0].split(" ", 2)
    status = int(status_text)
    fields: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            fields[name.strip().lower()] = value.strip()
    keep = version == "HTTP/1.1" and fields.get("connection", "").lower() != "close"
    if status in (204, 304) or 100 <= status < 200:
        body = b""
    elif "chunked" in fields.get("transfer-encoding", "").lower():
        body = await _chunked(reader)
    elif "content-length" in fields:
        body = await reader.readexactly(int(fields["content-length"]))
    else:
        body, keep = await reader.read(), False  # the body ends with the connection
    kept = {
        name: value
        for name, value in fields.items()
        if name.startswith(RATE_LIMIT_HEADERS) or name in KEPT_HEADERS
    }
    answer = Answer(status, reason[0] if reason else "", fields.get("content-type", ""), body, kept)
    return answer, keep


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers, then the end
                pass
            return b"".join(parts)
        parts.append((await reader.readexactly(size + 2))[:-2])
