"""HttpPool against a real server on 127.0.0.1 that answers as scripted: connections kept
alive, answers with a length, chunked or ending with the connection, a connection the
server closed while idle, no server, and a server that never answers."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
import trustme
from discord.http import Route

from cogs.uno.transport import http_pool, raw_http
from cogs.uno.transport.http_pool import HttpPool, origin

NO_CONTENT = b"HTTP/1.1 204 No Content\r\n\r\n"
JSON_OK = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{"id":1}'
CHUNKED = (
    b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"id\r\n4;x=1\r\n":2}\r\n0\r\n\r\n'
)
CLOSING = b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"
TO_THE_END = b"HTTP/1.0 200 OK\r\n\r\nall of it"
SILENT = b""  # read the request, answer nothing
HANG_UP = b"-"  # read the request, close the connection without an answer


class Scripted:
    """Answers each request with the next of `answers`; counts connections and requests."""

    def __init__(self, answers: list[bytes]) -> None:
        self.answers = answers
        self.connections = 0
        self.requests: list[bytes] = []
        self.writers: list[asyncio.StreamWriter] = []
        self.hung_up = 0  # connections the client closed

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        try:
            while self.answers:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                self.requests.append(head + await reader.readexactly(length))
                answer = self.answers.pop(0)
                if answer == SILENT:
                    await asyncio.sleep(10)
                if answer == HANG_UP:
                    break
                writer.write(answer)
                await writer.drain()
                if answer in (CLOSING, TO_THE_END):
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            self.hung_up += 1
        finally:
            writer.close()


@pytest.fixture
async def server() -> AsyncIterator[tuple[Scripted, str]]:
    scripted = Scripted([])
    listening = await asyncio.start_server(scripted.serve, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    try:
        yield scripted, f"http://127.0.0.1:{port}/api/v10"
    finally:
        for writer in scripted.writers:
            writer.close()
        listening.close()


async def test_answers_are_read_whole_and_the_connection_kept(
    server: tuple[Scripted, str],
) -> None:
    scripted, base = server
    scripted.answers = [NO_CONTENT, JSON_OK, CHUNKED]
    pool = HttpPool()
    got = [await pool.request(origin(base), "PATCH", "/a", b'{"a":1}', agent="t") for _ in "abc"]
    pool.close()
    assert [(a.status, a.body) for a in got] == [(204, b""), (200, b'{"id":1}'), (200, b'{"id":2}')]
    assert got[1].content_type == "application/json"
    assert scripted.connections == 1
    assert scripted.requests[0].startswith(b"PATCH /api/v10/a HTTP/1.1\r\nHost: 127.0.0.1:")
    assert scripted.requests[0].endswith(b'Content-Length: 7\r\n\r\n{"a":1}')


@pytest.fixture
async def tls_server() -> AsyncIterator[tuple[Scripted, str, trustme.CA]]:
    """The scripted server behind TLS, with a certificate for localhost from a test CA."""
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("localhost").configure_cert(context)
    scripted = Scripted([])
    listening = await asyncio.start_server(scripted.serve, "127.0.0.1", 0, ssl=context)
    port = listening.sockets[0].getsockname()[1]
    try:
        yield scripted, f"https://localhost:{port}/api/v10", ca
    finally:
        for writer in scripted.writers:
            writer.close()
        listening.close()


async def test_https_answers_are_read_and_the_connection_kept(
    tls_server: tuple[Scripted, str, trustme.CA],
) -> None:
    scripted, base, ca = tls_server
    scripted.answers = [JSON_OK, CHUNKED]
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    pool = HttpPool(tls=trusting)
    got = [await pool.request(origin(base), "POST", "/t", b"{}", agent="t") for _ in "ab"]
    pool.close()
    assert [a.body for a in got] == [b'{"id":1}', b'{"id":2}']
    assert scripted.connections == 1
    assert scripted.requests[0].startswith(b"POST /api/v10/t HTTP/1.1\r\nHost: localhost:")


async def test_a_certificate_the_system_does_not_trust_is_refused(
    tls_server: tuple[Scripted, str, trustme.CA],
) -> None:
    scripted, base, _ = tls_server
    scripted.answers = [JSON_OK]
    pool = HttpPool()  # the system's roots: the test CA is not among them
    with pytest.raises(aiohttp.ClientConnectionError, match="CERTIFICATE_VERIFY_FAILED"):
        await pool.request(origin(base), "POST", "/t", b"{}", agent="t")
    pool.close()
    assert scripted.requests == []


@pytest.mark.parametrize("ending", [CLOSING, TO_THE_END])
async def test_an_answer_that_ends_the_connection_is_not_kept(
    server: tuple[Scripted, str], ending: bytes
) -> None:
    scripted, base = server
    scripted.answers = [ending, NO_CONTENT]
    pool = HttpPool()
    first = await pool.request(origin(base), "POST", "/b", b"{}", agent="t")
    second = await pool.request(origin(base), "POST", "/b", b"{}", agent="t")
    pool.close()
    assert first.body in (b"ok", b"all of it")
    assert second.status == 204
    assert scripted.connections == 2


async def test_a_connection_the_server_closed_while_idle_is_replaced(
    server: tuple[Scripted, str],
) -> None:
    scripted, base = server
    scripted.answers = [NO_CONTENT]
    pool = HttpPool()
    await pool.request(origin(base), "POST", "/c", b"{}", agent="t")
    scripted.writers[0].transport.abort()  # the server drops the idle connection
    await asyncio.sleep(0.05)
    scripted.answers = [JSON_OK]
    answer = await pool.request(origin(base), "POST", "/c", b"{}", agent="t")
    pool.close()
    assert answer.status == 200
    assert scripted.connections == 2
    assert len(scripted.requests) == 2  # sent once on the new connection, not twice


async def test_a_kept_connection_closed_before_any_answer_is_tried_on_a_new_one(
    server: tuple[Scripted, str],
) -> None:
    scripted, base = server
    scripted.answers = [NO_CONTENT, HANG_UP, JSON_OK]
    pool = HttpPool()
    await pool.request(origin(base), "POST", "/e", b"{}", agent="t")
    answer = await pool.request(origin(base), "POST", "/e", b"{}", agent="t")
    pool.close()
    assert answer.status == 200
    assert scripted.connections == 2


async def test_a_new_connection_closed_before_any_answer_is_aiohttp_s_error(
    server: tuple[Scripted, str],
) -> None:
    scripted, base = server
    scripted.answers = [HANG_UP]
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await HttpPool().request(origin(base), "POST", "/f", b"{}", agent="t")
    assert scripted.connections == 1


async def test_no_server_is_aiohttp_s_connection_error() -> None:
    listening = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    listening.close()
    await listening.wait_closed()
    with pytest.raises(aiohttp.ClientConnectionError):
        await HttpPool().request(origin(f"http://127.0.0.1:{port}"), "POST", "/", b"", agent="t")


async def test_a_request_never_answered_times_out(
    server: tuple[Scripted, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted, base = server
    scripted.answers = [SILENT]
    monkeypatch.setattr(http_pool, "SWEEP_EVERY", 0.05)
    pool = HttpPool(timeout=0.2)
    with pytest.raises(aiohttp.ServerTimeoutError):
        await asyncio.wait_for(pool.request(origin(base), "POST", "/d", b"{}", agent="t"), 5)
    pool.close()


def test_an_origin_is_split_once_per_base() -> None:
    secure = origin("https://discord.com/api/v10")
    assert (secure.tls, secure.host, secure.port, secure.prefix) == (
        True,
        "discord.com",
        443,
        "/api/v10",
    )
    assert secure.host_header == "discord.com"
    assert origin("http://127.0.0.1:8080/api/v10/").host_header == "127.0.0.1:8080"
    assert origin("http://[::1]:8080/api").host_header == "[::1]:8080"


async def test_the_bot_closing_closes_the_kept_connections(
    server: tuple[Scripted, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted, base = server
    scripted.answers = [NO_CONTENT, NO_CONTENT]
    monkeypatch.setattr(Route, "BASE", base)
    http = discord.http.HTTPClient(asyncio.get_running_loop())

    async def again() -> None:
        raise AssertionError("a 204 is done")

    async with aiohttp.ClientSession() as session:
        await raw_http.send_json(session, "POST", "/g", {"type": 6}, http=http, again=again)
    await asyncio.sleep(0.05)
    assert scripted.hung_up == 0  # kept for the next request
    raw_http.close_connections()
    for _ in range(100):
        if scripted.hung_up:
            break
        await asyncio.sleep(0.01)
    assert scripted.hung_up == 1
    assert scripted.requests[0].endswith(b'\r\n\r\n{"type":6}')


async def test_a_table_edit_goes_straight_with_the_bot_s_token(
    server: tuple[Scripted, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted, base = server
    gone = (
        b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 40\r\n"
        b'\r\n{"message":"Unknown Message","code":100}'
    )
    scripted.answers = [JSON_OK, gone]
    monkeypatch.setattr(Route, "BASE", base)
    client = discord.Client(intents=discord.Intents.none())
    client.http.token = "secret-token"
    await raw_http.edit_message(client, 11, 22, {"embeds": []})
    with pytest.raises(discord.NotFound) as raised:  # the table message was deleted
        await raw_http.edit_message(client, 11, 22, {"embeds": []})
    raw_http.close_connections()
    await client.close()
    assert raised.value.code == 100
    first = scripted.requests[0]
    assert first.startswith(b"PATCH /api/v10/channels/11/messages/22 HTTP/1.1\r\n")
    assert b"\r\nAuthorization: Bot secret-token\r\n" in first
    assert first.endswith(b'\r\n\r\n{"embeds":[]}')
    assert scripted.connections == 1
